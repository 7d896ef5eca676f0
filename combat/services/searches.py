"""Searching an inert character (GA12): the searcher names where they search and the
victim hands over what is there; everything can be taken, even the costume (then the
character counts as naked). Searching a corpse uses it (G20)."""
# Rule codes: docs/rules/gn_fr-coverage.md; their families: docs/glossary.md.
from __future__ import annotations

from django.db import transaction

from health.checks import require_in_game
from health.services import character_apply_rules, state_kept_private
from players.models import Character
from rulesets import RuleRefused

from .common import interaction, interaction_label, locked, now_and_game, running_event, someone


@transaction.atomic
def character_search(*, searcher: Character, target_code: str, location: str, strip: bool,
                     by) -> Character:
    event = running_event(searcher)
    spec, what = interaction(event, "search"), interaction_label(event, "search")
    target = someone(event, target_code, not_=searcher, what=what)
    location = (location or "").strip()
    if not location or len(location) > 100:
        raise RuleRefused("bad_input", detail="say where you search (1 to 100 characters)")
    now, game_s = now_and_game(event)
    rows = locked(event, [searcher, target], now)
    for character in (searcher, target):       # hors-jeu, either one (gn_fr L58)
        require_in_game(event.rules(), rows[character.pk])
    if not event.rules().is_inert(rows[target.pk].as_core(), game_s):
        raise RuleRefused("not_searchable", name=target.name)
    with state_kept_private(event.rules(), spec["searched"]):
        character_apply_rules(health=rows[target.pk], event=event, action=spec["searched"],
                              by=by, now=now, params={"location": location, "strip": bool(strip)},
                              detail={"searcher": searcher.name})
    return target
