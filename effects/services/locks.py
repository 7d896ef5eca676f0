"""Locks (rules §4.3, GA16): a padlock hangs on a red loop (closed) or a green one (open)
and is only ever moved between the two. Anyone may try to pick a lock, so any character
of the game may move it; the journal keeps who did, and when in game time."""
# Rule codes: docs/rules/gn_fr-coverage.md; their families: docs/glossary.md.
from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from common.i18n import Labels
from players.models import Character
from players.services import journal_write
from rulesets import RuleRefused

from ..models import Item
from ..selectors.items import lock_action

# The loops, not "open"/"closed": the French adjective would agree with the object's name.
LOOP_WORDS = Labels({"red": gettext_noop("red"), "green": gettext_noop("green")})


@transaction.atomic
def lock_move(*, item: Item, character: Character, by, closed: bool | None = None,
              as_narrator: bool = False) -> Item:
    """Move the padlock to the other loop. `closed`, when given, is the position wanted:
    of two phones that saw the lock closed, the second is told it is already open rather
    than closing it again."""
    event = character.event
    if item.event_id != event.pk or item.kind != Item.LOCK:
        raise RuleRefused("item_not_usable", item=item.name)
    if not event.running and not as_narrator:
        raise RuleRefused("game_paused")
    # Locked and read again: two phones moving the same padlock at once take turns.
    item.refresh_from_db(from_queryset=Item.objects.select_for_update())
    if closed is not None and closed == item.closed:
        raise RuleRefused("lock_already", item=item.name,
                          loop=LOOP_WORDS["red" if closed else "green"])
    action = lock_action(item)
    now = timezone.now()
    item.closed = not item.closed
    item.used_by, item.used_game_s = character, event.game_time(now)
    item.save(update_fields=["closed", "used_by", "used_game_s"])
    journal_write(event=event, kind="item", what=action, at=now, by=by, character=character,
                  detail={"item": item.code, "name": item.name, "kind": item.kind,
                          "closed": item.closed,
                          "by_character": {"id": character.pk, "name": character.name}})
    return item

