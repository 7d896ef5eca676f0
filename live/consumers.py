"""One websocket per phone. Transport only: authenticate, join groups, send a snapshot on
connect, forward each new snapshot or effect, answer pings with the server's time, and
answer the heartbeat (a ping with the versions the phone holds) with what it missed.
Who is let in while a crowd connects, and who is told to come back, is live/admission.py."""
from __future__ import annotations

import asyncio
import json
import logging
import time
from urllib.parse import parse_qs

from asgiref.sync import sync_to_async
from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings
from django.utils import timezone

from common.i18n import localize
from live.phone_contact import phone_contact_told
from rulesets.messages import DEFAULT_LANGUAGE, LANGUAGES

from live import admission, broadcast, passes, watch
from live.contacts import contacts_note
from live.consumer_reads import (_behind, _character_first, _event_access, _event_first, _phone_seen,
                                 _still_allowed, safety_first)
from live.consumer_messages import MAX_MESSAGE_CHARS, _held, _int, _number, event_snapshot_parts


logger = logging.getLogger(__name__)


def _character_socket(scope) -> bool:
    return _int(parse_qs(scope.get("query_string", b"").decode("utf-8", "replace")),
                "character") is not None


class _Gone(Exception):
    """The phone hung up while its connect waited: its work is dropped."""


