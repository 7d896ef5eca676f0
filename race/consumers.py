"""The public results page's websocket (`/ws/race/<event>/results/`): a spectator is told
that the results changed, never what changed; the page then reads itself again, as
anyone may without logging in (race/static/race/results_live.js). Transport only: no
login, nothing read from the spectator, one group per race."""
from __future__ import annotations

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from .publish import results_group
from .selectors.entries import race_exists

@database_sync_to_async
def _is_race(event_id: int) -> bool:
    return race_exists(event_id)


class ResultsConsumer(AsyncJsonWebsocketConsumer):
    group: str | None = None

    async def connect(self):
        event_id = self.scope["url_route"]["kwargs"]["event_id"]
        await self.accept()
        if not await _is_race(event_id):
            # Opened, then closed with a code the page can read (not a bare failure).
            await self.close(code=4404)
            return
        self.group = results_group(event_id)
        await self.channel_layer.group_add(self.group, self.channel_name)

    async def disconnect(self, code):
        if self.group:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive_json(self, content, **kwargs):
        """A spectator has nothing to say: whatever comes is ignored."""

    async def race_results(self, message):
        await self.send_json({"type": "results_changed"})
