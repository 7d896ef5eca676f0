import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from config.http import get_asgi_application  # noqa: E402
from config.lifespan import lifespan  # noqa: E402

django_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from live.origins import SameOriginValidator  # noqa: E402
from live.routing import websocket_urlpatterns  # noqa: E402


application = ProtocolTypeRouter({
    "http": django_app,
    "websocket": SameOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
    "lifespan": lifespan,
})
