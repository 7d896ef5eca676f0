"""What is shown of an object: to whoever scans it (the tag, never the verso), to the one
it reached (the verso and the effect), and to the organisers (everything)."""
from __future__ import annotations

from django.utils import timezone

from health.selectors import effect_view
from players.models import Character
from rulesets import RuleRefused

from .items import ACTIONS, revealed_text
from .models import Effect, Item

DONE_FOR_ANOTHER = {
    "en": "Done: {name} must read the back.",
    "fr": "C'est fait : {name} doit lire le verso.",
    "es": "Hecho: {name} debe leer el reverso.",
}


def _clean_code(code: str) -> str | None:
    # Codes are letters and digits; anything else (a NUL breaks PostgreSQL) matches nothing.
    wanted = code.strip().upper()
    return wanted if wanted.isascii() and wanted.isalnum() else None


def item_in_event(event_id: int, code: str) -> Item:
    """The object of this game with the code; another game's object is as unknown."""
    wanted = _clean_code(code)
    item = (Item.objects.select_related("event", "holder").filter(event_id=event_id, code=wanted)
            .first() if wanted else None)
    if item is None:
        raise RuleRefused("unknown_item", code=code)
    return item


def character_in_event(event_id: int, code: str) -> Character:
    wanted = _clean_code(code)
    found = (Character.objects.select_related("event").filter(event_id=event_id, code=wanted)
             .first() if wanted else None)
    if found is None:
        raise RuleRefused("unknown_code", code=code)
    return found


def item_actions(item: Item) -> list[str]:
    if item.kind not in ACTIONS or not item.has_effect or item.used_up:
        return []
    return [ACTIONS[item.kind]]


def item_scan_view(item: Item) -> dict:
    """What anyone holding the object may know: its tag. Never the verso or the effect."""
    view = {"code": item.code, "name": item.name, "kind": item.kind, "tag_text": item.tag_text,
            "actions": item_actions(item), "used": item.used_up}
    if item.kind == Item.FIREARM:
        view.update(loaded=item.loaded, holder=item.holder.name if item.holder else None)
    return view


def item_narrator_view(item: Item) -> dict:
    return {**item_scan_view(item), "id": item.pk, "secret_text": item.secret_text,
            "effect_text": item.effect_text, "effect_duration_s": item.effect_duration_s,
            "effect_set_state": item.effect_set_state, "single_use": item.single_use,
            "loaded": item.loaded, "holder": _who(item.holder),
            "used_by": _who(item.used_by), "used_game_s": item.used_game_s}


def _who(character: Character | None) -> dict | None:
    return {"id": character.pk, "name": character.name} if character else None


def event_items(event) -> list[dict]:
    items = Item.objects.filter(event=event).select_related("holder", "used_by")
    return [item_narrator_view(item) for item in items]


def item_use_view(item: Item, effect: Effect, user_character: Character,
                  target: Character) -> dict:
    """The one reached reads the verso; someone who fed the pill to another learns only
    that it is done: the verso is for the one who swallowed it."""
    shown = {"item": item_scan_view(item), "action": ACTIONS[item.kind],
             "target": {"name": target.name}}
    if target.pk != user_character.pk:
        return {**shown, "done": {lang: text.format(name=target.name)
                                  for lang, text in DONE_FOR_ANOTHER.items()}}
    event = user_character.event
    return {**shown, "revealed": revealed_text(item),
            "effect": effect_view(event, effect, event.game_time(timezone.now()))}
