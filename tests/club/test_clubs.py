"""Whose register an event uses: a new event's desk keeps one of its own (a club named
after the event, made at its first member), two clubs on one server each number their
members as they like and stay apart, and an organiser of a club's event attaches a new
event to that club so that its desk checks in the club's members."""
from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from club.models import Club, ClubEvent, Member
from fixtures import (check_in, client_for, fingerprint, game, member, new_member,  # noqa: F401
                      referee_user, sanction)
from players.models import Character, JournalEntry, Membership
from players.services import event_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def sangliers_orga(db):
    return get_user_model().objects.create_user(username="orga-sangliers", is_staff=True)


@pytest.fixture
def sangliers(clock, sangliers_orga):
    return event_create(name="Journée des Sangliers", ruleset="airsoft_rats",
                        by=sangliers_orga, start_clock=True)


def register(api, event, name, licence):
    return api.post(f"/api/events/{event.pk}/members/",
                    {"name": name, "phone": "+33 7 00 00 00 00", "licence_number": licence},
                    format="json")


def attach(api, event, club_id, key=None):
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    return api.post(f"/api/events/{event.pk}/club/", {"club": club_id}, format="json", **headers)


def test_a_new_events_first_member_gives_it_a_club_of_its_own(game, narrator_api):
    assert narrator_api.get(f"/api/events/{game.pk}/club/").json()["club"] is None
    empty = narrator_api.get(f"/api/events/{game.pk}/members/").json()
    assert empty["club"] is None and empty["members"] == []

    assert register(narrator_api, game, "Karim Benali", "rat-0042").status_code == 201

    club = narrator_api.get(f"/api/events/{game.pk}/club/").json()["club"]
    assert club["name"] == "Partie du samedi"
    assert club["events"] == [{"id": game.pk, "name": "Partie du samedi"}]
    assert Member.objects.get().club_id == club["id"]
    assert [line.what for line in JournalEntry.objects.filter(event=game, kind="club")] == [
        "club_created", "member_registered"]


def test_two_clubs_with_the_same_licence_number_stay_apart(game, member, narrator_api,
                                                          sangliers, sangliers_orga):
    sangliers_api = client_for(sangliers_orga)

    theirs = register(sangliers_api, sangliers, "Aude Marchal", "RAT-0042")

    assert theirs.status_code == 201, theirs.content
    assert "Karim" not in theirs.content.decode()
    aude = Member.objects.get(pk=theirs.json()["member"]["id"])
    assert aude.club_id != member.club_id
    # A second RAT-0042 in one club is still refused, naming who has it.
    again = register(sangliers_api, sangliers, "Autre", "rat-0042")
    assert again.status_code == 409 and "Aude Marchal" in again.json()["detail"]

    # Each desk checks in its own RAT-0042.
    at_sangliers = check_in(sangliers_api, sangliers, "RAT-0042").json()["character"]
    at_game = check_in(narrator_api, game, "RAT-0042").json()["character"]
    assert at_sangliers["name"] == "Aude Marchal" and at_game["name"] == "Karim Benali"
    # A ban at the Sangliers keeps Aude out of their games, not Karim out of his club's.
    assert sanction(sangliers_api, sangliers, "RAT-0042", kind="permanent_ban",
                    reason="bagarre").status_code == 201
    assert Character.objects.get(pk=at_game["id"]).check_in.member == member
    karim_history = narrator_api.get(f"/api/members/{member.pk}/sanctions/").json()
    assert karim_history["banned"] is False and karim_history["sanctions"] == []
    assert sangliers_api.get(f"/api/members/{member.pk}/sanctions/").status_code == 404
    assert narrator_api.get(f"/api/members/{aude.pk}/sanctions/").status_code == 404
    # Each search finds its own club's members only.
    assert [m["name"] for m in narrator_api.get(f"/api/events/{game.pk}/members/?q=rat")
            .json()["members"]] == ["Karim Benali"]
    assert [m["name"] for m in sangliers_api.get(f"/api/events/{sangliers.pk}/members/?q=rat")
            .json()["members"]] == ["Aude Marchal"]


