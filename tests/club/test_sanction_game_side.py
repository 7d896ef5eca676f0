"""A sanction's game side and its dates (club/services/sanctions.py): who the journal says
took the player out, the register-only line when the game cannot, a year's exclusion from a
29 February, the end of the day; and whose character a replica's line names
(club/services/chrony.py)."""
from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone

from club.services.chrony import replica_register
from club.services.register import member_check_in
from club.services.sanctions import end_of_day, one_year_after, sanction_record
from fixtures import (act, client_for, game, new_member, referee_user, same_club,  # noqa: F401
                      snapshot)          # game, referee_user: fixtures
from players.models import JournalEntry
from players.services import character_create, event_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def referee(referee_user):
    return referee_user


def in_play(game, narrator_user):
    member = new_member(game, narrator_user)
    character, _ = member_check_in(event=game, member=member, by=narrator_user)
    act(client_for(character.user), character, "respawn")            # at spawn -> in play
    return member, character


def test_a_sanction_out_takes_the_player_out_in_the_deciding_referee_s_name(game, narrator_user,
                                                                           referee):
    member, character = in_play(game, narrator_user)

    sanction = sanction_record(event=game, member=member, kind="sanction_out", by=referee,
                               reason="tir après touche", character=character)

    applied = JournalEntry.objects.get(event=game, kind="sanction", what="applied_to_game")
    assert (applied.actor, applied.character) == (referee, character)
    assert applied.detail == {"sanction": sanction.pk, "kind": "sanction_out", "action": "sanction_out"}
    taken_out = JournalEntry.objects.get(event=game, kind="action", what="sanction_out")
    assert (taken_out.actor, taken_out.detail["sanction"]) == (referee, sanction.pk)
    assert snapshot(client_for(character.user), character)["state"]["key"] == "out_returning"


def test_a_player_the_action_cannot_take_out_keeps_the_sanction_on_the_register_only(
        game, narrator_user, referee):
    member, character = in_play(game, narrator_user)
    sanction_record(event=game, member=member, kind="removed_from_game", by=narrator_user,
                    reason="insultes", character=character)           # P22: removed

    again = sanction_record(event=game, member=member, kind="sanction_out", by=referee,
                            reason="tir après touche", character=character)
    line = JournalEntry.objects.get(event=game, kind="sanction", what="register_only")
    assert (line.actor, line.detail) == (referee, {"sanction": again.pk, "kind": "sanction_out",
                                                   "action": "sanction_out"})
    assert not JournalEntry.objects.filter(event=game, kind="action", what="sanction_out").exists()
    assert snapshot(client_for(character.user), character)["state"]["key"] == "removed"


def test_a_larp_keeps_a_grave_sanction_on_the_register_only(clock, narrator_user):
    larp = event_create(name="GN du printemps", ruleset="gn_fr", by=narrator_user, start_clock=True)
    member = new_member(larp, narrator_user)
    character, _ = member_check_in(event=larp, member=member, by=narrator_user)

    sanction_record(event=larp, member=member, kind="removed_from_game", by=narrator_user,
                    reason="insultes", character=character)

    assert JournalEntry.objects.filter(event=larp, kind="sanction", what="register_only").count() == 1
    assert snapshot(client_for(character.user), character)["state"]["key"] == "healthy"


PARIS = ZoneInfo("Europe/Paris")


@pytest.mark.parametrize("at, after", [
    (datetime(2027, 6, 5, 14, 30, tzinfo=PARIS), datetime(2028, 6, 5, 14, 30, tzinfo=PARIS)),
    (datetime(2028, 2, 29, 9, 0, tzinfo=PARIS), datetime(2029, 2, 28, 9, 0, tzinfo=PARIS)),
])
def test_an_exclusion_may_last_one_year_and_from_29_february_to_the_28th(settings, at, after):
    settings.TIME_ZONE = "Europe/Paris"
    with timezone.override(PARIS):
        assert one_year_after(at) == after


def test_the_rest_of_the_day_ends_at_the_local_midnight(settings):
    settings.TIME_ZONE = "Europe/Paris"
    late = datetime(2027, 6, 5, 23, 30, tzinfo=PARIS)
    with timezone.override(PARIS):
        assert end_of_day(late) == datetime(2027, 6, 6, 0, 0, tzinfo=PARIS)


def test_a_replica_s_line_names_the_member_s_character_in_that_game(clock, game, narrator_user):
    karim = new_member(game, narrator_user)
    member_check_in(event=game, member=karim, by=narrator_user)
    august = event_create(name="Partie d'août", ruleset="airsoft_rats", language="fr",
                          by=narrator_user, start_clock=True)
    same_club(august, game, narrator_user)
    character_create(event=august, name="Arrivé avant", by=narrator_user)
    in_august, _ = member_check_in(event=august, member=karim, by=narrator_user)

    replica_register(event=august, member=karim, label="M4", type="aeg", calibre_mm=6.0,
                     by=narrator_user)

    line = JournalEntry.objects.get(event=august, kind="chrony", what="replica_registered")
    assert line.character == in_august
