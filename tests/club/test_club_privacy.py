"""The club's register lets go of a person (club/services/privacy.py): an erased member
keeps their history under a pseudonym, asked by an organiser at once, at the end of a
retention period only when nothing still needs them on the register."""
from __future__ import annotations

from datetime import timedelta

import pytest

from club.models import Member
from club.services.chrony import replica_register
from club.services.privacy import club_event_purge, club_person_erase, member_erase
from club.services.register import member_check_in
from club.services.sanctions import sanction_record
from fixtures import game, new_member, same_club  # noqa: F401 - game: a fixture
from players.privacy import Person, Scrub, pseudonym
from players.services import event_create

pytestmark = pytest.mark.django_db


def karim_with_history(game, by) -> Member:
    karim = new_member(game, by)
    sanction_record(event=game, member=karim, kind="warning", by=by,
                    reason="Karim Benali a tiré après sa touche")
    replica_register(event=game, member=karim, label="La M4 de Karim Benali", type="aeg",
                     calibre_mm=6.0, by=by)
    return karim


def test_an_erased_member_keeps_their_history_under_a_pseudonym(game, narrator_user):
    karim = karim_with_history(game, narrator_user)
    karim.email = "karim@example.org"
    karim.save(update_fields=["email"])

    assert member_erase(member=karim, pseudonym="Membre 7F3K", scrub=Scrub({"Karim Benali": "Membre 7F3K"}))

    karim = Member.objects.get(pk=karim.pk)
    assert (karim.name, karim.nickname, karim.phone, karim.email, karim.licence_number) == (
        "Membre 7F3K", "", "", "", f"ERASED-{karim.pk}")
    assert [s.reason for s in karim.sanctions.all()] == ["Membre 7F3K a tiré après sa touche"]
    assert [r.label for r in karim.replicas.all()] == ["La M4 de Membre 7F3K"]


def test_erasing_a_member_twice_changes_nothing_the_second_time(game, narrator_user):
    karim = karim_with_history(game, narrator_user)
    assert member_erase(member=karim, pseudonym="Membre 7F3K", scrub=Scrub({"Karim Benali": "Membre 7F3K"}))
    assert not member_erase(member=karim, pseudonym="Autre", scrub=Scrub({"Membre": "X"}))
    karim = Member.objects.get(pk=karim.pk)
    assert karim.name == "Membre 7F3K"
    assert [r.label for r in karim.replicas.all()] == ["La M4 de Membre 7F3K"]


def test_a_revocation_s_reason_is_scrubbed_and_a_replica_s_label_stays_within_its_column(
        game, narrator_user):
    from club.services.sanctions import sanction_revoke

    karim = karim_with_history(game, narrator_user)
    sanction_revoke(sanction=karim.sanctions.get(), by=narrator_user,
                    reason="Karim Benali s'est excusé")
    long_name = "Membre " + "X" * 120

    member_erase(member=karim, pseudonym=long_name, scrub=Scrub({"Karim Benali": long_name}))

    karim = Member.objects.get(pk=karim.pk)
    assert karim.sanctions.get().revoked_reason == f"{long_name} s'est excusé"
    assert karim.replicas.get().label == f"La M4 de {long_name}"[:100]


def person_of(character, **fields) -> Person:
    return Person(user=character.user, characters=(character,), event_ids=(character.event_id,),
                  pseudonym="Joueur 7F3K", **fields)


@pytest.fixture
def karim_in_two_games(clock, game, narrator_user):
    """Karim checked in to the game, and to a newer game of the same club."""
    karim = new_member(game, narrator_user)
    character, _ = member_check_in(event=game, member=karim, by=narrator_user)
    newer = event_create(name="Partie d'août", ruleset="airsoft_rats", language="fr",
                         by=narrator_user, start_clock=True)
    same_club(newer, game, narrator_user)
    member_check_in(event=newer, member=karim, by=narrator_user)
    return karim, character


