"""The websocket's origin check compares the whole origin (scheme, host, port)."""
from __future__ import annotations

import pytest
from fixtures import connect

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


async def test_behind_a_tls_proxy_the_public_url_is_the_origin(settings, clock, player, player_api):
    """The proxy speaks plain ws to the server; the phone's page is https://PUBLIC_URL."""
    settings.PUBLIC_URL = "https://game.example.org"
    phone, connected, _ = await connect(player_api, f"character={player.pk}",
                                        origin=b"https://game.example.org")
    assert connected
    await phone.disconnect()
    for foreign in (b"http://game.example.org", b"https://game.example.org:8443",
                    b"https://game.example.org.evil.example"):
        _, connected, _ = await connect(player_api, f"character={player.pk}", origin=foreign)
        assert not connected, foreign


async def test_a_host_the_server_does_not_answer_is_refused(settings, clock, player, player_api):
    settings.ALLOWED_HOSTS = ["game.example.org"]
    _, connected, _ = await connect(player_api, f"character={player.pk}")
    assert not connected  # http://testserver is no longer this server's own origin
