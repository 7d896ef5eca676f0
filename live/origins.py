"""Which pages may open a websocket: the whole origin (scheme, host and port) must be the
app's own. Channels' AllowedHostsOriginValidator compares the host only, so a page served
over plain http, or on another port of the same host, could ride a player's cookie."""
from __future__ import annotations

from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host

DEFAULT_PORTS = {"http": 80, "https": 443}
Origin = tuple[str, str, int]


def origin_of(url: str) -> Origin | None:
    """(scheme, host, port) of an http(s) URL; None for anything else ("null", junk)."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in DEFAULT_PORTS or not parts.hostname:
        return None
    return parts.scheme, parts.hostname.lower(), port or DEFAULT_PORTS[parts.scheme]


def trusted_origins() -> set[Origin]:
    """PUBLIC_URL (what the phones open, even behind a TLS proxy) and CSRF_TRUSTED_ORIGINS."""
    origins = (origin_of(url) for url in [settings.PUBLIC_URL, *settings.CSRF_TRUSTED_ORIGINS])
    return {origin for origin in origins if origin is not None}


def _header(scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key == name:
            return value.decode("latin1")
    return None


def request_origin(scope) -> Origin | None:
    """The origin this very request was made to, if its Host is one the server answers."""
    host = _header(scope, b"host")
    if host is None or not validate_host(split_domain_port(host)[0], settings.ALLOWED_HOSTS):
        return None
    scheme = "https" if scope.get("scheme") == "wss" else "http"
    return origin_of(f"{scheme}://{host}")


def origin_allowed(scope) -> bool:
    origin = origin_of(_header(scope, b"origin") or "")
    return origin is not None and (origin in trusted_origins() or origin == request_origin(scope))


class SameOriginValidator:
    """ASGI middleware: refuses a websocket whose Origin is not the app's own."""

    def __init__(self, application):
        self.application = application

    async def __call__(self, scope, receive, send):
        if origin_allowed(scope):
            return await self.application(scope, receive, send)
        return await WebsocketDenier()(scope, receive, send)
