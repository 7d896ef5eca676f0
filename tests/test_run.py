"""`./run` on a site's network, as the README says: PUBLIC_URL alone makes the printed
links work from the phones, and they are printed only once the server answers them."""
from __future__ import annotations

import http.cookiejar
import json
import os
import re
import subprocess
import sys
import urllib.request

import pytest

from run_helpers import ROOT, dev_run, free_port  # noqa: F401 (dev_run: a fixture)

pytestmark = pytest.mark.django_db(transaction=True)


def test_public_url_alone_makes_the_printed_links_work_once_printed(dev_run):
    """A LAN-style address (127.0.0.2: loopback, so nothing leaves this machine) that is
    neither localhost nor in ALLOWED_HOSTS' defaults."""
    port = free_port()
    public = f"http://127.0.0.2:{port}"
    run = dev_run(PUBLIC_URL=public)
    links = run.links()
    # The port answered at the very moment the first link was printed.
    assert run.first_link_connected is True, run.output
    assert f"Listening on 0.0.0.0:{port} (every address of this machine)" in run.output
    assert "Phones on plain http get no offline app" in run.output

    alice = links["Alice Martin"]
    assert alice.startswith(f"{public}/login/")
    phone = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
    with phone.open(alice, timeout=30) as page:     # Host: 127.0.0.2:<port>, as a phone sends it
        assert page.status == 200
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.read().decode())[1]
    # The login form's POST, from the page's own origin, as the browser sends it.
    login = urllib.request.Request(alice, data=f"csrfmiddlewaretoken={token}".encode(),
                                   headers={"Origin": public, "Referer": alice})
    with phone.open(login, timeout=30) as home:
        assert (home.status, home.url) == (200, f"{public}/")
    me = urllib.request.Request(f"{public}/api/me/", headers={"Accept": "application/json"})
    with phone.open(me, timeout=30) as answer:
        character = json.loads(answer.read())["characters"][0]
    assert character["name"] == "Alice Martin"

    # The live channel, from the page's origin (PUBLIC_URL), with the phone's session.
    from websockets.sync.client import connect
    session = _session_of(phone)
    with connect(f"ws://127.0.0.2:{port}/ws/live/?character={character['id']}", open_timeout=30,
                 additional_headers={"Cookie": f"sessionid={session}", "Origin": public}) as live:
        assert json.loads(live.recv(timeout=30))["type"] == "snapshot"


def _session_of(opener) -> str:
    jar = next(handler.cookiejar for handler in opener.handlers
               if isinstance(handler, urllib.request.HTTPCookieProcessor))
    return next(cookie.value for cookie in jar if cookie.name == "sessionid")


def _settings_for(public_url: str) -> dict:
    """What a fresh server process reads from this environment."""
    code = ("import json, django; django.setup(); from django.conf import settings as s; "
            "print(json.dumps({'hosts': s.ALLOWED_HOSTS, 'origins': s.CSRF_TRUSTED_ORIGINS, "
            "'ssl_host': getattr(s, 'SECURE_SSL_HOST', None)}))")
    env = {key: value for key, value in os.environ.items() if key not in ("ALLOWED_HOSTS", "CSRF_TRUSTED_ORIGINS")}
    env.update(PUBLIC_URL=public_url, SECRET_KEY="a-key-of-this-test", DJANGO_SETTINGS_MODULE="config.settings")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                         check=True)
    return json.loads(out.stdout)


@pytest.mark.parametrize("public_url, host, origin", [
    ("http://192.168.1.10:8000", "192.168.1.10", "http://192.168.1.10:8000"),
    ("https://game.lan:8443/", "game.lan", "https://game.lan:8443"),
    ("https://[fd00::2]:8443", "[fd00::2]", "https://[fd00::2]:8443"),
])
def test_public_url_is_an_allowed_host_and_a_trusted_origin(public_url, host, origin):
    read = _settings_for(public_url)
    assert host in read["hosts"] and origin in read["origins"]
    assert "localhost" in read["hosts"]     # the defaults stay
    # https redirects go to the address the phones open, not to another port of the host.
    assert read["ssl_host"] == (origin.split("://")[1] if origin.startswith("https") else None)


