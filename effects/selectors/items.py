"""What is shown of an object: to whoever scans it (the tag, never the verso), to the one
it reached (the verso and the effect), and to the organisers (everything)."""
from __future__ import annotations

from django.utils import timezone
from django.utils.translation import gettext_noop

from common.i18n import label
from players.models import Character
from players.selectors import clean_code
from rulesets import RuleRefused

from ..models import Effect, Item
from .effects import effect_view
from .load import item_load

# What a character does with each kind of object; a firearm is not used this way.
ACTIONS = {Item.TAG: "touch", Item.MEDICINE: "ingest", Item.ENVELOPE: "open"}

DONE_FOR_ANOTHER = gettext_noop("Done: {name} must read the back.")


def item_in_event(event_id: int, code: str) -> Item:
    """The object of this game with the code; another game's object is as unknown."""
    wanted = clean_code(code)
    item = (Item.objects.select_related("event", "holder").filter(event_id=event_id, code=wanted)
            .first() if wanted else None)
    if item is None:
        raise RuleRefused("unknown_item", code=code)
    return item


def revealed_text(item: Item) -> str:
    """What the one reached reads: the verso when there is one, else the effect itself."""
    return item.secret_text or item.effect_text or item.name


def lock_action(item: Item) -> str:
    """What moving the padlock now does: a closed lock is unlocked, an open one locked."""
    return "unlock" if item.closed else "lock"


def item_actions(item: Item) -> list[str]:
    if item.kind == Item.LOCK:
        return [lock_action(item)]
    if item.kind not in ACTIONS or not item.has_effect or item.used_up:
        return []
    return [ACTIONS[item.kind]]


def item_scan_view(item: Item) -> dict:
    """What anyone holding the object may know: its tag. Never the verso or the effect."""
    view = {"code": item.code, "name": item.name, "kind": item.kind, "tag_text": item.tag_text,
            "actions": item_actions(item), "used": item.used_up}
    if item.kind == Item.FIREARM:
        view.update(loaded=item.loaded, holder=item.holder.name if item.holder else None)
    if item.kind == Item.LOCK:  # anyone at the door sees where the padlock hangs
        view.update(closed=item.closed)
    elif item.event.rules().ruleset.load:  # what it would add to one's Carga
        view.update(load=item_load(item, item.event.rules()))
    return view


def item_narrator_view(item: Item) -> dict:
    return {**item_scan_view(item), "id": item.pk, "secret_text": item.secret_text,
            "effect_text": item.effect_text, "effect_duration_s": item.effect_duration_s,
            "effect_set_state": item.effect_set_state, "single_use": item.single_use,
            "loaded": item.loaded, "holder": who_view(item.holder), "own_load": item.load,
            "used_by": who_view(item.used_by), "used_game_s": item.used_game_s}


def who_view(character: Character | None) -> dict | None:
    return {"id": character.pk, "name": character.name} if character else None


def event_items(event) -> list[dict]:
    items = list(Item.objects.filter(event=event).select_related("holder", "used_by"))
    for item in items:
        item.event = event  # one event object: its rules are read once
    return [item_narrator_view(item) for item in items]


def item_use_view(item: Item, effect: Effect, user_character: Character,
                  target: Character) -> dict:
    """The one reached reads the verso; someone who fed the pill to another learns only
    that it is done: the verso is for the one who swallowed it."""
    shown = {"item": item_scan_view(item), "action": ACTIONS[item.kind],
             "target": {"name": target.name}}
    if target.pk != user_character.pk:
        return {**shown, "done": label(DONE_FOR_ANOTHER, name=target.name)}
    event = user_character.event
    return {**shown, "revealed": revealed_text(item),
            "effect": effect_view(event, effect, event.game_time(timezone.now()))}


def lock_moved_view(item: Item) -> dict:
    """After moving a padlock: where it now hangs (the phone says which loop)."""
    return {"item": item_scan_view(item), "action": "unlock" if not item.closed else "lock",
            "closed": item.closed}
