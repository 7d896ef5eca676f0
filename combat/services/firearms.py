"""Firearms (GA5, GA18; G07, G12, G22). A shot needs the weapon in hand and loaded; it
sets off all the caps (one shot, the weapon is then empty) and counts only within the
range (under it, or up to it where the ruleset says so) with no obstacle. Only a character with the skill loads a firearm."""
# Rule codes: docs/rules/gn_fr-coverage.md; their families: docs/glossary.md.
from __future__ import annotations

from django.db import transaction

from common.i18n import message_labels
from effects.services.carrying import item_hold
from effects.models import Item
from health.checks import require_in_game
from health.services import character_apply_rules, state_kept_private
from players.models import Character
from players.selectors import clean_code
from players.services import journal_write_many
from rulesets import RuleRefused

from .common import (interaction, interaction_label, locked, now_and_game, require_fighter,
                     running_event, someone)
from .duels import duels_interrupted


def _firearm(character: Character, code: str) -> Item:
    item = (Item.objects.select_for_update()
            .filter(event_id=character.event_id, kind=Item.FIREARM, code=clean_code(code))
            .first())
    if item is None:
        raise RuleRefused("unknown_item", code=code)
    return item


@transaction.atomic
def firearm_take(*, character: Character, code: str, by) -> Item:
    """The weapon changes hands (picked up, handed over, found in a search)."""
    event = running_event(character)
    item = _firearm(character, code)
    item_hold(item=item, holder=character)
    now, _ = now_and_game(event)
    _journal(item, "taken", by, now, [character])
    return item


@transaction.atomic
def firearm_load(*, character: Character, code: str, by) -> Item:
    event = running_event(character)
    spec = interaction(event, "firearm")
    item = _firearm(character, code)
    if spec["load_skill"] and not (character.sheet.get("skills") or {}).get(spec["load_skill"]):
        raise RuleRefused("missing_skill", skill=event.rules().ruleset.skill_label(spec["load_skill"]),
                          action=interaction_label(event, "firearm"))
    if item.loaded:
        raise RuleRefused("firearm_loaded_already", item=item.name)
    item.loaded = True
    item.save(update_fields=["loaded"])
    now, _ = now_and_game(event)
    _journal(item, "loaded", by, now, [character])
    return item


@transaction.atomic
def firearm_shoot(*, shooter: Character, code: str, victim_code: str, distance_m: float,
                  obstacle: bool, by, misfire: bool = False, conditions=()) -> dict:
    """Returns whether the shot hit. A shot out of range, through an obstacle or under
    one of the ruleset's `misses_if` conditions the shooter declares (Septenario: moving,
    one hand, attacking or parrying, the target in total cover) is fired all the same
    (the caps are spent) and does nothing. A misfire (the cap did not go off) does
    nothing either, and keeps the bullet where the rules say so (Septenario)."""
    event = running_event(shooter)
    spec = interaction(event, "firearm", sheet=shooter.sheet)
    what = interaction_label(event, "firearm")
    misses = _misses(spec, conditions)
    item = _firearm(shooter, code)
    if item.holder_id != shooter.pk:
        raise RuleRefused("firearm_not_held", item=item.name)
    if not item.loaded:
        raise RuleRefused("firearm_empty", item=item.name)
    victim = someone(event, victim_code, not_=shooter, what=what)
    now, _ = now_and_game(event)
    rows = locked(event, [shooter, victim], now)
    require_fighter(event, rows[shooter.pk], now, what, actor=shooter)
    require_in_game(event.rules(), rows[victim.pk])
    if misfire and event.rules().option("misfire_keeps_bullet"):
        _journal(item, "misfired", by, now, [shooter, victim])
        return {"hit": False, "victim": victim.name, "loaded": True,
                "detail": message_labels("firearm_misfire")}
    item.loaded = False
    item.save(update_fields=["loaded"])
    hit = _in_range(spec, distance_m) and not (obstacle or misfire or misses)
    if hit:
        with state_kept_private(event.rules(), spec["hit"]):
            character_apply_rules(health=rows[victim.pk], event=event, action=spec["hit"], by=by,
                                  now=now, detail={"firearm": item.code, "shooter": shooter.name})
        character_apply_rules(health=rows[shooter.pk], event=event, action=spec["shooter"],
                              by=by, now=now, detail={"firearm": item.code})
        duels_interrupted(character=victim, event=event, action=spec["hit"], now=now, by=by)
    _journal(item, "shot" if hit else "missed", by, now, [shooter, victim],
             distance_m=distance_m, obstacle=obstacle, conditions=sorted(misses))
    return {"hit": hit, "victim": victim.name, "loaded": False,
            "detail": None if hit else _miss_detail(spec, misfire, misses)}


def _misses(spec: dict, conditions) -> list[str]:
    """The declared conditions that make this ruleset's shot miss; one it does not name
    is a bad request (the phone offers only the ruleset's)."""
    known = spec.get("misses_if") or {}
    unknown = sorted(set(conditions) - set(known))
    if unknown:
        raise RuleRefused("bad_input", detail=f"conditions must be among: {', '.join(known) or '(none)'}")
    return [key for key in known if key in conditions]


def _in_range(spec: dict, distance_m: float) -> bool:
    """Under the range ("à moins de 10 mètres"), or up to it where the ruleset says a shot
    at the range itself counts (Septenario: "unos 3 metros", only further is a miss)."""
    if spec.get("max_range_included"):
        return distance_m <= float(spec["max_range_m"])
    return distance_m < float(spec["max_range_m"])


def _miss_detail(spec: dict, misfire: bool, misses: list[str]) -> dict:
    if misfire:
        return message_labels("firearm_misfire")
    if misses:
        return message_labels("firearm_condition_miss",
                              why=[spec["misses_if"][key]["labels"] for key in misses])
    code = "firearm_beyond_range" if spec.get("max_range_included") else "firearm_out_of_range"
    return message_labels(code, max=f"{spec['max_range_m']:g}")


def _journal(item: Item, what: str, by, now, characters, **detail) -> None:
    journal_write_many(event=item.event, kind="firearm", what=what, at=now, by=by,
                       characters=characters, detail={"firearm": item.code, "name": item.name, **detail})
