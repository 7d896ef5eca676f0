"""What a phone served without a thread proves of itself, noted a moment later.

A phone that reconnects on its pass, or reads its snapshot over HTTP from the ready bytes
(live/passes.py, live/snapshot_http.py), is served on the event loop with no database.
Its contact (real-world safety's "last seen") and what its request says its outbox holds
(live/phone_contact.py) still have to be written: they are gathered per event loop (one per
server process) and written together on one thread every LIVE_CONTACTS_EVERY_S. A thread
for each connect cost a quarter of it. Both are bounds that only grow weaker if a note is
late or lost, never wrong (the board reads minutes, the outbox proof is a lower bound)."""
from __future__ import annotations

import asyncio
import logging
from datetime import datetime

from django.conf import settings

from live import observers
from live.db_threads import concurrent_db
from live.phone_contact import phone_contact_proof, phone_contact_record

logger = logging.getLogger(__name__)


class _Pending:
    def __init__(self):
        self.seen: set[int] = set()
        # Per phone (its session), the latest instant its requests proved (however many).
        self.proven: dict[str, datetime] = {}


_pending: dict[asyncio.AbstractEventLoop, _Pending] = {}
_flushes: set[asyncio.Task] = set()


def _batch() -> _Pending:
    loop = asyncio.get_running_loop()
    pending = _pending.get(loop)
    if pending is None:
        pending = _pending[loop] = _Pending()
        flush = loop.create_task(_flush(loop))
        _flushes.add(flush)
        flush.add_done_callback(_flushes.discard)
    return pending


def contacts_note(user_id: int) -> None:
    """This user's phone was in touch now (on the event loop)."""
    _batch().seen.add(user_id)


def outbox_note(*, phone: str, value: str, at: datetime) -> None:
    """This phone's request arrived at `at`, its X-Outbox-Oldest header saying `value`."""
    proven = phone_contact_proof(value=value, at=at)
    if proven is not None:
        pending = _batch().proven
        pending[phone] = max(proven, pending.get(phone, proven))


async def _flush(loop) -> None:
    await asyncio.sleep(settings.LIVE_CONTACTS_EVERY_S)
    pending = _pending.pop(loop)
    try:
        await _write(pending)
    except Exception:       # last seen is the safety board's; the game goes on
        logger.warning("contacts of %d phones not noted", len(pending.seen), exc_info=True)


@concurrent_db
def _write(pending: _Pending) -> None:
    if pending.seen:
        observers.phones_seen.notify(user_ids=sorted(pending.seen))
    for phone, proven in pending.proven.items():
        phone_contact_record(phone=phone, proven=proven)
