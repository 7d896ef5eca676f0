"""The club's register: checking members in to a game, and the sanctions register with
who may record what (referees light faults, organisers grave ones), exclusions that keep
a member off the field until their end, permanent bans, revocation, and rule B13 (repeated
cheating is a grave fault)."""
from __future__ import annotations

from datetime import timedelta

import pytest

from fixtures import (check_in, game, member, new_member, referee_api,  # noqa: F401
                          referee_user, same_club, sanction)
from fixtures import START, act, client_for, snapshot
from players.models import Character, JournalEntry
from club.models import Sanction
from players.services import character_create, event_create

pytestmark = pytest.mark.django_db

DAY = 24 * 3600


def journal(game, **filters):
    return list(JournalEntry.objects.filter(event=game, **filters))


# --- check-in ------------------------------------------------------------------------------

def test_check_in_creates_the_members_character_once(game, member, narrator_api):
    first = check_in(narrator_api, game, "RAT-0042", team="Rouges")

    assert first.status_code == 201, first.content
    body = first.json()
    assert body["created"] is True
    assert body["character"]["name"] == "Karim Benali"
    assert body["character"]["team"] == "Rouges"
    character = Character.objects.get(pk=body["character"]["id"])
    assert character.check_in.member == member and character.event == game
    line, = journal(game, kind="club", what="checked_in")
    assert line.character == character and line.actor_label == "narrator"

    # A second check-in (by licence in any case, or by id) finds the same character.
    again = check_in(narrator_api, game, "rat-0042")
    by_id = check_in(narrator_api, game, member.pk)
    assert again.status_code == by_id.status_code == 200
    assert again.json()["character"]["id"] == by_id.json()["character"]["id"] == character.pk
    assert again.json()["created"] is False
    assert Character.objects.filter(check_in__member=member).count() == 1


def test_an_unknown_member_is_named_in_the_refusal(game, member, narrator_api):
    response = check_in(narrator_api, game, "RAT-9999")
    assert response.status_code == 404
    assert response.json()["error"] == "unknown_member"
    assert "RAT-9999" in response.json()["detail"]
    # An id is never taken for a licence number, nor the reverse.
    assert check_in(narrator_api, game, str(member.pk)).status_code == 404
    assert Character.objects.filter(event=game).count() == 0


def test_excluded_member_is_refused_until_the_end_date(clock, game, member, narrator_user,
                                                      narrator_api):
    ends = START + timedelta(days=30)
    recorded = sanction(narrator_api, game, member.pk, kind="excluded",
                        reason="insultes envers un arbitre", ends_at=ends.isoformat())
    assert recorded.status_code == 201, recorded.content
    assert recorded.json()["sanction"]["level"] == "grave"
    journal_before = JournalEntry.objects.count()

    refused = check_in(narrator_api, game, "RAT-0042")

    assert refused.status_code == 409
    assert refused.json()["error"] == "member_excluded"
    assert "2026-07-06 20:00" in refused.json()["detail"]
    assert "Karim Benali" in refused.json()["detail"]
    french = check_in(client_for(narrator_user, "fr"), game, "RAT-0042")
    assert "jusqu'au 2026-07-06 20:00" in french.json()["detail"]
    assert Character.objects.filter(event=game).count() == 0
    assert JournalEntry.objects.count() == journal_before

    clock.advance(30 * DAY - 60)              # a minute before the end: still out
    desk = client_for(narrator_user)          # a month later: a fresh session
    assert check_in(desk, game, "RAT-0042").status_code == 409
    clock.advance(61)                         # the exclusion is over
    accepted = check_in(desk, game, "RAT-0042")
    assert accepted.status_code == 201, accepted.content


def test_permanent_ban_is_refused_forever(clock, game, member, narrator_user, narrator_api):
    assert sanction(narrator_api, game, member.pk, kind="permanent_ban",
                    reason="bagarre").status_code == 201
    clock.advance(5 * 365 * DAY)
    refused = check_in(client_for(narrator_user), game, "RAT-0042")
    assert refused.status_code == 409
    assert refused.json()["error"] == "member_banned"
    assert "permanently banned" in refused.json()["detail"]
    assert Character.objects.filter(event=game).count() == 0


