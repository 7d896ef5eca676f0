"""The floor for bench/servers.py: the app's settings with no middleware at all and one
URL, `/healthz`, answering the same constant as the app's. Served as an ASGI application
by the server under test (`DJANGO_SETTINGS_MODULE=bench.bare`)."""
from config.settings import *  # noqa: F401,F403  (the same apps, database and logging)

from django.http import JsonResponse
from django.urls import path

MIDDLEWARE = []
ROOT_URLCONF = __name__


def healthz(request):
    return JsonResponse({"ok": True})


urlpatterns = [path("healthz", healthz)]


def __getattr__(name):
    # `bench.bare:application` is only built when a server asks for it (settings first):
    # Django's own ASGI handler, and the app's answer to the server's lifespan messages.
    if name == "application":
        from channels.routing import ProtocolTypeRouter
        from django.core.asgi import get_asgi_application

        from config.lifespan import lifespan
        return ProtocolTypeRouter({"http": get_asgi_application(), "lifespan": lifespan})
    raise AttributeError(name)
