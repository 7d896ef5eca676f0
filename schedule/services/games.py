"""The games (parties) of an airsoft day. The day is one Event; its games are played one
after another. The organisers announce the next game (scenario, options, start time: "les
heures de reprise sont annoncées à la fin de chacune"), and every phone shows it; starting
it makes its options the event's, runs the clock and sends every player back to their
spawn (the ruleset's `game_started` action); ending it pauses the clock.

A stop during a game is not this module's business: the organisers' arrêt de jeu is the
clock pause (services/clock.py, spec P24/P25), and anyone's stop "en cas
d'accident" is the Emergencia (clock.emergency_declare).

What phones show lives on the Event row (`Event.announcement`: the game being played and
the next one announced), so that every snapshot shows it with the event it already loads;
how a game reads is in schedule/selectors.py.
"""
# Rule codes: docs/rules/airsoft_rats-coverage.md; their families: docs/glossary.md.
from __future__ import annotations

import json
from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext_noop
from rest_framework.exceptions import NotFound

from common.i18n import label
from health.models import HealthState
from rulesets import RuleRefused, RulesetError
from rulesets.loader import Ruleset, check_option

from club.selectors import local_text
from schedule.services.days import PAST_TOLERANCE_S, characters_apply_action
from players import observers
from players.models import Event
from schedule.models import Game
from players.selectors import is_narrator
from players.services import event_announcement_store, event_options_store, journal_write
from schedule.selectors import announcement_of, day_options
from schedule.services.clock import clock_pause, clock_resume

RESET_ACTION = "game_started"
RESET_BATCH = 200


# -- checking the options -------------------------------------------------------------------

def scenario_options_check(ruleset: Ruleset, options: dict) -> dict:
    """Each option as rulesets.loader.check_option checks it, refused by name with what it
    may be. An option without a default (a limit: heals, ammunition, waiting time) takes
    a number or null, never a text the rules would then compare with a count."""
    for key, value in options.items():
        try:
            check_option(ruleset, key, value)
            if ruleset.default(key) is None and not _limit(value):
                raise RulesetError(key)
        except RulesetError:
            if key not in ruleset.options:
                raise RuleRefused("game_option_unknown", option=key,
                                  known=", ".join(sorted(ruleset.options))) from None
            raise RuleRefused("game_option_invalid", option=key, value=json.dumps(value),
                              allowed=_allowed(ruleset, key)) from None
    return options


def _limit(value) -> bool:
    return value is None or (isinstance(value, (int, float)) and not isinstance(value, bool)
                             and value >= 0)


def _allowed(ruleset: Ruleset, key: str) -> dict:
    default = ruleset.default(key)
    choices = ruleset.option_choices.get(key)
    if choices:
        listed = ", ".join(map(str, choices))
        return label(gettext_noop("one of {listed}"), listed=listed)
    if isinstance(default, bool):
        return label(gettext_noop("true or false"))
    if default is None:
        return label(gettext_noop("a number ≥ 0, or null for no limit"))
    if isinstance(default, (int, float)):
        return label(gettext_noop("a number ≥ 0"))
    if isinstance(default, list):
        return label(gettext_noop("a list"))
    return label(gettext_noop("a text"))


# -- writes ---------------------------------------------------------------------------------

@transaction.atomic
def game_announce(*, event: Event, scenario: str, start_at: datetime, by,
                  description: str = "", options: dict | None = None) -> Game:
    """The next game, shown on every phone. Announced again before it starts, the same
    game (same number) gets the new scenario: organisers change their minds."""
    options = scenario_options_check(event.rules().ruleset, dict(options or {}))
    now = timezone.now()
    if start_at < now - timedelta(seconds=PAST_TOLERANCE_S):
        raise RuleRefused("bad_input", detail=f"start_at {start_at.isoformat()} is in the past "
                                              f"(the server's time is {now.isoformat()})")
    # The event's row serialises the games' writes: two announcements cannot both be
    # number 3.
    event = Event.objects.select_for_update().get(pk=event.pk)
    game = event.games.filter(started_at__isnull=True).first()
    revised = game is not None
    if game is None:
        number = (event.games.aggregate(top=Max("number"))["top"] or 0) + 1
        game = Game(event=event, number=number)
    game.scenario, game.description, game.options = scenario, description, options
    game.start_at, game.announced_at = start_at, now
    game.save()
    _show(event, next_game=announcement_of(game, event.rules().ruleset, day_options(event)))
    journal_write(event=event, kind="game", what="announced", at=now, by=by,
                  detail={"game": game.pk, "number": game.number, "scenario": scenario,
                          "options": options, "start_at": start_at.isoformat(),
                          "revised": revised})
    observers.characters_changed.notify(character_ids=list(_all_character_ids(event)))
    return game