def test_run_says_when_public_url_is_not_an_address_of_this_machine():
    """Binding to the address says whether it is ours; nothing is sent anywhere."""
    from devtools.network import address_warning, plan
    elsewhere = plan({"PUBLIC_URL": "http://203.0.113.9:8000"}, https=False)
    assert "203.0.113.9 (PUBLIC_URL) is not an address of this machine" in address_warning(elsewhere)
    assert address_warning(plan({"PUBLIC_URL": "http://127.0.0.2:8000"}, https=False)) is None
    assert address_warning(plan({"PUBLIC_URL": "http://game.lan:8000"}, https=False)) is None


@pytest.mark.parametrize("env, refusal", [
    ({"PUBLIC_URL": "http://192.168.1.10:8000"}, "./run --https needs PUBLIC_URL=https://"),
    ({}, "./run --https needs PUBLIC_URL=https://"),
    ({"PUBLIC_URL": "https://192.168.1.10:8000"}, "PORT (8000) serves plain http beside https"),
])
def test_run_https_refuses_what_cannot_work_and_says_why(env, refusal):
    from devtools.network import NetworkError, plan
    with pytest.raises(NetworkError, match=re.escape(refusal)):
        plan(env, https=True)


def test_run_listens_on_public_urls_port_unless_told():
    from devtools.network import plan
    assert [l.port for l in plan({"PUBLIC_URL": "http://192.168.1.10:8100"}, https=False).listeners] == [8100]
    assert [l.port for l in plan({"PUBLIC_URL": "http://192.168.1.10:8100", "PORT": "9000"},
                                 https=False).listeners] == [9000]
    behind_caddy = plan({"PUBLIC_URL": "https://game.lan"}, https=False)
    assert ([l.port for l in behind_caddy.listeners], behind_caddy.behind_proxy) == ([8000], True)
    own = plan({"PUBLIC_URL": "https://game.lan:8443"}, https=True)
    assert [(l.port, l.tls) for l in own.listeners] == [(8443, True), (8000, False)]


def test_run_says_the_default_address_is_for_this_machine_only():
    from devtools.network import describe, plan
    assert "opens on this machine only: for phones, set PUBLIC_URL" in describe(plan({}, https=False))
    lan = describe(plan({"PUBLIC_URL": "http://192.168.1.10:8000"}, https=False))
    assert "Phones open http://192.168.1.10:8000" in lan and "this machine only" not in lan


def _workers(run) -> dict[str, int]:
    """The Celery workers ./run started itself (its children, not their pool processes),
    by the name given with -n."""
    import glob
    found = {}
    for stat in glob.glob("/proc/[0-9]*/stat"):
        try:
            parent = int(open(stat).read().rsplit(")", 1)[1].split()[1])
            # Its arguments, or the title Celery gives itself once started.
            name = re.search(r"\b(worker\d+)@", open(stat[:-4] + "cmdline").read())
        except (OSError, IndexError, ValueError):
            continue
        if parent == run.process.pid and name:
            found[name[1]] = int(stat.split("/")[2])
    return found


def test_run_starts_two_workers_and_one_killed_is_started_again(dev_run):
    """A worker killed outright takes its prefetched tasks with it: the other one goes on
    (the sweeper applies what was lost) while ./run starts the killed one again."""
    import signal
    import time
    run = dev_run()
    run.wait_started()
    assert "2 workers, beat" in run.output
    workers = _workers(run)
    assert set(workers) == {"worker1", "worker2"}, (workers, run.output)
    os.kill(workers["worker1"], signal.SIGKILL)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        now = _workers(run)
        if now.get("worker1") not in (None, workers["worker1"]):
            break
        time.sleep(0.2)
    assert now.get("worker1") not in (None, workers["worker1"]), run.output
    assert now.get("worker2") == workers["worker2"], (now, workers, run.output)
    assert "worker-1 stopped (exit -9); starting it again." in run.output
