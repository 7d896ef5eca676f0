"""A call for help live: the organisers' open screens get it at once, the caller's phone
sees it received and then who is coming, another player's phone gets nothing. On a
locked phone it is a Web Push that says who and what kind of help, nothing of the game."""
from __future__ import annotations

import json
import os
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
import pytest
from asgiref.sync import sync_to_async
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from fixtures import act, client_for, connect, next_snapshot
from push import keys
from safety.alerts import help_push


async def safety_message(phone) -> dict:
    """The next safety message, past any snapshot the call's journal or others sent."""
    while True:
        message = await phone.receive_json_from(timeout=5)
        if message["type"] == "safety":
            return message


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_organisers_see_the_call_live_and_the_caller_sees_who_is_coming(
        clock, event, player, other_player, player_api, narrator_api):
    narrators, connected, _ = await connect(narrator_api, f"event={event.pk}")
    assert connected
    assert (await narrators.receive_json_from(timeout=5))["type"] == "event_snapshot"
    caller, connected, _ = await connect(player_api, f"character={player.pk}")
    assert connected
    await next_snapshot(caller)
    other_api = await sync_to_async(client_for)(other_player.user)
    other, connected, _ = await connect(other_api, f"character={other_player.pk}")
    assert connected
    await next_snapshot(other)

    answer = await sync_to_async(player_api.post)(
        f"/api/events/{event.pk}/help/", {"kind": "lost", "note": "by the big oak",
                                          "position": {"latitude": 45.1, "longitude": 4.2}},
        format="json")
    assert answer.status_code == 201
    told = (await safety_message(narrators))["call"]
    assert (told["kind"], told["note"], told["character"]["name"]) == ("lost", "by the big oak", "Alice")
    assert told["position"]["latitude"] == 45.1
    received = (await safety_message(caller))["own_call"]
    assert (received["status"], received["taken_by"]) == ("open", None)
    assert "position" not in received and "note" not in received

    await sync_to_async(narrator_api.post)(f"/api/help/{told['id']}/take/")
    assert (await safety_message(narrators))["call"]["taken_by"] == "narrator"
    coming = (await safety_message(caller))["own_call"]
    assert (coming["status"], coming["taken_by"]) == ("taken", "narrator")

    # Another player's phone heard nothing of it, and the game goes on for everyone.
    assert await other.receive_nothing(timeout=0.5)
    await sync_to_async(act)(narrator_api, other_player, "hit_wounding")
    assert (await next_snapshot(other))["clock"]["running"] is True
    for phone in (narrators, caller, other):
        await phone.disconnect()


class PushService:
    """Plays a browser vendor's push service: records each POST's body."""

    def __init__(self):
        self.bodies = []
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                service.bodies.append((self.path, self.rfile.read(int(self.headers["Content-Length"]))))
                self.send_response(201)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def url(self, path):
        return f"http://127.0.0.1:{self.server.server_port}{path}"


class Browser:
    def __init__(self):
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)
        point = self.key.public_key().public_bytes(serialization.Encoding.X962,
                                                   serialization.PublicFormat.UncompressedPoint)
        self.p256dh = keys.b64url(point)

    def subscribe(self, user, endpoint):
        response = client_for(user).post("/api/push/subscriptions/", {
            "endpoint": endpoint, "keys": {"p256dh": self.p256dh, "auth": keys.b64url(self.auth)}},
            format="json")
        assert response.status_code == 201, response.content

    def read(self, body: bytes) -> dict:
        return json.loads(http_ece.decrypt(body, private_key=self.key, auth_secret=self.auth,
                                           version="aes128gcm"))


@pytest.fixture
def push_service(settings, tmp_path, monkeypatch):
    settings.VAR_DIR = tmp_path
    settings.PUSH_ALLOW_HTTP_ENDPOINTS = True
    for name in ("VAPID_PRIVATE_KEY", "VAPID_PUBLIC_KEY", "VAPID_SUBJECT"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    service = PushService()
    yield service
    service.server.shutdown()
    service.server.server_close()


def test_the_push_of_a_call_names_who_and_what_and_nothing_of_the_game(
        clock, event, player, player_api, narrator_user, narrator_api, push_service):
    organiser_phone, caller_phone = Browser(), Browser()
    organiser_phone.subscribe(narrator_user, push_service.url("/organiser"))
    caller_phone.subscribe(player.user, push_service.url("/caller"))
    assert act(narrator_api, player, "hit_wounding").status_code == 200   # a game state to keep secret
    push_service.bodies.clear()                 # the player's own state notification
    call_id = player_api.post(f"/api/events/{event.pk}/help/",
                              {"kind": "injured", "note": "bleeding knee",
                               "position": {"latitude": 45.1, "longitude": 4.2}},
                              format="json").json()["id"]

    assert help_push(call_id=call_id) == 1
    (path, body), = push_service.bodies
    assert path == "/organiser"                 # the organisers only, not the caller
    shown = organiser_phone.read(body)
    assert set(shown) == {"title", "body", "tag", "url", "kind", "urgent"}
    assert shown["kind"] == "help_call"
    assert shown["title"] == "Aide demandée (réel)"             # the event's language
    assert shown["body"] == "Alice : blessé(e). Ouvrez le tableau de sécurité."
    assert shown["url"] == f"/#/safety/{event.pk}" and shown["urgent"] is True
    everything = json.dumps(shown, ensure_ascii=False).lower()
    for secret in ("bless\u00e9", "wounded", "coma", "bleeding", "45.1", "timer", "game"):
        if secret == "bless\u00e9":
            # the kind of help may say "blessé(e)" (real); never the game's "Blessé" state label
            assert "blessé(e)" in everything and everything.count("bless") == 1
            continue
        assert secret not in everything