@transaction.atomic
def game_start(*, game: Game, by) -> Game:
    """The game's options become the event's (on top of the day's), the clock runs, and
    every player the ruleset's `game_started` applies to goes back to spawn (or straight
    into play, per `respawn_policy`).

    One transaction for the whole start, players included, taken in batches of locked rows
    as services/days.py does: a start cut halfway would leave half the players at spawn in a game
    that has not begun, whereas a refused or failed start changes nothing and is simply
    tried again."""
    event = Event.objects.select_for_update().get(pk=game.event_id)
    game = Game.objects.select_for_update().get(pk=game.pk)
    if game.started_at is not None:
        raise RuleRefused("game_already_started", number=str(game.number),
                          at=local_text(game.started_at))
    playing = event.games.filter(started_at__isnull=False, ended_at__isnull=True).first()
    if playing is not None:
        raise RuleRefused("game_in_progress", number=str(playing.number), next=str(game.number))
    # Checked again: the ruleset file may have changed since the announcement.
    scenario_options_check(event.rules().ruleset, game.options)
    now = timezone.now()
    day = day_options(event)
    options = {**day, **game.options}
    game.started_at, game.day_options = now, day
    next_game = (event.announcement or {}).get("next_game")
    if next_game and next_game.get("id") == game.pk:
        next_game = None
    _show(event, game=announcement_of(game, event.rules().ruleset, day), next_game=next_game)
    event_options_store(event=event, options=options)
    journal_write(event=event, kind="game", what="started", at=now, by=by,
                  detail={"game": game.pk, "number": game.number, "scenario": game.scenario,
                          "options": game.options, "event_options": event.options})
    if not event.running:
        event = clock_resume(event=event, by=by)
    game.characters_reset = _players_to_spawn(event, game, now, by)
    game.save()
    observers.characters_changed.notify(character_ids=list(_all_character_ids(event)))
    return game


@transaction.atomic
def game_end(*, game: Game, by) -> Game:
    """The clock pauses (unless an arrêt de jeu already did) and the phones stop showing
    the game; a next game already announced stays shown."""
    event = Event.objects.select_for_update().get(pk=game.event_id)
    game = Game.objects.select_for_update().get(pk=game.pk)
    if game.started_at is None:
        raise RuleRefused("game_not_started", number=str(game.number))
    if game.ended_at is not None:
        raise RuleRefused("game_already_ended", number=str(game.number),
                          at=local_text(game.ended_at))
    now = timezone.now()
    game.ended_at = now
    game.save(update_fields=["ended_at"])
    shown = (event.announcement or {}).get("game")
    _show(event, game=None if shown and shown.get("id") == game.pk else shown,
          next_game=(event.announcement or {}).get("next_game"))
    journal_write(event=event, kind="game", what="ended", at=now, by=by,
                  detail={"game": game.pk, "number": game.number, "scenario": game.scenario,
                          "played_s": round((now - game.started_at).total_seconds(), 3)})
    if event.running:
        clock_pause(event=event, by=by)
    observers.characters_changed.notify(character_ids=list(_all_character_ids(event)))
    return game


def _show(event: Event, *, game=None, next_game=None) -> None:
    """Store what the phones show (the caller holds the event's row lock)."""
    event_announcement_store(event=event, announcement={"game": game, "next_game": next_game})


def _players_to_spawn(event: Event, game: Game, now, by) -> int:
    """Apply `game_started` to every character whose state has it, in batches of locked
    rows (days.characters_apply_action, as a dawn does); returns how many changed. A
    ruleset without the action (a GN has no spawns) changes nobody."""
    rules = event.rules()
    if RESET_ACTION not in rules.ruleset.actions:
        return 0
    changed, after = 0, 0
    while True:
        ids = list(HealthState.objects.filter(event=event, pk__gt=after).order_by("pk")
                   .values_list("pk", flat=True)[:RESET_BATCH])
        if not ids:
            return changed
        changed += characters_apply_action(event, RESET_ACTION, ids, now, by=by,
                                           detail={"game": game.pk, "number": game.number})
        after = ids[-1]


def _all_character_ids(event: Event):
    return event.characters.values_list("pk", flat=True)
