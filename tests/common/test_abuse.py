"""Abuse: guessing login links, oversized or malformed requests, junk on the live channel.
Every refusal is a 4xx in the caller's language and changes nothing."""
from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time

import pytest
from channels.testing import WebsocketCommunicator
from django.conf import settings as django_settings
from django.db import connection
from django.test import Client
from rest_framework.test import APIClient

from config.asgi import application
from fixtures import client_for
from players.models import LoginToken
from players.services import login_token_issue
from fixtures import fingerprint

pytestmark = pytest.mark.django_db


# --- login attempts are rate-limited per client address ------------------------------------

def guess(api, times: int = 1) -> None:
    for _ in range(times):
        response = api.post("/api/login/", {"token": "a-guess"}, format="json")
        assert response.status_code == 400, response.content


def login(api, event, user):
    return api.post("/api/login/", {"token": login_token_issue(event=event, user=user)},
                    format="json")


def test_after_20_failures_even_a_good_link_waits(clock, event, player):
    phone = APIClient(HTTP_ACCEPT_LANGUAGE="fr")
    guess(phone, 20)

    response = login(phone, event, player.user)

    assert response.status_code == 429
    assert response["Retry-After"] == "600"
    assert response.json() == {
        "error": "too_many_logins",
        "detail": "Trop de tentatives de connexion échouées depuis ce réseau ; réessayez "
                  "dans 10 min."}
    assert phone.get("/api/me/").status_code == 403
    assert LoginToken.objects.get().used_at is None  # the link still works later


def test_the_wait_ends_when_retry_after_says(clock, event, player):
    phone = APIClient()
    guess(phone, 20)
    wait = int(login(phone, event, player.user)["Retry-After"])

    clock.advance(wait - 1)
    almost = login(phone, event, player.user)
    assert (almost.status_code, almost["Retry-After"]) == (429, "1")

    clock.advance(1)
    assert login(phone, event, player.user).status_code == 200


def test_the_browser_link_and_the_api_share_the_count(clock, event, player):
    guess(APIClient(), 10)
    for _ in range(10):
        # Opening the link only shows the page (a link-preview bot uses nothing up); the
        # tap on its button is the attempt.
        assert Client().get("/login/a-guess").status_code == 200
        assert Client().post("/login/a-guess").status_code == 400
    token = login_token_issue(event=event, user=player.user)

    response = Client(HTTP_ACCEPT_LANGUAGE="es").post(f"/login/{token}")

    assert response.status_code == 429
    assert response["Retry-After"] == "600"
    # The link's page speaks its event's language (French here), not the browser's.
    assert "Trop de tentatives de connexion échouées" in response.content.decode()
    assert LoginToken.objects.get().used_at is None


def test_successful_logins_do_not_count(clock, event, player):
    phone = APIClient()
    guess(phone, 19)
    for _ in range(5):
        assert login(phone, event, player.user).status_code == 200
    guess(phone)  # the 20th failure is still answered

    assert phone.post("/api/login/", {"token": "a-guess"}, format="json").status_code == 429


def test_other_addresses_are_not_held_back(clock, event, player):
    guess(APIClient(REMOTE_ADDR="198.51.100.7"), 20)
    assert login(APIClient(REMOTE_ADDR="198.51.100.7"), event, player.user).status_code == 429
    assert login(APIClient(REMOTE_ADDR="203.0.113.9"), event, player.user).status_code == 200


def test_an_ipv6_client_counts_as_its_whole_64(clock, event, player):
    """A single IPv6 customer owns 2^64 addresses; changing address does not reset the count."""
    guess(APIClient(REMOTE_ADDR="2001:db8:1:2::a"), 20)
    assert login(APIClient(REMOTE_ADDR="2001:db8:1:2::ffff"), event, player.user).status_code == 429
    assert login(APIClient(REMOTE_ADDR="2001:db8:1:3::a"), event, player.user).status_code == 200


SECOND_PROCESS = """
import sys, django, time_machine
time_machine.travel(float(sys.argv[3]), tick=False).start()  # the test's frozen instant
django.setup()
from django.conf import settings
from django.db import connections
from django.test import Client
connections["default"].settings_dict["NAME"] = sys.argv[1]
settings.CACHES["default"]["KEY_PREFIX"] = sys.argv[2]
codes = {Client().post("/api/login/", {"token": "a-guess"}, content_type="application/json")
         .status_code for _ in range(20)}
assert codes == {400}, codes
"""


@pytest.mark.django_db(transaction=True)
def test_the_count_is_shared_by_every_server_process(clock, event, player):
    """Another server process (its own memory, the same Redis) makes the 20 failures."""
    subprocess.run([sys.executable, "-c", SECOND_PROCESS, connection.settings_dict["NAME"],
                    django_settings.CACHES["default"]["KEY_PREFIX"], str(time.time())],
                   check=True, cwd=django_settings.BASE_DIR, timeout=60)

    assert login(APIClient(), event, player.user).status_code == 429


