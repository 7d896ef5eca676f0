import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from django.core.asgi import get_asgi_application  # noqa: E402

django_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from live.origins import SameOriginValidator  # noqa: E402
from live.routing import websocket_urlpatterns  # noqa: E402

# No login middleware on websockets: the consumer reads the login itself, once
# it is admitted (live/admission.py), so that a crowd beyond what the process sustains is
# refused before any database work, and a failed read is "come back later", not "forbidden".
application = ProtocolTypeRouter({
    "http": django_app,
    "websocket": SameOriginValidator(URLRouter(websocket_urlpatterns)),
})
