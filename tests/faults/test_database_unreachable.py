"""PostgreSQL unreachable (stopped, restarting, its network down): a server pointed at a port
where nothing listens answers every API route with JSON 503 `database_unavailable` and
Retry-After, which the phone's outbox understands (it keeps the write and sends it again),
never Django's HTML error page."""
from __future__ import annotations

import json
import urllib.error
import urllib.request

import pytest
from stack import free_port

pytestmark = pytest.mark.django_db(transaction=True)
SESSION = "sessionid=" + "a" * 32     # any session: reading it needs the database


def _call(server, method, path, body=None, lang="fr"):
    request = urllib.request.Request(
        server.url + path, method=method, data=None if body is None else json.dumps(body).encode(),
        headers={"Content-Type": "application/json", "Accept": "application/json",
                 "Accept-Language": lang, "Cookie": SESSION, "Idempotency-Key": "k-1"})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


def test_every_api_route_answers_json_503_with_retry_after_when_the_database_is_unreachable(stack):
    stack.env["DATABASE_URL"] = f"postgres://postgres@127.0.0.1:{free_port()}/companion"   # closed
    stack.env["DB_POOL_TIMEOUT_S"] = "2"     # each request waits this long for a connection
    server = stack.start_server()
    routes = [("GET", "/api/me/", None), ("POST", "/api/login/", {"token": "a-link"}),
              ("POST", "/api/events/1/emergency/", {"reason": "chute"}),
              ("GET", "/api/events/1/journal/?after=0", None),
              ("POST", "/api/characters/1/actions/", {"action": "hit"})]
    for method, path, body in routes:
        status, headers, raw = _call(server, method, path, body)
        assert status == 503, (path, status, raw[:300])
        assert headers.get("Content-Type", "").startswith("application/json"), (path, headers)
        answer = json.loads(raw)
        assert answer["error"] == "database_unavailable", path
        assert "base de données" in answer["detail"]
        assert int(headers["Retry-After"]) > 0
    assert server.process.alive
    log = server.process.output()
    assert "AttributeError" not in log, log[-3000:]      # the session store's, once per request