def test_a_redis_outage_does_not_lock_players_out(clock, event, player, settings):
    settings.CACHES = {"default": {**settings.CACHES["default"],
                                   "LOCATION": "redis://127.0.0.1:1/0"}}  # nothing listens
    phone = APIClient()
    guess(phone, 25)
    assert login(phone, event, player.user).status_code == 200


# --- oversized or malformed bodies -----------------------------------------------------------

BAD_BODIES = {
    "1 MiB of JSON": (json.dumps({"name": "x" * 2 ** 20}), 413, "body_too_large"),
    "not JSON": ("name=Eve", 400, "malformed_json"),
    "an array": ('[{"name": "Eve", "action": "pause"}]', 400, "bad_input"),
    "30,000 levels deep": ("[" * 30000 + "]" * 30000, 400, "json_too_deep"),
    "40 levels deep": ('{"name": "Eve", "sheet": ' + '{"a": ' * 40 + "1" + "}" * 41, 400,
                       "json_too_deep"),
    "NaN": ('{"name": "Eve", "duration_s": NaN}', 400, "malformed_json"),
    "not UTF-8": (b'{"name": "\xff"}', 400, "malformed_json"),
    "a NUL character": ('{"name": "Eve", "sheet": {"note": "\\u0000"}}', 400, "nul_character"),
    "a NUL in a key": ('{"name": "Eve", "sheet": {"n\\u0000te": 1}}', 400, "nul_character"),
    "1e309": ('{"name": "Eve", "duration_s": 1e309}', 400, "number_too_large"),
    "-1e309 in a list": ('{"name": "Eve", "sheet": {"a": [1, -1e309]}}', 400, "number_too_large"),
    "a lone surrogate": ('{"name": "\\ud800"}', 400, "lone_surrogate"),
    "a lone surrogate key": ('{"name": "Eve", "sheet": {"\\udc00": 1}}', 400, "lone_surrogate"),
}

WRITES = [
    (None, "post", "/api/login/"),
    ("narrator", "post", "/api/events/"),
    ("narrator", "post", "/api/events/{event}/characters/"),
    ("narrator", "post", "/api/events/{event}/clock/"),
    ("narrator", "post", "/api/events/{event}/effects/"),
    ("player", "post", "/api/characters/{player}/actions/"),
    ("medic", "post", "/api/characters/{medic}/treatments/"),
    ("player", "post", "/api/push/subscriptions/"),
    ("player", "delete", "/api/push/subscriptions/"),
]


@pytest.fixture
def apis(player, medic, narrator_user):
    return {None: APIClient(), "player": client_for(player.user),
            "medic": client_for(medic.user), "narrator": client_for(narrator_user)}


@pytest.mark.parametrize("role,method,url", WRITES, ids=[f"{m} {u}" for _, m, u in WRITES])
@pytest.mark.parametrize("body,status,error", BAD_BODIES.values(), ids=BAD_BODIES.keys())
def test_a_bad_body_is_refused_and_changes_nothing(body, status, error, role, method, url, clock,
                                                   event, player, medic, apis):
    before = fingerprint()

    response = apis[role].generic(method.upper(),
                                  url.format(event=event.pk, player=player.pk, medic=medic.pk),
                                  body, content_type="application/json",
                                  HTTP_IDEMPOTENCY_KEY="k1")

    assert response.status_code == status, response.content[:300]
    assert response.json()["error"] == error
    assert fingerprint() == before


@pytest.mark.parametrize("lang,body,expected", [
    ("fr", "x" * (65 * 1024), "Le corps de la requête dépasse 64 Kio."),
    ("es", '{"action":\n "pause",}', "El cuerpo de la petición no es JSON válido (línea 2, "
                                     "columna 10)."),
    ("en", "[" * 33 + "]" * 33, "The request body is nested more than 32 levels deep."),
])
def test_the_refusal_names_the_problem_in_the_users_language(lang, body, expected, clock, event,
                                                             narrator_user):
    api = client_for(narrator_user, lang)
    response = api.generic("POST", f"/api/events/{event.pk}/clock/", body,
                           content_type="application/json")
    assert response.json()["detail"] == expected


def test_a_body_at_the_limit_is_still_read(clock, event, narrator_user):
    """64 KiB is refused only above: a real request padded up to the limit still works."""
    body = '{"action": "pause"}'
    body += " " * (64 * 1024 - len(body))
    response = client_for(narrator_user).generic("POST", f"/api/events/{event.pk}/clock/", body,
                                                 content_type="application/json")
    assert response.status_code == 200, response.content


