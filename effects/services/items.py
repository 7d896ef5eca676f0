"""Objects with an out-of-game tag (rules §3.2, GA15): whoever touches a tagged object
must read it and undergo its effect; a medicine's effect reaches whoever ingests it, even
when someone else made them swallow it; a sealed envelope's, whoever opens it. Firearms
are stored here too; shooting and loading are built on top elsewhere."""
# Rule codes: docs/rules/gn_fr-coverage.md; their families: docs/glossary.md.
from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from health.services import snapshots_changed
from players.models import Character, Event
from players.services import journal_write
from rulesets import RuleRefused

from ..models import Effect, Item, new_item_code
from ..selectors.items import ACTIONS, revealed_text
from .effects import effect_push

# A pill is swallowed once and an envelope opened once; a tag is read by everyone.
SINGLE_USE_KINDS = {Item.MEDICINE, Item.ENVELOPE}
# What acts instead of an effect, told to the organiser who typed one.
NO_EFFECT_KINDS = {Item.FIREARM: "its shots do", Item.LOCK: "it is open or closed"}


def _free_code() -> str:
    # 32^8 codes: a collision is a curiosity, but a label must never name two objects.
    while True:
        code = new_item_code()
        if not Item.objects.filter(code=code).exists():
            return code


def _check_fields(event: Event, kind: str, fields: dict) -> None:
    """What the rules of the object kinds require, named for the organiser who typed it."""
    state = fields.get("effect_set_state")
    if state and state not in event.rules().ruleset.states:
        raise RuleRefused("bad_input", detail=f"'{state}' is not a state of this game")
    has_text = fields.get("effect_text") or fields.get("secret_text")
    if fields.get("load") is not None:
        if not event.rules().ruleset.load:
            raise RuleRefused("bad_input", detail="load: this game's rules have no Carga")
        if kind == Item.LOCK:
            raise RuleRefused("bad_input", detail="load: a lock is never carried")
    if kind != Item.LOCK and fields.get("closed") is False:
        raise RuleRefused("bad_input", detail="only a lock is open or closed")
    if kind in NO_EFFECT_KINDS:
        if has_text or state or fields.get("effect_duration_s"):
            raise RuleRefused("bad_input", detail=f"a {kind} carries no effect: "
                                                  f"{NO_EFFECT_KINDS[kind]}")
        if kind == Item.FIREARM:
            return
    if fields.get("holder") or fields.get("loaded"):
        raise RuleRefused("bad_input", detail="only a firearm has a holder or is loaded")
    if (state or fields.get("effect_duration_s")) and not has_text:
        raise RuleRefused("bad_input", detail="an effect needs effect_text or secret_text")
    if kind in SINGLE_USE_KINDS and not has_text:
        raise RuleRefused("bad_input", detail=f"a {kind} needs effect_text or secret_text")


@transaction.atomic
def item_create(*, event: Event, by, name: str, kind: str, single_use: bool | None = None,
                **fields) -> Item:
    """An object for the organisers to label. `fields`: tag_text, secret_text, effect_text,
    effect_duration_s, effect_set_state, load (Carga), for a firearm holder and loaded, for
    a lock closed."""
    if kind not in dict(Item.KINDS):
        raise RuleRefused("bad_input", detail=f"'{kind}' is not a kind of object")
    if kind == Item.LOCK and single_use:
        raise RuleRefused("bad_input", detail="a lock is never used up")
    _check_fields(event, kind, fields)
    holder = fields.get("holder")
    if holder is not None and holder.event_id != event.pk:
        raise RuleRefused("bad_input", detail="the holder plays in another game")
    if single_use is None:
        single_use = kind in SINGLE_USE_KINDS
    item = Item.objects.create(event=event, code=_free_code(), name=name, kind=kind,
                               single_use=single_use, created_by=by, **fields)
    journal_write(event=event, kind="item", what="created", at=timezone.now(), by=by,
                  character=holder, detail={"item": item.code, "name": name, "kind": kind})
    if holder is not None:     # it weighs in their Carga from now on
        snapshots_changed(character_ids=[holder.pk])
    return item


def item_touch(*, item: Item, character: Character, by, as_narrator: bool = False) -> Effect:
    """A tag's effect reaches the one who touched (and so read) it, literate or not."""
    return item_use(item=item, user_character=character, target=character, by=by,
                    as_narrator=as_narrator)


@transaction.atomic
def item_use(*, item: Item, user_character: Character, target: Character, by,
             as_narrator: bool = False) -> Effect:
    """Touch a tag, ingest a medicine or open an envelope: the effect goes to `target` (the
    one who ingests, who may not be the one holding the pill). Players act only while the
    game runs; a single-use object works once, whoever tries again."""
    event = user_character.event
    if item.event_id != event.pk or target.event_id != event.pk:
        raise RuleRefused("bad_input", detail="the object and both characters must share a game")
    if not event.running and not as_narrator:
        raise RuleRefused("game_paused")
    # Locked and read again: of two phones scanning the same pill at once, one swallows it.
    item.refresh_from_db(from_queryset=Item.objects.select_for_update())
    if item.kind not in ACTIONS or not item.has_effect:
        raise RuleRefused("item_not_usable", item=item.name)
    if item.kind != Item.MEDICINE and target.pk != user_character.pk:
        raise RuleRefused("item_self_only", item=item.name)
    if item.used_up:
        raise RuleRefused("item_used", item=item.name)
    effect, = effect_push(event=event, characters=[target], text=revealed_text(item),
                          duration_s=item.effect_duration_s,
                          set_state=item.effect_set_state or None, by=by)
    now = timezone.now()
    item.used_by, item.used_game_s = user_character, event.game_time(now)
    item.save(update_fields=["used_by", "used_game_s"])
    if item.kind == Item.MEDICINE and item.single_use and item.holder_id:
        # Swallowed: it no longer weighs on whoever carried it (Carga).
        snapshots_changed(character_ids=[item.holder_id])
        item.holder = None
        item.save(update_fields=["holder"])
    # No secret here: the effect's own journal line (on the target) holds the text.
    journal_write(event=event, kind="item", what=ACTIONS[item.kind], at=now, by=by,
                  character=target, detail={
                      "item": item.code, "name": item.name, "kind": item.kind,
                      "by_character": {"id": user_character.pk, "name": user_character.name},
                      "target": {"id": target.pk, "name": target.name}, "effect": effect.pk})
    return effect
