"""The effects let go of a person's names (players/privacy.py): their requests to the
organisers, the answers, the effects' texts and the objects' labels of their events keep
what they say, without the names."""
from __future__ import annotations

from django.db.models import Q

from health.services import snapshots_changed
from players.models import Character

from ..models import Effect, Item, OrganiserRequest

ITEM_TEXTS = ("name", "tag_text", "secret_text", "effect_text")


def effects_person_erase(*, person, scrub) -> None:
    if not scrub:
        return
    for asked in OrganiserRequest.objects.filter(character_id__in=person.character_ids):
        asked.text, asked.answer = scrub(asked.text)[:OrganiserRequest.TEXT_MAX], scrub(asked.answer)
        asked.save(update_fields=["text", "answer"])
    # Theirs, and those pushed to everyone in their events, which may name them.
    reached = Q(character_id__in=person.character_ids) | Q(character__isnull=True,
                                                          event_id__in=person.event_ids)
    changed = False
    for effect in Effect.objects.filter(reached):
        text = scrub(effect.text)
        if text != effect.text:
            effect.text = text
            effect.save(update_fields=["text"])
            changed = True
    for item in Item.objects.filter(event_id__in=person.event_ids):
        texts = {field: scrub(getattr(item, field)) for field in ITEM_TEXTS}
        if any(texts[field] != getattr(item, field) for field in ITEM_TEXTS):
            for field, value in texts.items():
                setattr(item, field, value)
            item.name = item.name[:200]
            item.save(update_fields=list(ITEM_TEXTS))
            changed = True
    if changed:   # snapshots show these texts: none may be served or kept with the names
        snapshots_changed(character_ids=Character.objects.filter(
            event_id__in=person.event_ids).values_list("pk", flat=True))