def test_an_organiser_attaches_a_new_event_to_the_club(clock, game, member, narrator_user,
                                                       narrator_api):
    club = member.club
    sunday = event_create(name="Partie du dimanche", ruleset="airsoft_rats", by=narrator_user,
                          start_clock=True)
    sunday_referee = get_user_model().objects.create_user(username="arbitre-dimanche")
    Membership.objects.create(event=sunday, user=sunday_referee, role=Membership.REFEREE)
    assert client_for(sunday_referee).get(f"/api/members/{member.pk}/sanctions/").status_code == 404

    attached = attach(narrator_api, sunday, club.pk, key="tap-1")

    assert attached.status_code == 200, attached.content
    assert [e["name"] for e in attached.json()["club"]["events"]] == [
        "Partie du samedi", "Partie du dimanche"]
    line, = JournalEntry.objects.filter(event=sunday, kind="club", what="club_joined")
    assert line.detail == {"club": club.pk, "name": "Partie du samedi"}
    # Sunday's desk checks in the club's members; its referee reads their history.
    assert check_in(narrator_api, sunday, "RAT-0042").status_code == 201
    assert client_for(sunday_referee).get(f"/api/members/{member.pk}/sanctions/").status_code == 200
    # A replayed tap, or attaching it again, changes nothing.
    replayed = attach(narrator_api, sunday, club.pk, key="tap-1")
    assert replayed["Idempotent-Replayed"] == "true"
    assert replayed.json()["club"] == attached.json()["club"]
    assert attach(narrator_api, sunday, club.pk).status_code == 200
    assert ClubEvent.objects.filter(event=sunday).count() == 1


def test_only_an_organiser_of_the_club_attaches_an_event_to_it(game, member, narrator_api,
                                                               referee_user, sangliers,
                                                               sangliers_orga):
    club = member.club
    own = event_create(name="Partie de l'arbitre", ruleset="airsoft_rats", by=referee_user)
    before = fingerprint()

    # The Sangliers' organiser does not learn that the club exists.
    refused = attach(client_for(sangliers_orga), sangliers, club.pk)
    assert refused.status_code == 404
    assert "Partie du samedi" not in refused.content.decode()
    # A referee of the club's game, organiser of an event of their own, may not either.
    assert attach(client_for(referee_user), own, club.pk).status_code == 404
    # Nor may the club's organiser take an event they do not organise.
    assert attach(narrator_api, sangliers, club.pk).status_code == 404

    assert fingerprint() == before
    seen = client_for(sangliers_orga).get(f"/api/events/{sangliers.pk}/club/")
    assert seen.json()["club"] is None


def test_an_event_in_a_club_stays_there(game, member, narrator_user, sangliers, sangliers_orga):
    register(client_for(sangliers_orga), sangliers, "Aude Marchal", "SNG-1")
    Membership.objects.create(event=sangliers, user=narrator_user, role=Membership.NARRATOR)
    before = fingerprint()

    moved = attach(client_for(narrator_user, "fr"), sangliers, member.club_id)

    assert moved.status_code == 409
    assert moved.json()["error"] == "event_in_club"
    assert "Journée des Sangliers" in moved.json()["detail"]
    assert fingerprint() == before
    assert Club.objects.count() == 2


def test_a_superuser_renames_a_club_in_the_admin(client, game, member):
    root = get_user_model().objects.create_user(username="root", is_staff=True,
                                                is_superuser=True)
    client.force_login(root)
    url = f"/admin/club/club/{member.club_id}/change/"
    page = client.get(url)
    assert page.status_code == 200 and "Partie du samedi" in page.content.decode()

    link = ClubEvent.objects.get()
    renamed = client.post(url, {"name": "Les Rats du Terrier", "event_links-TOTAL_FORMS": "1",
                                "event_links-INITIAL_FORMS": "1", "event_links-0-id": link.pk,
                                "event_links-0-club": member.club_id})

    assert renamed.status_code == 302, renamed.content.decode()[:2000]
    assert Club.objects.get().name == "Les Rats du Terrier"
    assert ClubEvent.objects.get().event == game
    # Clubs are made by a desk's first member, not in the admin.
    assert client.get("/admin/club/club/add/").status_code == 403
