import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from config.http import get_asgi_application  # noqa: E402
from config.lifespan import lifespan  # noqa: E402

django_app = get_asgi_application()

from channels.sessions import SessionMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from live.admission import Gate  # noqa: E402
from live.origins import SameOriginValidator  # noqa: E402
from live.snapshot_http import ReadySnapshots  # noqa: E402
from live.routing import websocket_urlpatterns  # noqa: E402
from race.routing import websocket_urlpatterns as race_websockets  # noqa: E402

application = ProtocolTypeRouter({
    # A player's phone reading its own snapshot again is answered from the bytes its
    # socket reconnects with, before Django (live/snapshot_http.py).
    "http": ReadySnapshots(django_app),
    # The session only: the consumer finds the user inside its own database call, where
    # the character's row brings a player's user along (live/auth.py). The race's public
    # results page has a socket of its own, with no login (race/consumers.py). The live
    # socket's admission comes first of all: a refusal costs nothing else (live/admission.py).
    "websocket": Gate(SameOriginValidator(SessionMiddlewareStack(
        URLRouter(websocket_urlpatterns + race_websockets)))),
    "lifespan": lifespan,
})