class LiveConsumer(AsyncJsonWebsocketConsumer):
    """/ws/live/?character=ID (a player or a narrator) or /ws/live/?event=ID (narrators, or
    the event's safety team: real-world safety only); &lang=fr|es|en chooses the labels'
    language."""

    groups_joined: list[str] = []
    character_id: int | None = None      # None: an event's narrators' view
    player_id: int | None = None         # the user, when it is the character's own phone
    narrator_id: int | None = None       # the user, when a narrator watches the character
    event_id: int | None = None
    safety_only = False                  # an event socket of the safety team: no game state
    checked_at = float("-inf")
    admitted = False

    async def __call__(self, scope, receive, send):
        self.hangup = admission.Hangup(receive)
        if _character_socket(scope):
            # No channel-layer channel: what a character's socket hears comes through the
            # process's broadcast (broadcast.py), and Channels makes none without a layer.
            self.channel_layer_alias = None
        try:
            await super().__call__(scope, self.hangup.receive, send)
        finally:
            self.hangup.stop()

    async def dispatch(self, message):
        """Channels' dispatch without the thread round trip it makes before every message
        to close stale database connections (`aclose_old_connections`: about a sixth of
        a connect's CPU, and again for every message forwarded). This consumer never uses
        the ORM on the event loop: its reads run in db_threads.concurrent_db, which
        closes its own connection."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def connect(self):
        params = parse_qs(self.scope.get("query_string", b"").decode("utf-8", "replace"))
        lang = params.get("lang", [DEFAULT_LANGUAGE])[0]
        self.lang = lang if lang in LANGUAGES else DEFAULT_LANGUAGE
        # Admitted by the gate in front (live/admission.py), or here when served without
        # it: before any database or Redis work, a crowd beyond what this process
        # sustains is told at once when to come back.
        admitted = self.scope.get(admission.SCOPE_KEY) or admission.ticket()
        if admitted is None:
            await self._come_back_later()
            return
        try:
            first = await self._first(params)
        except _Gone:
            return      # nothing to answer; its disconnect (next message) cleans up
        except admission.BUSY_ERRORS as error:
            # A lookup that failed under load or a fault says nothing about the phone's
            # right to connect: never "forbidden", come back later.
            logger.warning("live connect answered busy: %r", error)
            await self._come_back_later()
            return
        finally:
            admitted.done()
        if self.hangup.gone:
            return
        if first is None:
            # Accepted, then closed: a close before the handshake reaches the browser as an
            # HTTP 403 (close event 1006), and the phone could not tell a refusal from a
            # network fault. 4403 is the code docs/api.md promises; the phone stops there.
            await self.accept()
            await self.close(code=4403)
            return
        watch.watch(self)
        self.admitted = True
        await self.accept()
        # Sent before any group message is handled: the parts arrive one after the other.
        for message in (event_snapshot_parts(first) if first["type"] == "event_snapshot" else [first]):
            await self._send(message)

    async def _first(self, params: dict) -> dict | None:
        """The first message for this phone, or None when it may not subscribe. Raises
        _Gone when the phone hung up meanwhile (checked before each costly step)."""
        self.hangup.listen()
        # One turn of the loop lets the read-ahead take a hang-up already queued (the
        # phone gave up while its handshake waited for this process): nothing is done.
        await asyncio.sleep(0)
        self._check_still_there()
        session = self.scope.get("session")
        if session is None or not session.session_key:    # no cookie: no query
            return None
        if _int(params, "character") is not None:
            return await self._character_connect(session, _int(params, "character"))
        if _int(params, "event") is not None:
            return await self._event_connect(session, _int(params, "event"))
        return None

    def _check_still_there(self) -> None:
        if self.hangup.gone:
            raise _Gone

    async def _come_back_later(self) -> None:
        """The refusal a phone reads (docs/api.md): opened, told the delay after which to
        try again, closed with 4013. The delay goes in a message and in the close reason:
        daphne (the browser tests' server) sends no close reason."""
        await admission.busy_answer(self.base_send)

    async def _character_connect(self, session, character_id: int) -> dict | None:
        """What reaches a character's socket comes through this process's broadcast
        (broadcast.py), which it joins once the event is known from the read: if anything
        went by before it joined, the snapshot is read again (at worst a message arrives
        twice, which the phone ignores)."""
        self.character_id = character_id
        self._check_still_there()
        heard = broadcast.heard()
        first = await self._character_connect_ready(session, heard)
        if first is not None:
            return first
        heard = broadcast.heard()
        found = await _character_first(session, character_id)
        if found is None:
            return None
        self.event_id, first, self.narrator_id, self.player_id = found
        self._check_still_there()
        await broadcast.join(self.event_id, self)
        if heard is None or broadcast.heard() != heard:
            found = await _character_first(session, character_id)
            if found is None:          # deleted in between
                return None
            first = found[1]
        return first

    async def _character_connect_ready(self, session, heard) -> dict | None:
        """The player's phone again, with its pass (live/passes.py): no database and no
        thread; its contact (last seen) is noted with others, within a second. None:
        no valid pass or no ready snapshot, the long way it is."""
        key = session.session_key
        ready = await passes.ready_snapshot(session_key=key, character_id=self.character_id)
        if ready is None:
            return None
        self.event_id, self.player_id, snapshot = ready
        self._check_still_there()
        await broadcast.join(self.event_id, self)
        if heard is None or broadcast.heard() != heard:
            ready = await passes.ready_snapshot(session_key=key, character_id=self.character_id)
            if ready is None:       # it changed in between, or the pass was revoked
                broadcast.leave(self.event_id, self)
                return None
            snapshot = ready[2]
        contacts_note(self.player_id)
        return {"type": "snapshot", "snapshot": snapshot}

    async def _event_connect(self, session, event_id: int) -> dict | None:
        access = await _event_access(session, event_id)
        if access is None:
            return None
        self.event_id, self.groups_joined, self.safety_only = access
        await self._join()
        self._check_still_there()
        if self.safety_only:
            return safety_first(self.event_id)
        # Read once the group is joined: a change committed in between is sent through it.
        return await _event_first(self.event_id)

    async def _join(self) -> None:
        for group in self.groups_joined:
            await self.channel_layer.group_add(group, self.channel_name)

    async def rejoin_and_check(self) -> None:
        """Redis lost the groups (watch.py): join them again and ask the phone what it holds.
        Its answer (a heartbeat, let through at once) checks its access: a query here, for
        each phone in turn, would delay the last ones' re-join by seconds."""
        if not self.admitted:
            return
        await self._join()
        self.checked_at = float("-inf")
        await self._send({"type": "check"})

    async def _answer_heartbeat(self, held: dict[int, int]) -> None:
        """Re-join the groups (they may have been lost or expired) and send what the
        phone missed. At most once per LIVE_CHECK_MIN_INTERVAL_S: each costs a query."""
        now = time.monotonic()
        if now - self.checked_at < settings.LIVE_CHECK_MIN_INTERVAL_S:
            return
        self.checked_at = now
        if self.safety_only:
            held = {}       # the safety team holds no character: it is sent none
        elif self.character_id is not None:
            held = {pk: v for pk, v in held.items() if pk == self.character_id}
            if self.player_id is not None:
                await _phone_seen(self.player_id)
        # Re-joining is subscribing again: only with the access the phone still has.
        if not await self._access_kept():
            return
        await self._join()
        for snapshot in await _behind(self.event_id, held) if held else []:
            await self._send({"type": "snapshot", "snapshot": snapshot})

    async def delivered(self, message: dict) -> None:
        """A message for this character's phones or this narrator (broadcast.deliver)."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def access_check(self, message):
        """Someone's access shrank (publish.access_check_on_commit): check this socket's."""
        await self._access_kept()

    async def _access_kept(self) -> bool:
        """Whether the session still may see what this socket subscribed to; if not,
        nothing more is sent and the socket closes with 4403 (the phone stops there)."""
        if not self.admitted:
            return False
        session = self.scope.get("session")
        try:
            if await _still_allowed(session.session_key if session is not None else None,
                                    character_id=self.character_id, event_id=self.event_id,
                                    safety_only=self.safety_only):
                return True
        except admission.BUSY_ERRORS as error:   # says nothing of the access: ask again later
            logger.warning("live access check failed: %r", error)
            return True
        self.admitted = False
        await self.close(code=4403)
        return False

    async def _phone_contact(self, told: str) -> None:
        """A heartbeat that says what the phone's outbox holds proves it was connected now:
        the bound of the taps it sends late (live/phone_contact.py)."""
        session = self.scope.get("session")
        if self.event_id is None or session is None or not session.session_key:
            return
        await sync_to_async(phone_contact_told)(phone=session.session_key, value=told,
                                                at=timezone.now())

    async def _leave(self) -> None:
        groups, self.groups_joined = self.groups_joined, []
        for group in groups:
            try:
                await self.channel_layer.group_discard(group, self.channel_name)
            except admission.BUSY_ERRORS:
                pass    # Redis down or swamped: the membership expires by itself (group_expiry)

    async def disconnect(self, code):
        watch.unwatch(self)
        if self.character_id is not None and self.event_id is not None:
            broadcast.leave(self.event_id, self)
        await self._leave()

    async def receive(self, text_data=None, bytes_data=None, **kwargs):
        """Phones send only small JSON pings: anything else (binary, huge, not JSON, nested
        past the parser's stack) is ignored, so a broken client cannot crash the consumer
        or make it parse megabytes."""
        if text_data is None or len(text_data) > MAX_MESSAGE_CHARS:
            return
        try:
            content = await self.decode_json(text_data)
        except (ValueError, RecursionError):
            return
        await self.receive_json(content)

    async def receive_json(self, content, **kwargs):
        if isinstance(content, dict) and content.get("type") == "ping":
            if isinstance(content.get("outbox_oldest"), str):
                await self._phone_contact(content["outbox_oldest"][:64])
            if "versions" in content:
                await self._answer_heartbeat(_held(content["versions"]))
            # The phone estimates its clock offset from the round trip of this message.
            await self._send({"type": "pong", "client_time": _number(content.get("client_time"))})

    async def snapshot_message(self, message):
        await self._send({"type": "snapshot", "snapshot": message["snapshot"]})

    async def snapshots_message(self, message):
        """Narrators get a change to many characters as one batch from the layer."""
        for snapshot in message["snapshots"]:
            await self._send({"type": "snapshot", "snapshot": snapshot})

    async def effect_message(self, message):
        """Narrators: an effect reached the characters named (or "all")."""
        await self._send({"type": "effect", "characters": message["characters"],
                          "effect": message["effect"]})

    async def day_message(self, message):
        """Narrators: a dawn or a day end has run; `untreated` lists who awaits a decision."""
        await self._send({"type": "day", "day": message["day"], "untreated": message["untreated"]})

    async def emergency_message(self, message):
        """Narrators: someone declared Emergencia."""
        await self._send({"type": "emergency", "emergency": message["emergency"]})

    async def request_message(self, message):
        """Narrators: a player's request to the organisers, new (open) or answered."""
        await self._send({"type": "request", "request": message["request"]})

    async def phone_message(self, message):
        """Narrators: a character's phone reported its self-check (players/readiness_*)."""
        await self._send({"type": "phone", "phone": message["phone"]})

    async def safety_message(self, message):
        """Real-world safety (safety/publish.py): to narrators, a call for help or a board
        change; to a caller's phone, their own call (received, who is coming)."""
        await self._send({"type": "safety", **message["safety"]})

    async def race_message(self, message):
        """The zombie race (race/publish.py): to narrators, changed entries, a course's
        leaderboard or an overdue alert; to a survivor's phones, their own entry."""
        await self._send({"type": "race", **message["race"]})

    async def broadcast_message(self, message: dict, encoded: dict[str, str] | None = None):
        """An effect for this character, handed over by this process (broadcast.py).
        `encoded`: the text of the same message per language, shared by every phone of
        one hand-out, so that a push to everyone is localized and encoded once per
        language, not once per phone; only the character's id is written per phone."""
        if not self.admitted:
            return
        encoded = {} if encoded is None else encoded
        head = encoded.get(self.lang)
        if head is None:
            text = self._encode({"type": "effect", "effect": message["effect"]})
            head = encoded[self.lang] = f'{text[:-1]}, "character": '
        await self.send(text_data=f"{head}{self.character_id}}}")

    def _encode(self, payload: dict) -> str:
        return json.dumps({**localize(payload, self.lang), "server_time": time.time()})

    async def _send(self, payload: dict):
        if not self.admitted:   # refused: a message of the group it had joined to check
            return
        await self.send(text_data=self._encode(payload))
