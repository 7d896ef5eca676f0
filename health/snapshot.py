"""Health's part of a character's snapshot (live/snapshots.py): the state as it stands
now, its timers and what they lead to, the points, what the player may declare, the body
map, the sheet and the treatments running on the character. A read never shows a state
whose deadline has passed: it advances the stored state in memory with the same core
function the timer task uses."""
from __future__ import annotations

from datetime import datetime

from django.db.models import Exists, OuterRef

from players.models import Character

from .body import body_view
from .capabilities import character_load_level, labelled
from .models import Treatment
from .selectors import (character_sheet_view, declarable_actions, points_view, running_treatments,
                        timer_view)


def health_queryset(rows):
    """The health row, and whether anyone is treating the character: the treatments
    themselves are read only for those who are (most snapshots need no query for them)."""
    treated = Treatment.objects.filter(patient=OuterRef("pk"), status=Treatment.RUNNING)
    return rows.select_related("health").annotate(being_treated=Exists(treated))


def treatments_loader(characters: list[Character], event, game_s: float) -> None:
    # A character read without the annotation (another query) is looked up to be safe.
    treated = [c.pk for c in characters if getattr(c, "being_treated", True)]
    running = running_treatments(event, treated, game_s) if treated else {}
    for character in characters:
        character.treatments_running = running.get(character.pk, [])


def treatments_section(character: Character, now: datetime) -> dict:
    """"Being treated by Bob, 0:42 left" on the patient's phone."""
    return {"treatments": character.treatments_running}


def health_section(character: Character, now: datetime) -> dict:
    event = character.event
    rules = event.rules()
    ruleset = rules.ruleset
    game_s = event.game_time(now)
    state = rules.advance(character.health.as_core(), character.sheet, game_s).state
    status = ruleset.states[state.status]
    inert = rules.is_inert(state, game_s)
    can, cannot = rules.capabilities(state, game_s, load=character_load_level(character))
    timers = sorted((timer_view(event, ruleset, state.status, key, due, game_s)
                     for key, due in state.timers.items()), key=lambda t: t["game_s"])
    upcoming = [t for t in timers if t["leads_to"]]
    return {
        # The character's own changes and the messages to the whole event (players' Event).
        "version": character.health.version + event.snapshot_version,
        "state": {"key": state.status, "label": status["labels"], "inert": inert,
                  "hint": status.get("hint"),
                  "severity": status["severity"],
                  "can": labelled(ruleset, can), "cannot": labelled(ruleset, cannot)},
        "next": upcoming[0] if upcoming else None,
        "timers": timers,
        "values": state.values,
        "flags": [{"key": key, "label": label} for key, label in ruleset.flags.items()
                  if state.values.get(key)],
        "points": points_view(rules, state, character.sheet, timers),
        "actions": declarable_actions(ruleset, rules, state),
        "body": body_view(rules, state, character.sheet, game_s, event.wall_time),
        "sheet": character_sheet_view(ruleset, character),
        # Out of the game for real (health/holds.py): no timer runs; shown apart.
        "out_for_real": ({"reason": character.health.held_reason,
                          "since_game_s": character.health.held_since_s}
                         if character.health.held_since_s is not None else None),
    }


def health_change_at(snapshot: dict, game_s: float) -> float | None:
    """The state moves only when a timer expires (the inert minute, a stunned limb's end
    included); a Conflict ends at its own instant."""
    instants = [t["game_s"] for t in snapshot["timers"]]
    body = snapshot.get("body")
    if body:
        instants += [part["until_game_s"] for part in body["locations"]]
        instants.append((body["conflict"] or {}).get("until_game_s"))
    return min((at for at in instants if at is not None and at > game_s), default=None)
