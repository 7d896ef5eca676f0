"""Helpers for the browser tests."""
from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# An init script: this phone has shown its self-check before ("Is this phone ready for the
# game?" opens at a first login, js/phone_check_screen.js), so a test lands on the game.
CHECKED_BEFORE = "try { localStorage.setItem('phone_checked', '1'); } catch (error) {}"


def screenshots_dir() -> Path:
    """Where the pictures of the screens go: a scratch directory, so that a test run leaves
    the checkout as it was; `SCREENSHOTS=docs/screenshots ./test tests/browser` refreshes
    the pictures of the docs (docs/phone-app.md)."""
    chosen = os.environ.get("SCREENSHOTS")
    if not chosen:
        return Path(tempfile.gettempdir()) / "companion-screenshots"
    path = Path(chosen)
    return path if path.is_absolute() else ROOT / path


def screenshot(page, name: str) -> None:
    """Keep a current picture of a screen (phone size)."""
    folder = screenshots_dir()
    folder.mkdir(parents=True, exist_ok=True)
    # The sticky top bar would be painted mid-page in a full-page picture.
    page.screenshot(path=str(folder / f"{name}.png"), full_page=True,
                    style="#topbar { position: static !important; }")


def eventually(page, expression: str, timeout_s: float = 15) -> None:
    """Wait until the page says `expression` is true. Read with `evaluate`: the app's
    Content-Security-Policy forbids the eval that `wait_for_function` polls with."""
    deadline = time.monotonic() + timeout_s
    while not page.evaluate(expression):
        assert time.monotonic() < deadline, f"never true: {expression}"
        page.wait_for_timeout(100)


# A promise the page answers within a bound: `evaluate` itself waits without limit.
SERVICE_WORKER_READY = """() => Promise.race([
  navigator.serviceWorker.ready.then(() => true),
  new Promise((resolve) => setTimeout(() => resolve(false), 15000))])"""


def wait_until_listening(group: str, timeout: float = 15) -> None:
    """Until a page's websocket has joined this channel-layer group: a message published
    before that is not sent to it (narrators-only messages are not in the snapshot the
    heartbeat repairs), so a test must not race the page's connect."""
    import redis
    from django.conf import settings
    client = redis.Redis.from_url(settings.REDIS_URL)
    prefix = settings.CHANNEL_LAYERS["default"]["CONFIG"].get("prefix", "asgi")
    deadline = time.monotonic() + timeout
    while not client.zcard(f"{prefix}:group:{group}"):
        assert time.monotonic() < deadline, f"no websocket joined {group} in {timeout} s"
        time.sleep(0.05)


def off_the_browser_thread(work, *args, timeout: float = 60, **kwargs):
    """Run `work` in a thread of its own and return what it returns (or raise what it
    raised): this thread holds Playwright's event loop, where a service's publishing to
    the phones (async_to_sync) may not run. The thread gives its database connection back:
    the pool is shared by the whole session."""
    import threading

    from django.db import connections
    done = []

    def run():
        try:
            done.append((True, work(*args, **kwargs)))
        except Exception as error:  # noqa: BLE001 - raised again in the caller's thread
            done.append((False, error))
        finally:
            connections.close_all()
    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    # Bounded: a publish stuck on Redis fails this test instead of holding the whole run.
    thread.join(timeout)
    assert done, f"{getattr(work, '__name__', work)} did not finish in {timeout} s"
    (ok, value), = done
    if not ok:
        raise value
    return value


def manor_with_alice(**options):
    """A French murder-mystery game under way (Le Manoir), its narrator, and Alice, one of
    its players: (narrator, event, alice)."""
    from django.contrib.auth import get_user_model

    from players.services import character_create, event_create
    narrator = get_user_model().objects.create_user(username="mj", is_staff=True)
    event = event_create(name="Le Manoir", ruleset="gn_fr", by=narrator, start_clock=True,
                         options=options)
    alice = character_create(event=event, name="Alice", sheet={"combat_base": 2})
    return narrator, event, alice


def log_in_from_the_link(page, server_url: str, *, event, character) -> None:
    """The player opens their login link and taps its button; their screen shows them in
    full health (the French game's first state)."""
    from playwright.sync_api import expect

    from players.services import login_token_issue
    page.goto(f"{server_url}/login/{login_token_issue(event=event, user=character.user)}")
    page.locator("form button").click()           # the login page's button
    expect(page.locator("#state-label")).to_have_text("En pleine forme")