@pytest.mark.parametrize("url,body", [
    ("/api/events/", {"name": "N" * 10_000, "ruleset": "gn_fr"}),
    ("/api/events/{event}/characters/", {"name": "N" * 10_000}),
    ("/api/events/{event}/characters/", {"name": "Eve", "team": "T" * 10_000}),
    ("/api/events/{event}/effects/", {"text": "E" * 10_000, "everyone": True}),
    ("/api/login/", {"token": "t" * 10_000}),
])
def test_very_long_strings_are_refused(url, body, clock, event, narrator_user):
    before = fingerprint()
    response = client_for(narrator_user, "fr").post(url.format(event=event.pk), body,
                                                    format="json")
    assert response.status_code == 400, response.content[:300]
    assert response.json()["error"] == "bad_input"
    assert response.json()["detail"].startswith("Requête invalide")
    assert fingerprint() == before


@pytest.mark.parametrize("key", ["k" * 1000, "key\x00with-a-nul"])
def test_a_bad_idempotency_key_is_refused(key, clock, player, player_api):
    before = fingerprint()
    response = player_api.post(f"/api/characters/{player.pk}/actions/",
                               {"action": "hit_wounding"}, format="json",
                               HTTP_IDEMPOTENCY_KEY=key)
    assert response.status_code == 400
    assert "Idempotency-Key" in response.json()["detail"]
    assert fingerprint() == before


@pytest.mark.parametrize("query", ["after=%C2%B2", "character=99999999999999999999999",
                                   "last=-1", "after=" + "9" * 1000])
def test_bad_journal_queries_are_refused(query, clock, event, narrator_api):
    response = narrator_api.get(f"/api/events/{event.pk}/journal/?{query}")
    assert response.status_code == 400
    assert response.json()["error"] == "bad_input"


@pytest.mark.parametrize("code", ["%00", "A" * 10_000, "%C2%B2"])
def test_a_junk_patient_code_matches_no_one(code, clock, medic, medic_api):
    response = medic_api.get(f"/api/characters/{medic.pk}/patients/{code}/")
    assert response.status_code == 404
    assert response.json()["error"] == "unknown_code"


# --- junk on the live channel --------------------------------------------------------------

async def live(api, character):
    phone = WebsocketCommunicator(application, f"/ws/live/?character={character.pk}", headers=[
        (b"origin", b"http://testserver"), (b"host", b"testserver"),
        (b"cookie", f"sessionid={api.cookies['sessionid'].value}".encode())])
    assert (await phone.connect(timeout=5))[0]
    assert (await phone.receive_json_from(timeout=5))["type"] == "snapshot"
    return phone


async def still_answers(phone) -> None:
    await phone.send_json_to({"type": "ping", "client_time": 12.5})
    pong = await phone.receive_json_from(timeout=5)
    assert (pong["type"], pong["client_time"]) == ("pong", 12.5)


JUNK = {
    "not JSON": {"text_data": "hello"},
    "1 MiB": {"text_data": json.dumps({"type": "ping", "pad": "x" * 2 ** 20})},
    "deeply nested": {"text_data": "[" * 4000 + "]" * 4000},
    "binary": {"bytes_data": b"\x00\xff" * 100},
    "a JSON array": {"text_data": "[1, 2]"},
    "an unknown type": {"text_data": '{"type": "snapshot_message", "snapshot": {}}'},
}


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("junk", JUNK.values(), ids=JUNK.keys())
async def test_junk_messages_are_ignored_and_the_channel_lives_on(junk, clock, player,
                                                                  player_api):
    phone = await live(player_api, player)
    await phone.send_to(**junk)
    await still_answers(phone)
    await phone.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_ping_echoes_only_a_number(clock, player, player_api):
    phone = await live(player_api, player)
    await phone.send_json_to({"type": "ping", "client_time": "x" * 3000})
    pong = await phone.receive_json_from(timeout=5)
    assert pong["type"] == "pong" and pong["client_time"] is None
    await still_answers(phone)
    await phone.disconnect()


async def _one_phone(api, character) -> None:
    phone = await live(api, character)
    await phone.disconnect()


@pytest.mark.django_db(transaction=True)
def test_phones_served_by_many_threads_give_their_database_connections_back(clock, player,
                                                                           player_api):
    """A server runs websocket queries on a pool of worker threads (one event loop each
    here); a thread that kept its PostgreSQL connection would pin one of the pool's 16,
    and the 17th phone would wait for a connection that never comes back."""
    pool = connection.pool
    assert pool is not None, "the tests run on PostgreSQL with a connection pool"
    for phone in range(20):
        asyncio.run(_one_phone(player_api, player))  # a fresh loop: fresh worker threads
        stats = pool.get_stats()
        # Lent and not given back: at most the one this test's own thread holds.
        assert stats["pool_size"] - stats["pool_available"] <= 1, (phone, stats)
