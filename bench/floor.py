"""The application the connect bench serves: the project's own, plus `/ws/bare/`, a
Channels consumer that accepts and sends one constant message (no session, group or
query). Both in one server process, so that the floor and the project's connect are
measured by the same client, on the same server, in the same run."""
import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from channels.generic.websocket import AsyncJsonWebsocketConsumer  # noqa: E402

from bench.connect_floor import BARE_PATH  # noqa: E402
from config.asgi import application as project  # noqa: E402


class Bare(AsyncJsonWebsocketConsumer):
    async def connect(self):
        await self.accept()
        await self.send_json({"type": "snapshot", "snapshot": {}})


bare = Bare.as_asgi()


async def application(scope, receive, send):
    if scope["type"] == "websocket" and scope["path"] == BARE_PATH:
        return await bare(scope, receive, send)
    return await project(scope, receive, send)