def test_an_organiser_s_request_erases_a_member_still_playing_elsewhere(karim_in_two_games,
                                                                       narrator_user):
    karim, character = karim_in_two_games
    sanction_record(event=character.event, member=karim, kind="warning", by=narrator_user,
                    reason="Karim Benali a tiré après sa touche")
    club_person_erase(person=person_of(character, requested=True),
                      scrub=Scrub({"Karim Benali": "Joueur 7F3K"}))
    karim = Member.objects.get(pk=karim.pk)
    assert karim.name == "Joueur 7F3K"
    assert [s.reason for s in karim.sanctions.all()] == ["Joueur 7F3K a tiré après sa touche"]


def test_at_the_end_of_retention_a_member_still_playing_elsewhere_is_kept(karim_in_two_games):
    karim, character = karim_in_two_games
    club_person_erase(person=person_of(character, requested=False), scrub=Scrub())
    assert Member.objects.get(pk=karim.pk).name == "Karim Benali"


def test_at_the_end_of_retention_a_member_playing_nowhere_else_is_erased(clock, game,
                                                                         narrator_user):
    karim = new_member(game, narrator_user)
    character, _ = member_check_in(event=game, member=karim, by=narrator_user)
    club_person_erase(person=person_of(character, requested=False), scrub=Scrub())
    assert Member.objects.get(pk=karim.pk).name == "Joueur 7F3K"


def test_at_the_end_of_retention_an_exclusion_long_over_keeps_no_one(clock, game, narrator_user):
    karim = new_member(game, narrator_user)
    character, _ = member_check_in(event=game, member=karim, by=narrator_user)
    sanction_record(event=game, member=karim, kind="excluded", by=narrator_user,
                    reason="tricherie", ends_at=clock.now + timedelta(days=30))
    clock.advance(timedelta(days=400).total_seconds())
    club_person_erase(person=person_of(character, requested=False), scrub=Scrub())
    assert Member.objects.get(pk=karim.pk).name == "Joueur 7F3K"


def test_an_event_s_purge_erases_its_members_but_those_the_register_still_needs(
        clock, game, narrator_user):
    karim = karim_with_history(game, narrator_user)                     # registered here
    member_check_in(event=game, member=karim, by=narrator_user)
    banned = new_member(game, narrator_user, name="Denis Roux", licence="rat-0043", nickname="")
    sanction_record(event=game, member=banned, kind="permanent_ban", by=narrator_user,
                    reason="Denis Roux a menacé un arbitre")
    erased_before = new_member(game, narrator_user, name="Zoé Petit", licence="rat-0044", nickname="")
    member_erase(member=erased_before, pseudonym="Membre AAAA", scrub=Scrub())
    # Excluded for a month, long over by the end of the retention: nothing keeps her.
    excluded = new_member(game, narrator_user, name="Inès Faure", licence="rat-0045", nickname="")
    sanction_record(event=game, member=excluded, kind="excluded", by=narrator_user,
                    reason="tricherie", ends_at=clock.now + timedelta(days=30))
    clock.advance(timedelta(days=400).total_seconds())

    said = club_event_purge(event=game, scrub=Scrub({"Partie": "Partie"}))

    code, hers = pseudonym("member", karim.pk, "fr"), pseudonym("member", excluded.pk, "fr")
    # Licence numbers are kept in capitals; the two share a phone number: the last one's
    # pseudonym replaces it.
    assert said == {"Karim Benali": code, "Kaïman": code, "RAT-0042": code,
                    "Inès Faure": hers, "+33 6 12 34 56 78": hers, "RAT-0045": hers}
    assert Member.objects.get(pk=excluded.pk).name == hers
    karim = Member.objects.get(pk=karim.pk)
    assert (karim.name, karim.licence_number) == (code, f"ERASED-{karim.pk}")
    assert [s.reason for s in karim.sanctions.all()] == [f"{code} a tiré après sa touche"]
    assert Member.objects.get(pk=banned.pk).name == "Denis Roux"        # still banned
    assert Member.objects.get(pk=erased_before.pk).name == "Membre AAAA"