def test_expulsion_for_the_rest_of_the_day_ends_at_midnight(clock, game, member, narrator_user,
                                                           narrator_api):
    recorded = sanction(narrator_api, game, member.pk, kind="expelled_rest_of_day",
                        reason="alcool pendant le jeu")
    assert recorded.json()["sanction"]["ends_at"] == "2026-06-07T00:00:00+00:00"
    other_game = event_create(name="Partie de nuit", ruleset="gn_fr",
                              by=narrator_user)
    same_club(other_game, as_event=game, by=narrator_user)
    clock.advance(3 * 3600)                   # 23:00, another game of the same day
    assert check_in(narrator_api, other_game, "RAT-0042").status_code == 409
    clock.advance(3600)                       # midnight: a new day
    assert check_in(narrator_api, other_game, "RAT-0042").status_code == 201


# --- who records what ----------------------------------------------------------------------

def test_referee_records_light_faults_but_not_grave_ones(game, member, referee_api):
    refused = sanction(referee_api, game, member.pk, kind="expelled_rest_of_day",
                       reason="insultes")
    assert refused.status_code == 403
    assert refused.json()["error"] == "sanction_needs_organiser"
    assert "Only the organisers" in refused.json()["detail"]
    assert "expulsion for the rest of the day" in refused.json()["detail"]
    assert Sanction.objects.count() == 0
    assert journal(game, kind="sanction") == []

    warned = sanction(referee_api, game, "RAT-0042", kind="warning", reason="info donnée en étant out")
    out = sanction(referee_api, game, member.pk, kind="sanction_out", reason="distance de 3 m")
    assert warned.status_code == out.status_code == 201
    assert [s.kind for s in Sanction.objects.order_by("id")] == ["warning", "sanction_out"]
    line = journal(game, kind="sanction", what="warning")[0]
    assert line.actor_label == "arbitre" and line.detail["role"] == "referee"


def test_a_player_cannot_record_or_check_in_anything(game, member, narrator_api):
    character = check_in(narrator_api, game, "RAT-0042").json()["character"]
    player_api = client_for(Character.objects.get(pk=character["id"]).user)
    journal_before = JournalEntry.objects.count()

    assert sanction(player_api, game, member.pk, kind="warning").status_code == 404
    assert check_in(player_api, game, "RAT-0042").status_code == 404
    assert player_api.get(f"/api/events/{game.pk}/sanctions/").status_code == 404

    assert Sanction.objects.count() == 0
    assert JournalEntry.objects.count() == journal_before


def test_an_exclusion_one_second_over_a_year_names_the_seconds(clock, game, member,
                                                               narrator_api):
    """A refusal by one second must show that second: "at the latest 09:02, not 09:02"
    tells the organiser nothing."""
    clock.advance(2 * 60 + 7)                                     # decided at 20:02:07
    over = sanction(narrator_api, game, member.pk, kind="excluded",
                    ends_at=(START + timedelta(days=365, minutes=2, seconds=8)).isoformat())
    assert over.json()["error"] == "exclusion_too_long"
    assert "2027-06-06 20:02:07" in over.json()["detail"]          # the limit, to the second
    assert "2027-06-06 20:02:08" in over.json()["detail"]          # and what was asked
    assert Sanction.objects.count() == 0
    exact = sanction(narrator_api, game, member.pk, kind="excluded",
                     ends_at=(START + timedelta(days=365, minutes=2, seconds=7)).isoformat())
    assert exact.status_code == 201, exact.content


def test_an_exclusion_lasts_at_most_one_year(game, member, narrator_api):
    too_long = sanction(narrator_api, game, member.pk, kind="excluded",
                        ends_at=(START + timedelta(days=366)).isoformat())
    assert too_long.status_code == 400
    assert too_long.json()["error"] == "exclusion_too_long"
    assert "2027-06-06 20:00" in too_long.json()["detail"]        # the limit, named
    assert "2027-06-07 20:00" in too_long.json()["detail"]        # and what was asked
    no_end = sanction(narrator_api, game, member.pk, kind="excluded")
    assert no_end.status_code == 400 and no_end.json()["error"] == "exclusion_end_required"
    assert "2027-06-06 20:00:00" in no_end.json()["detail"]       # the latest end, to the second
    past = sanction(narrator_api, game, member.pk, kind="excluded",
                    ends_at=(START - timedelta(days=1)).isoformat())
    assert past.status_code == 400 and past.json()["error"] == "exclusion_in_past"
    assert "2026-06-05 20:00:00" in past.json()["detail"]         # what was asked, named
    now = sanction(narrator_api, game, member.pk, kind="excluded", ends_at=START.isoformat())
    assert now.json()["error"] == "exclusion_in_past"             # ending now is no exclusion
    warning_with_end = sanction(narrator_api, game, member.pk, kind="warning",
                                ends_at=(START + timedelta(days=1)).isoformat())
    assert warning_with_end.json()["error"] == "end_not_applicable"
    assert warning_with_end.json()["detail"].endswith("; warning does not.")   # what was asked
    assert Sanction.objects.count() == 0

    one_year = sanction(narrator_api, game, member.pk, kind="excluded",
                        ends_at=(START + timedelta(days=365)).isoformat())
    assert one_year.status_code == 201, one_year.content


