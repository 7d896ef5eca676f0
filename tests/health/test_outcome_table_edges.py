"""The outcome table a phone keeps for declarations tapped with no network, at its edges:
the countdowns in the order they run out, the game time to the millisecond, each state's
hint and countdown name as the phone prints them, what the character's load takes away,
and a declaration with too many combinations of choices."""
from __future__ import annotations

import pytest

from fixtures import client_for, personaje, septenario_event
from players.services import character_create, event_create

from test_outcome_table import table

pytestmark = pytest.mark.django_db


def test_the_countdowns_a_wound_starts_come_soonest_first(clock, event, player, player_api):
    [wound] = table(player_api, player)["outcomes"]["hit_wounding"]
    # Inert for a minute, the combat points back in 10, a coma in 15: the phone lists
    # them as they will run out, not by name.
    assert [(t["key"], t["after_s"]) for t in wound["timers"]] == [
        ("inert", 60), ("combat_recovery", 600), ("deadline", 900)]


def test_the_table_says_the_game_time_it_was_worked_out_at_to_the_millisecond(
        clock, event, player, player_api):
    clock.advance(12.3456)
    assert table(player_api, player)["game_s"] == 12.346


def test_each_state_shown_carries_its_hint(clock, narrator_user):
    game = event_create(name="Partie du samedi", ruleset="airsoft_rats", language="fr",
                        by=narrator_user, start_clock=True)
    rat = character_create(event=game, name="Karim", sheet={}, by=narrator_user)
    states = table(client_for(rat.user, "fr"), rat)["states"]
    assert states["in_play"]["hint"] == "Jouez. Touché : criez « out » !"
    assert states["off_game"]["hint"] == "Hors-jeu : revenez par votre spawn."


def test_a_countdown_names_the_state_it_leads_to_by_its_own_short_name(
        clock, event, player):
    states = table(client_for(player.user, "fr"), player)["states"]
    # "Coma dans 14:59", not "Dans le coma dans 14:59".
    assert (states["coma"]["label"], states["coma"]["countdown_label"]) == ("Dans le coma", "Coma")
    # A state with no name of its own for a countdown uses its label.
    assert states["wounded"]["countdown_label"] == states["wounded"]["label"] == "Blessé"


def test_what_the_load_takes_away_stays_taken_in_every_outcome(clock, narrator_user):
    event = septenario_event(narrator_user)
    lucia = personaje(event, narrator_user, carried=[{"name": "Fardo", "load": 8}])
    outcomes = table(client_for(lucia.user, "es"), lucia)["outcomes"]
    [ate] = outcomes["ate"]
    assert ate["state"] == "unharmed"
    # Too much Carga to move at all [L26]: eating does not change that.
    assert {"run", "walk", "crawl"} <= set(ate["cannot"])
    assert not {"run", "walk", "crawl"} & set(ate["can"])


def test_too_many_combinations_of_choices_leave_only_the_declared_defaults(
        clock, narrator_user, monkeypatch):
    from health import outcomes as module
    event = septenario_event(narrator_user)
    lucia = personaje(event, narrator_user)
    api = client_for(lucia.user, "es")
    assert len(table(api, lucia)["outcomes"]["hit"]) > 8
    monkeypatch.setattr(module, "MAX_COMBINATIONS", 8)
    [hit] = table(api, lucia)["outcomes"]["hit"]
    assert hit["params"] == {"location": "unspecified", "weapon": "standard", "solid": True}
    assert hit["state"] == "incapacitated"          # a hit whose place is not said: the torso
