"""What is shown of an object: to whoever scans it (the tag, never the verso), to the one
it reached (the verso and the effect), and to the organisers (everything); and the
requests to the organisers."""
from __future__ import annotations

from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_noop

from common.i18n import label
from players.models import Character
from players.selectors import clean_code
from rulesets import RuleRefused

from .items import ACTIONS, revealed_text
from .load import item_load, load_view
from .locks import lock_action
from .active import active_effects_q, effect_view
from .models import Effect, Item, OrganiserRequest

DONE_FOR_ANOTHER = gettext_noop("Done: {name} must read the back.")


def item_in_event(event_id: int, code: str) -> Item:
    """The object of this game with the code; another game's object is as unknown."""
    wanted = clean_code(code)
    item = (Item.objects.select_related("event", "holder").filter(event_id=event_id, code=wanted)
            .first() if wanted else None)
    if item is None:
        raise RuleRefused("unknown_item", code=code)
    return item


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
            "loaded": item.loaded, "holder": _who(item.holder), "own_load": item.load,
            "used_by": _who(item.used_by), "used_game_s": item.used_game_s}


def _who(character: Character | None) -> dict | None:
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


def character_clarity(character: Character, now) -> dict:
    """"Claridad" (septenario L16): the explanation of everything in use on the character:
    its abilities (Rasgos), its active effects (a catalogue effect with its explanation),
    its health state and, when it weighs on it, its Carga."""
    event = character.event
    rules = event.rules()
    ruleset = rules.ruleset
    game_s = event.game_time(now)
    abilities = []
    for key in character.sheet.get("abilities") or []:
        spec = ruleset.abilities.get(key)  # a sheet typed by hand may name an unknown one
        abilities.append({"key": key, "label": spec["labels"] if spec else {"en": str(key)},
                          "explains": spec["explains"] if spec else None})
    active = (Effect.objects.filter(active_effects_q(event, game_s), event=event)
              .filter(Q(character=character) | Q(character=None))
              .order_by("started_game_s", "pk"))
    effects = []
    for effect in active:
        entry = ruleset.catalogue.get(effect.catalogue_key)
        effects.append({**effect_view(event, effect, game_s),
                        "catalogue": effect.catalogue_key or None,
                        "label": entry["labels"] if entry else None,
                        "explains": entry["explains"] if entry else None})
    state = rules.advance(character.health.as_core(), character.sheet, game_s).state
    load = load_view(character, rules)
    return {"character": {"id": character.pk, "name": character.name},
            "abilities": abilities, "effects": effects,
            "state": {"key": state.status, "label": ruleset.states[state.status]["labels"]},
            "load": ({key: load[key] for key in ("status", "label", "meaning", "total",
                                                  "capacity")}
                     if load and load["status"] != "normal" else None)}


REQUESTS_SHOWN = 100  # polled every 20 s by each narrator's screen: kept small


def request_view(asked: OrganiserRequest) -> dict:
    answered_by = asked.answered_by.get_username() if asked.answered_by else None
    return {"id": asked.pk, "character": _who(asked.character), "text": asked.text,
            "status": asked.status, "created_game_s": asked.created_game_s,
            "created_at": asked.created_at.isoformat(), "answer": asked.answer or None,
            "answered_by": answered_by, "answered_game_s": asked.answered_game_s,
            "effect": asked.effect_id}


def event_requests(event, status: str | None) -> list[dict]:
    """Open ones oldest first (the next to settle on top); otherwise the newest first."""
    rows = OrganiserRequest.objects.filter(event=event).select_related("character",
                                                                       "answered_by")
    if status:
        rows = rows.filter(status=status)
    rows = rows.order_by("id" if status == OrganiserRequest.OPEN else "-id")
    return [request_view(asked) for asked in rows[:REQUESTS_SHOWN]]
