"""What the race's services share: locking an entry, checking an instant someone gives,
journalling."""
# Rule codes: docs/rules/zombie_race-coverage.md; their families: docs/glossary.md.
from __future__ import annotations

from datetime import datetime, timedelta

from django.utils import timezone

from players.services import journal_write
from rulesets import RuleRefused

from ..labels import say
from ..models import Entry

# An instant typed on a phone may be a few seconds ahead of the server's clock; further
# ahead, or more than a night back, it is surely a wrong date or time zone.
FUTURE_TOLERANCE_S = 5
PAST_LIMIT = timedelta(hours=12)


def entry_lock(entry: Entry) -> Entry:
    """The entry's row, locked for this transaction: every change to an entry (a punch, a
    life, the finish) takes it, so two zombies cannot pull the same last flag."""
    return (Entry.objects.select_for_update(of=("self",))
            .select_related("event", "course", "character").get(pk=entry.pk))


def instant(at: datetime | None, *, field: str, now: datetime,
            not_before: datetime | None = None) -> datetime:
    """`at` if given (a start or finish read off a watch), else now."""
    if at is None:
        return now
    if at > now + timedelta(seconds=FUTURE_TOLERANCE_S):
        raise RuleRefused("bad_input", detail=say("in_future", field=field, at=at.isoformat()))
    if at < now - PAST_LIMIT:
        raise RuleRefused("bad_input", detail=say("too_old", field=field, at=at.isoformat()))
    if not_before is not None and at < not_before:
        raise RuleRefused("bad_input", detail=say("before_start_time", field=field,
                                                  at=at.isoformat(),
                                                  start=not_before.isoformat()))
    return at


def race_journal(*, entry: Entry, what: str, by, at: datetime | None = None,
                 detail: dict | None = None) -> None:
    journal_write(event=entry.event, kind="race", what=what, at=at or timezone.now(), by=by,
                  character=entry.character, detail={"entry": entry.pk, **(detail or {})})


def status_key(entry: Entry, now: datetime) -> str:
    """R07: a racing entry is in overtime from its deadline on; nothing ticks, the status
    is read against the clock."""
    if entry.status == Entry.RACING and entry.deadline_at and now >= entry.deadline_at:
        return "overtime"
    return entry.status