def test_a_sanction_needs_a_reason_and_one_target(game, member, narrator_api):
    no_reason = sanction(narrator_api, game, member.pk, kind="warning", reason="")
    assert no_reason.status_code == 400 and "reason" in no_reason.json()["detail"]
    nobody = sanction(narrator_api, game, kind="warning")
    assert nobody.status_code == 400 and "member, character or character_code" in nobody.json()["detail"]
    stranger = character_create(event=game, name="Sans licence")
    unlinked = sanction(narrator_api, game, character=stranger.pk, kind="warning")
    assert unlinked.status_code == 400 and unlinked.json()["error"] == "member_not_linked"
    assert Sanction.objects.count() == 0


# --- revocation ----------------------------------------------------------------------------

def test_revocation_lets_the_member_check_in_again(game, member, narrator_api, referee_api):
    excluded = sanction(narrator_api, game, member.pk, kind="excluded", reason="bagarre",
                        ends_at=(START + timedelta(days=90)).isoformat()).json()["sanction"]
    assert check_in(narrator_api, game, "RAT-0042").status_code == 409
    url = f"/api/sanctions/{excluded['id']}/revoke/"

    by_referee = referee_api.post(url, {"reason": "le comité annule"}, format="json")
    assert by_referee.status_code == 403
    assert by_referee.json()["error"] == "revoke_needs_organiser"

    revoked = narrator_api.post(url, {"reason": "le comité annule : légitime défense"},
                                format="json")
    assert revoked.status_code == 200, revoked.content
    assert revoked.json()["sanction"]["revoked_by"] == "narrator"
    assert revoked.json()["sanction"]["bars_check_in"] is False
    assert check_in(narrator_api, game, "RAT-0042").status_code == 201
    line, = journal(game, kind="sanction", what="revoked")
    assert line.detail["reason"] == "le comité annule : légitime défense"

    again = narrator_api.post(url, {"reason": "encore"}, format="json")
    assert again.status_code == 409 and again.json()["error"] == "sanction_revoked_already"
    # The register keeps it, marked revoked.
    history = narrator_api.get(f"/api/members/{member.pk}/sanctions/").json()
    assert [s["revoked_at"] is not None for s in history["sanctions"]] == [True]


# --- B13: repeated cheating ----------------------------------------------------------------

def test_repeated_cheating_is_recorded_as_grave(game, member, narrator_api, referee_api):
    first = sanction(referee_api, game, member.pk, kind="warning", cheating=True,
                     reason="ne prend pas ses billes")
    assert first.status_code == 201
    assert first.json()["escalated"] is False
    assert first.json()["sanction"]["level"] == "light"

    second = sanction(referee_api, game, member.pk, kind="sanction_out", cheating=True,
                      reason="ne prend toujours pas ses billes")

    assert second.status_code == 201, second.content
    body = second.json()
    assert body["escalated"] is True
    assert body["sanction"]["level"] == "grave"
    assert body["sanction"]["kind"] == "removed_from_game"
    escalation = body["sanction"]["escalation"]
    assert escalation["from"] == "sanction_out"
    assert escalation["because_of"] == first.json()["sanction"]["id"]
    assert "Repeated cheating is a grave fault" in escalation["why"]
    line, = journal(game, kind="sanction", what="removed_from_game")
    assert line.detail["asked"] == "sanction_out" and line.actor_label == "arbitre"


