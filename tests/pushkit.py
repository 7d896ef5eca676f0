"""A push service and a browser's keys, for the tests that follow a Web Push to the phone
(tests/push, tests/safety)."""
from __future__ import annotations

import base64
import json
import os
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import SimpleNamespace

import http_ece
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid import jwt as vapid_jwt

from fixtures import client_for
from health.services import character_act
from push import keys


class PushService:
    """Plays a browser vendor's push service: records each POST, answers `status` with
    `answer` as the body."""

    def __init__(self):
        self.received, self.status, self.answer = [], 201, b""
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                headers = {k.lower(): v for k, v in self.headers.items()}
                service.received.append(SimpleNamespace(path=self.path, headers=headers,
                                                        body=body))
                self.send_response(service.status)
                self.send_header("Content-Length", str(len(service.answer)))
                self.end_headers()
                self.wfile.write(service.answer)

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.server.server_port}{path}"

    def at(self, path: str) -> list:
        return [r for r in self.received if r.path == path]

    def close(self):
        self.server.shutdown()
        self.server.server_close()


class Browser:
    """What a browser keeps for one push subscription: an ECDH key pair and a secret."""

    def __init__(self):
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)
        point = self.key.public_key().public_bytes(serialization.Encoding.X962,
                                                   serialization.PublicFormat.UncompressedPoint)
        self.p256dh = keys.b64url(point)

    def subscription(self, endpoint: str) -> dict:
        return {"endpoint": endpoint, "expirationTime": None,
                "keys": {"p256dh": self.p256dh, "auth": keys.b64url(self.auth)}}

    def subscribe(self, user, endpoint: str):
        response = client_for(user).post("/api/push/subscriptions/", self.subscription(endpoint),
                                         format="json")
        assert response.status_code == 201, response.content
        return response

    def read(self, request) -> dict:
        return json.loads(http_ece.decrypt(request.body, private_key=self.key,
                                           auth_secret=self.auth, version="aes128gcm"))


def queued(broker, task: str, character_id: int) -> list[SimpleNamespace]:
    """The tasks waiting in the broker, with the arguments they will run with."""
    found = []
    for raw in broker.lrange("celery", 0, -1):
        message = json.loads(raw)
        if message["headers"]["task"] != f"push.tasks.{task}":
            continue
        args = json.loads(base64.b64decode(message["body"]))[0]
        if args[0] == character_id:
            found.append(SimpleNamespace(args=args, eta=message["headers"]["eta"]))
    return found


def wound(character):
    character_act(character=character, action="hit_wounding", params={}, by=character.user,
                  as_narrator=False)


def vapid_claims(request) -> dict:
    """The JWT of the `vapid t=...,k=...` header, its ES256 signature checked with k."""
    scheme, _, params = request.headers["authorization"].partition(" ")
    assert scheme == "vapid"
    parts = dict(p.strip().split("=", 1) for p in params.split(","))
    assert parts["k"] == keys.public_key()
    return vapid_jwt.decode(parts["t"], parts["k"])


def push_settings(settings, tmp_path, monkeypatch) -> None:
    """A key of the test's own, plain http to the local push service, no proxy."""
    settings.VAR_DIR = tmp_path
    settings.PUSH_ALLOW_HTTP_ENDPOINTS = True
    for name in ("VAPID_PRIVATE_KEY", "VAPID_PUBLIC_KEY", "VAPID_SUBJECT"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
