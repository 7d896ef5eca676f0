"""A site with no internet, as docs/field-network.md runs it: `./run --https` on a LAN
name, the phone trusting the event's authority (installed from the plain-http page), and
the app a secure context: service worker, offline reload, camera API. Over plain http at
a LAN name, none of it.

The phone is Chromium resolving game.lan to this machine (--host-resolver-rules: nothing
leaves it) and trusting the authority through its NSS database ($HOME/.pki/nssdb, as a
Linux desktop does), never by ignoring certificate errors."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import urllib.error
import urllib.request

import pytest
from playwright.sync_api import expect

from browser_helpers import CHECKED_BEFORE, SERVICE_WORKER_READY, eventually, screenshot
from run_helpers import dev_run, free_port  # noqa: F401 (dev_run: a fixture)

pytestmark = pytest.mark.django_db(transaction=True)
# Each test starts a whole ./run (migrations, demo events, server, worker, beat) before
# the browser: more than the 120 s a browser test gets (tests/conftest.py) on a busy machine.
STARTS_RUN = pytest.mark.timeout(300, method="thread")
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")    # as tests/browser/conftest.py
PHONE = {"width": 390, "height": 844}
PAGE_TIMEOUT_MS = 15000


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def _trust_in_nss(home, ca_pem: bytes) -> None:
    """What a person does on a Linux desktop to trust an authority (Chromium reads it)."""
    certutil = shutil.which("certutil")
    if certutil is None:
        message = "this test needs certutil (apt-get install libnss3-tools)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    nssdb = home / ".pki" / "nssdb"
    nssdb.mkdir(parents=True)
    (home / "ca.pem").write_bytes(ca_pem)
    subprocess.run([certutil, "-d", f"sql:{nssdb}", "-N", "--empty-password"], check=True)
    subprocess.run([certutil, "-d", f"sql:{nssdb}", "-A", "-t", "C,,", "-n", "event authority",
                    "-i", str(home / "ca.pem")], check=True)


@pytest.fixture
def lan_phone(browser, tmp_path):
    """A phone on the site's Wi-Fi: game.lan is this machine; `trust` is the authority it
    installed (or None)."""
    launched = []

    def open_phone(trust: bytes | None = None):
        home = tmp_path / f"home-{len(launched)}"
        home.mkdir()
        if trust:
            _trust_in_nss(home, trust)
        lan = browser.browser_type.launch(
            executable_path=CHROMIUM, env={**os.environ, "HOME": str(home)},
            args=["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--host-resolver-rules=MAP game.lan 127.0.0.1"])
        launched.append(lan)
        context = lan.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True,
                                  locale="fr-FR", extra_http_headers={"Accept-Language": "fr"})
        context.add_init_script(CHECKED_BEFORE)  # the self-check's own tests are elsewhere
        page = context.new_page()
        page.set_default_timeout(PAGE_TIMEOUT_MS)
        page.errors = []
        page.on("pageerror", lambda error: page.errors.append(str(error)))
        return page
    yield open_phone
    for lan in launched:
        lan.close()


def _log_in(page, link: str) -> None:
    page.goto(link)
    page.locator("form button").click()  # the login page's button
    expect(page.locator("#state-label")).to_be_visible()


@STARTS_RUN
def test_https_on_a_lan_name_gives_the_phone_a_secure_context_offline_and_the_camera(dev_run, lan_phone):
    https_port, http_port = free_port(), free_port()
    run = dev_run("--https", PUBLIC_URL=f"https://game.lan:{https_port}", PORT=str(http_port))
    links = run.links()
    assert run.first_link_connected is True, run.output
    certificate_page = f"http://game.lan:{http_port}/field/ca/"
    assert f"Each phone installs the event's certificate first, once: {certificate_page}" in run.output

    # The authority, as the plain-http page serves it to phones (this machine, Host game.lan).
    download = urllib.request.Request(f"http://127.0.0.1:{http_port}/field/ca.pem",
                                      headers={"Host": f"game.lan:{http_port}"})
    with urllib.request.urlopen(download, timeout=30) as answer:
        authority = answer.read()
    # Anything else asked on plain http goes to the https address, not to this port.
    plain_home = urllib.request.Request(f"http://127.0.0.1:{http_port}/", headers={"Host": f"game.lan:{http_port}"})
    with pytest.raises(urllib.error.HTTPError) as redirected:
        urllib.request.build_opener(_NoRedirect).open(plain_home, timeout=30)
    assert (redirected.value.code, redirected.value.headers["Location"]) == (301, f"https://game.lan:{https_port}/")
    page = lan_phone(trust=authority)
    page.goto(certificate_page)
    expect(page.locator("h1")).to_have_text("Installer le certificat de l'événement")
    screenshot(page, "field-certificate-page-fr")

    alice = links["Alice Martin"]
    assert alice.startswith(f"https://game.lan:{https_port}/login/")
    _log_in(page, alice)
    assert page.evaluate("window.isSecureContext") is True
    assert page.evaluate("typeof navigator.mediaDevices?.getUserMedia") == "function"
    # The certificate page still opens for the next phone to scan (no HSTS on the name).
    shown = page.context.new_page()
    shown.goto(certificate_page)
    expect(shown.locator("h1")).to_have_text("Installer le certificat de l'événement")
    shown.close()
    assert page.evaluate(SERVICE_WORKER_READY), "the service worker did not install"
    page.reload()                                   # now controlled by the service worker
    eventually(page, "navigator.serviceWorker.controller !== null")

    page.get_by_role("button", name="Touché par une arme blessante").click()
    page.locator("button.armed").click()
    expect(page.locator("#state-label")).to_have_text("Blessé")
    page.context.set_offline(True)
    page.reload()
    expect(page.locator("#state-label")).to_have_text("Blessé")
    expect(page.locator("#topbar")).to_contain_text("Hors ligne")
    countdown = page.locator("#next-countdown")
    expect(countdown).to_have_text(re.compile(r"^1[45]:\d\d$"))
    first = countdown.text_content()
    expect(countdown).not_to_have_text(first, timeout=5000)     # it keeps counting offline
    assert page.errors == []


@STARTS_RUN
def test_plain_http_on_a_lan_name_is_not_a_secure_context(dev_run, lan_phone):
    port = free_port()
    run = dev_run(PUBLIC_URL=f"http://game.lan:{port}")
    links = run.links()
    page = lan_phone()
    _log_in(page, links["Alice Martin"])
    assert page.evaluate("window.isSecureContext") is False
    assert page.evaluate("'serviceWorker' in navigator") is False
    assert page.evaluate("navigator.mediaDevices === undefined") is True