def test_a_revoked_cheating_sanction_does_not_count(game, member, narrator_api):
    first = sanction(narrator_api, game, member.pk, kind="warning", cheating=True).json()
    narrator_api.post(f"/api/sanctions/{first['sanction']['id']}/revoke/",
                      {"reason": "erreur d'arbitrage"}, format="json")
    second = sanction(narrator_api, game, member.pk, kind="warning", cheating=True)
    assert second.json()["escalated"] is False
    assert second.json()["sanction"]["kind"] == "warning"


# --- reading the register ------------------------------------------------------------------

def test_a_members_history_spans_events(clock, game, member, narrator_user, narrator_api,
                                        referee_api):
    character = check_in(narrator_api, game, "RAT-0042").json()["character"]
    sanction(narrator_api, game, member.pk, kind="warning", reason="pas crié out")
    other_game = event_create(name="Partie suivante", ruleset="gn_fr", by=narrator_user)
    same_club(other_game, as_event=game, by=narrator_user)
    clock.advance(7 * DAY)
    sanction(narrator_api, other_game, member.pk, kind="sanction_out", reason="distance")
    new_member(game, narrator_user, name="Léa Roux", licence="RAT-0099")

    listed = referee_api.get(f"/api/events/{game.pk}/sanctions/")
    assert listed.status_code == 200
    assert [s["kind"] for s in listed.json()["sanctions"]] == ["warning"]

    url = f"/api/members/{member.pk}/sanctions/"
    history = narrator_api.get(url).json()
    assert [(s["kind"], s["event"]["name"]) for s in history["sanctions"]] == [
        ("sanction_out", "Partie suivante"), ("warning", "Partie du samedi")]
    assert history["banned"] is False and history["barred_until"] is None
    # The staff of the club's events read it; the member's own player too; nobody else.
    assert referee_api.get(url).status_code == 200
    own = client_for(Character.objects.get(pk=character["id"]).user)
    assert own.get(url).status_code == 200
    someone = character_create(event=game, name="Curieux")
    assert client_for(someone.user).get(url).status_code == 404


def test_sanction_out_reaches_the_players_game(game, member, narrator_api, referee_api):
    character = check_in(narrator_api, game, "RAT-0042").json()["character"]
    sanction(referee_api, game, character=character["id"], kind="warning")
    assert journal(game, kind="sanction", what="applied_to_game") == []

    player = Character.objects.get(pk=character["id"])
    act(client_for(player.user), player, "respawn")             # at spawn -> in play
    out = sanction(referee_api, game, character=character["id"], kind="sanction_out")

    assert out.json()["sanction"]["character"] == character["id"]
    line, = journal(game, kind="sanction", what="applied_to_game")
    assert line.character_id == character["id"]
    assert line.detail["sanction"] == out.json()["sanction"]["id"]
    state = snapshot(client_for(player.user), player)["state"]
    assert state["key"] == "out_returning"                       # P15: back to the spawn


def test_a_grave_sanction_removes_the_player_from_the_game(game, member, narrator_api):
    character = check_in(narrator_api, game, "RAT-0042").json()["character"]
    player = Character.objects.get(pk=character["id"])
    sanction(narrator_api, game, character=character["id"], kind="removed_from_game",
             reason="Insultes envers l'arbitre")
    assert snapshot(client_for(player.user), player)["state"]["key"] == "removed"   # P22


def test_a_replayed_sanction_is_recorded_once(game, member, referee_api):
    first = sanction(referee_api, game, member.pk, kind="warning", key="tap-1")
    replay = sanction(referee_api, game, member.pk, kind="warning", key="tap-1")
    assert replay.status_code == 201 and replay["Idempotent-Replayed"] == "true"
    assert replay.json()["sanction"]["id"] == first.json()["sanction"]["id"]
    assert Sanction.objects.count() == 1


def test_a_referee_names_the_player_by_the_code_on_their_qr(game, member, narrator_api,
                                                            referee_api):
    character = check_in(narrator_api, game, "RAT-0042").json()["character"]
    player = Character.objects.get(pk=character["id"])
    given = sanction(referee_api, game, character_code=player.code.lower(), kind="warning")
    assert given.status_code == 201, given.content
    assert given.json()["sanction"]["character"] == player.pk
    unknown = sanction(referee_api, game, character_code="ZZZZZZ", kind="warning")
    assert unknown.status_code == 404 and "ZZZZZZ" in unknown.json()["detail"]
    both = sanction(referee_api, game, member.pk, character_code=player.code, kind="warning")
    assert both.status_code == 400
    assert Sanction.objects.count() == 1
