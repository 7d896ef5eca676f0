"""Carga (septenario §5): a character picks an object up by scanning its label, and puts
it down. What the character now carries, and whether that overloads it, is in its
snapshot (selectors/load.py); both holders' phones get a fresh one."""
from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from common.i18n import label
from health.services import snapshots_changed
from players.models import Character
from players.services import journal_write
from rulesets import RuleRefused

from ..models import Item
from ..selectors.load import CARGA, item_load


def item_hold(*, item: Item, holder: Character | None) -> None:
    """Who has the object in hand now (a weapon picked up or handed over); the caller
    holds the row lock and journals why."""
    item.holder = holder
    item.save(update_fields=["holder"])


def _checked(item: Item, character: Character, as_narrator: bool) -> Item:
    """The object, locked and read again: of two phones grabbing it at once, one has it."""
    event = character.event
    if not event.rules().ruleset.load:
        raise RuleRefused("not_in_this_game", what=label(CARGA))
    if item.event_id != event.pk:
        raise RuleRefused("unknown_item", code=item.code)
    if not event.running and not as_narrator:
        raise RuleRefused("game_paused")
    item.refresh_from_db(from_queryset=Item.objects.select_for_update())
    return item


def _changed(item: Item, character: Character, what: str, by,
             taken_from: int | None = None) -> None:
    event = character.event
    journal_write(event=event, kind="item", what=what, at=timezone.now(), by=by,
                  character=character, detail={
                      "item": item.code, "name": item.name, "kind": item.kind,
                      "load": item_load(item, event.rules()), "taken_from": taken_from})
    snapshots_changed(character_ids=[character.pk] + ([taken_from] if taken_from else []))


@transaction.atomic
def item_carry(*, item: Item, character: Character, by, as_narrator: bool = False) -> Item:
    """The character now carries the object. Taken from someone else's hands (handed over,
    found in a search), it leaves their load: the scan proves where it is."""
    item = _checked(item, character, as_narrator)
    if item.kind == Item.LOCK:
        raise RuleRefused("item_not_carriable", item=item.name)
    if item.kind == Item.MEDICINE and item.used_up:  # swallowed: nothing left to carry
        raise RuleRefused("item_used", item=item.name)
    if item.holder_id == character.pk:
        raise RuleRefused("item_carried_already", item=item.name, name=character.name)
    taken_from = item.holder_id
    item.holder = character
    item.save(update_fields=["holder"])
    _changed(item, character, "carry", by, taken_from)
    return item


@transaction.atomic
def item_drop(*, item: Item, character: Character, by, as_narrator: bool = False) -> Item:
    item = _checked(item, character, as_narrator)
    if item.holder_id != character.pk:
        raise RuleRefused("item_not_carried", item=item.name, name=character.name)
    item.holder = None
    item.save(update_fields=["holder"])
    _changed(item, character, "drop", by)
    return item
