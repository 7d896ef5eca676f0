"""A player's phone reads its snapshot over HTTP from its pass and the ready snapshot
(live/snapshot_http.py): no database, the same body and headers as Django's answer, and
the long way for everyone and everything else."""
from __future__ import annotations

import asyncio
import json

import pytest
from asgiref.sync import sync_to_async
from django.utils import timezone
from fixtures import act, comparable

from live import passes, snapshot_http
from live.phone_contact import phone_contact_proven
from players.access_services import character_login_cut
from test_queries import EveryQuery

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

PHONE = {"Host": "127.0.0.1:8000", "Accept": "application/json", "Accept-Language": "fr"}


async def asgi_get(path: str, headers: dict, *, scheme="http", app=None) -> tuple[int, dict, bytes, int]:
    """(status, headers, body, SQL queries) of one GET through the whole ASGI application."""
    if app is None:
        from config.asgi import application as app
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET",
             "scheme": scheme, "path": path.split("?")[0], "raw_path": path.split("?")[0].encode(),
             "query_string": path.partition("?")[2].encode(), "root_path": "",
             "headers": [(k.lower().encode(), v.encode()) for k, v in headers.items()],
             "client": ("192.168.1.40", 50000), "server": ("127.0.0.1", 8000)}
    asked = asyncio.Event()
    sent = []

    async def receive():
        if not asked.is_set():
            asked.set()
            return {"type": "http.request", "body": b"", "more_body": False}
        await asyncio.Event().wait()        # the phone stays connected

    async def send(message):
        sent.append(message)
    with EveryQuery() as queries:
        await app(scope, receive, send)
    start, body = sent[0], b"".join(m.get("body", b"") for m in sent[1:])
    return start["status"], {k.decode(): v.decode() for k, v in start["headers"]}, body, queries.count


def phone(api, **more) -> dict:
    return {**PHONE, "Cookie": f"sessionid={api.cookies['sessionid'].value}", **more}


def without_time(body: bytes) -> dict:
    answer = json.loads(body)
    assert abs(answer.pop("server_time") - timezone.now().timestamp()) < 5
    return comparable(answer)


async def test_the_second_read_is_the_long_ways_answer_without_the_database(player, player_api):
    path = f"/api/characters/{player.pk}/"
    for language in ("fr", "es", "en"):
        headers = phone(player_api, **{"Accept-Language": language})
        await sync_to_async(passes.characters_moved)([player.pk])     # the long way again
        long_status, long_headers, long_body, long_queries = await asgi_get(path, headers)
        status, ready_headers, body, queries = await asgi_get(path, headers)
        assert (long_status, status) == (200, 200) and long_queries > 0 and queries == 0
        assert ready_headers == long_headers and ready_headers["Content-Language"] == language
        assert without_time(body) == without_time(long_body)


async def test_a_countdown_read_later_counts_down_as_a_fresh_read(clock, player, player_api,
                                                                  narrator_api):
    await sync_to_async(act)(narrator_api, player, "hit_wounding")
    path = f"/api/characters/{player.pk}/"
    await asgi_get(path, phone(player_api))
    clock.advance(42)
    _, _, body, queries = await asgi_get(path, phone(player_api))
    fresh = await sync_to_async(player_api.get)(path)
    assert queries == 0 and json.loads(body)["state"]["key"] == "wounded"
    assert [t["remaining_s"] for t in json.loads(body)["timers"]] == [
        t["remaining_s"] for t in fresh.json()["timers"]]


async def test_behind_an_https_proxy_the_headers_are_still_djangos(player, player_api, settings):
    """A field server behind its TLS proxy: Strict-Transport-Security and the rest, as Django."""
    from config.http import get_asgi_application
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    settings.SECURE_HSTS_SECONDS = 3600
    settings.SECURE_SSL_REDIRECT = True
    snapshot_http._middleware.cache_clear()
    try:
        app = snapshot_http.ReadySnapshots(get_asgi_application())
        path = f"/api/characters/{player.pk}/"
        secure = phone(player_api, **{"X-Forwarded-Proto": "https"})
        long_status, long_headers, _, long_queries = await asgi_get(path, secure, app=app)
        status, headers, _, queries = await asgi_get(path, secure, app=app)
        assert (long_status, status, queries) == (200, 200, 0) and long_queries > 0
        assert headers == long_headers and headers["Strict-Transport-Security"] == "max-age=3600"
        # Plain http is redirected to https by Django, never answered here.
        status, headers, _, _ = await asgi_get(path, phone(player_api), app=app)
        assert status == 301 and headers["Location"].startswith("https://")
    finally:
        snapshot_http._middleware.cache_clear()


@pytest.mark.parametrize("change", [
    {"path": "?fields=all"}, {"Accept": "text/html"}, {"Host": "evil.example"},
])
async def test_anything_else_goes_the_long_way(player, player_api, change):
    path = f"/api/characters/{player.pk}/"
    await asgi_get(path, phone(player_api))               # the pass is given
    headers = phone(player_api, **{k: v for k, v in change.items() if k != "path"})
    status, _, _, queries = await asgi_get(path + change.get("path", ""), headers)
    assert queries > 0 or status == 400, (status, queries)


async def test_a_pass_opens_only_its_own_character(player, other_player, player_api):
    await asgi_get(f"/api/characters/{player.pk}/", phone(player_api))
    status, _, body, _ = await asgi_get(f"/api/characters/{other_player.pk}/", phone(player_api))
    assert status == 404 and b"Denis" not in body


async def test_a_narrator_reads_the_long_way_every_time(player, narrator_api):
    path = f"/api/characters/{player.pk}/"
    for _ in range(2):
        status, _, _, queries = await asgi_get(path, phone(narrator_api))
        assert status == 200 and queries > 0


async def test_a_phone_cut_off_or_logged_out_is_refused_at_once(player, player_api, narrator_user):
    path = f"/api/characters/{player.pk}/"
    await asgi_get(path, phone(player_api))
    old = phone(player_api)
    await sync_to_async(character_login_cut)(character=player, by=narrator_user)
    status, _, body, _ = await asgi_get(path, old)
    assert status in (401, 403) and b"Alice" not in body


async def test_its_contact_and_its_outbox_are_noted(clock, player, player_api, settings):
    """Last seen (the safety board's) and the outbox's proof, as Django's middleware notes them."""
    from safety.models import Contact
    settings.LIVE_CONTACTS_EVERY_S = 0
    path = f"/api/characters/{player.pk}/"
    await asgi_get(path, phone(player_api))
    clock.advance(120)                  # a minute later: a new contact to write
    arrived = timezone.now()
    _, _, _, queries = await asgi_get(path, phone(player_api, **{"X-Outbox-Oldest": "none"}))
    assert queries == 0
    session_key = player_api.cookies["sessionid"].value

    def noted():
        return (Contact.objects.get(character=player).last_seen_at, phone_contact_proven(session_key))
    for _ in range(100):
        if await sync_to_async(noted)() == (arrived, arrived):
            break
        await asyncio.sleep(0.02)
    assert await sync_to_async(noted)() == (arrived, arrived)
