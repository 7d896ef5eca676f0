"""Browser tests: Debian's Chromium driven by Playwright at a phone's size, against the
real ASGI server (HTTP and websockets) running in its own process on the test database."""
from __future__ import annotations

import os
from pathlib import Path

import pytest
from browser_helpers import CHECKED_BEFORE
from server_process import server_start

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
PHONE = {"width": 390, "height": 844}
TABLET = {"width": 1024, "height": 768}
PAGE_TIMEOUT_MS = 15000


def _is_a_deadlock(error: BaseException | None) -> bool:
    from psycopg.errors import DeadlockDetected
    while error is not None:
        if isinstance(error, DeadlockDetected):
            return True
        error = error.__cause__ or error.__context__
    return False


@pytest.fixture(scope="session", autouse=True)
def flush_tried_again_after_a_deadlock():
    """A test ends by emptying the tables (TRUNCATE), while the server may still finish a
    write for a page just closed (a websocket's goodbye records when the phone was last
    seen). The two can deadlock, and PostgreSQL cancels one: when it is the emptying
    (one transaction, so nothing was emptied), it is done again."""
    from django.core.management.base import CommandError
    from django.test import TransactionTestCase
    emptying = TransactionTestCase._fixture_teardown

    def emptying_tried_again(test_case):
        for attempt in range(3):
            try:
                return emptying(test_case)
            except CommandError as error:
                if attempt == 2 or not _is_a_deadlock(error):
                    raise
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(TransactionTestCase, "_fixture_teardown", emptying_tried_again)
        yield


@pytest.fixture(scope="session")
def server_url(django_db_setup):
    """One server for the whole session; each test's data is committed (transactional
    tests), so the server process sees it."""
    process = server_start()
    yield f"http://127.0.0.1:{process.port.value}"
    process.terminate()
    process.join(timeout=10)


# A name on the site's Wi-Fi as a phone reaches the organiser's laptop (a browser started
# with LAN_RULES resolves it to this machine): plain http there is not a secure context.
LAN_NAME = "orga-laptop.lan"
LAN_RULES = f"--host-resolver-rules=MAP {LAN_NAME} 127.0.0.1"


@pytest.fixture(scope="session")
def lan_server_url(django_db_setup):
    """A server of its own that also answers as LAN_NAME (its host allowed in that
    server only), at http://LAN_NAME:<port>."""
    from django.conf import settings
    allowed = list(settings.ALLOWED_HOSTS)
    settings.ALLOWED_HOSTS = [*allowed, LAN_NAME]
    try:
        process = server_start()
    finally:
        settings.ALLOWED_HOSTS = allowed
    yield f"http://{LAN_NAME}:{process.port.value}"
    process.terminate()
    process.join(timeout=10)


@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).exists():
        # CI installs Chromium and must run these; a laptop without it still runs the rest.
        message = f"the browser tests need Chromium at {CHROMIUM} (apt-get install chromium)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    from playwright.sync_api import expect, sync_playwright
    # An expectation waits as long as a page's actions (page.set_default_timeout below):
    # on a busy machine a screen may take longer than Playwright's 5 s to load.
    expect.set_options(timeout=PAGE_TIMEOUT_MS)
    # Playwright's sync API keeps an event loop in this thread while the tests' own ORM
    # calls stay synchronous. The browser tests run last (tests/conftest.py), so this
    # never relaxes the check for the rest of the suite.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"])
        yield browser
        browser.close()


@pytest.fixture
def phone(browser, server_url):
    """A new phone (or, with `tablet=True`, a 1024x768 tablet): call it with a language
    (and an init script) to get a page.

    The language is the browser's and, unless `chosen=False`, also the user's explicit
    choice (the language menu's cookie), which wins over the game's language; with
    `chosen=False` the phone speaks the language of the game it opens. `browser_locale`
    ("en-US") makes the browser's own locale (Intl's default, Accept-Language) another
    than the chosen language. The phone has already shown its self-check ("Is this phone
    ready for the game?", which opens at a first login) unless `checked=False`."""
    contexts = []

    def open_phone(lang: str = "fr", init_script: str | None = None, chosen: bool = True,
                   tablet: bool = False, browser_locale: str | None = None, checked: bool = True):
        locale = browser_locale or {"fr": "fr-FR", "es": "es-ES", "en": "en-GB"}[lang]
        # Playwright's extra headers override the app's own Accept-Language on every fetch:
        # a phone that follows its game's language has only the browser's locale.
        accept = browser_locale or lang
        context = browser.new_context(viewport=TABLET if tablet else PHONE, device_scale_factor=2, is_mobile=True,
                                      has_touch=True, locale=locale,
                                      extra_http_headers={"Accept-Language": accept} if chosen else None)
        if chosen:
            context.add_cookies([{"name": "django_language", "value": lang, "url": server_url}])
        if checked:
            context.add_init_script(CHECKED_BEFORE)
        if init_script:
            context.add_init_script(init_script)
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(PAGE_TIMEOUT_MS)
        errors = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.errors = errors
        return page

    yield open_phone
    for context in contexts:
        context.close()
