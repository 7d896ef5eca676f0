"""WebKit, the engine of every iPhone browser, driven through Debian's WebKitGTK
(`WebKitWebDriver` and its MiniBrowser, package webkit2gtk-driver) with Selenium, on a
virtual screen (Xvfb): Playwright's own WebKit cannot be downloaded here.

`webkit_phone(lang)` opens a phone-sized window with the app's language chosen and its
self-check already shown (as tests/browser/conftest.py `phone` does for Chromium)."""
from __future__ import annotations

import os
import shutil
import socket
import subprocess
import threading
import time
from pathlib import Path

import pytest

DRIVER = "/usr/bin/WebKitWebDriver"
MINIBROWSER = "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser"
# As conftest.py; MiniBrowser's narrowest window is 447 px (its toolbar): the 390 px
# layout itself is checked in Chromium (test_reflow_and_targets.py).
PHONE, TABLET = (390, 844), (1024, 768)
WAIT_S = 15                                  # as conftest.py's PAGE_TIMEOUT_MS


def _missing() -> str | None:
    for path in (DRIVER, MINIBROWSER):
        if not Path(path).exists():
            return f"the WebKit tests need {path} (apt-get install webkit2gtk-driver xvfb)"
    if not shutil.which("Xvfb"):
        return "the WebKit tests need Xvfb (apt-get install xvfb)"
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "the WebKit tests need Selenium (requirements.txt)"
    return None


@pytest.fixture(scope="session")
def virtual_screen():
    """An X display for the WebKit windows, large enough for a tablet."""
    missing = _missing()
    if missing:
        # CI installs WebKit and must run these; a laptop without it still runs the rest.
        if os.environ.get("CI"):
            pytest.fail(missing)
        pytest.skip(missing)
    read, write = os.pipe()
    server = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", "1280x1024x24",
                               "-nolisten", "tcp"], pass_fds=(write,), stderr=subprocess.DEVNULL)
    os.close(write)
    with os.fdopen(read) as told:
        display = f":{told.readline().strip()}"
    yield display
    server.terminate()
    server.wait(timeout=10)


@pytest.fixture
def webkit_phone(virtual_screen, server_url):
    from selenium import webdriver
    from selenium.webdriver.webkitgtk.options import Options
    from selenium.webdriver.webkitgtk.service import Service
    drivers = []

    def open_phone(lang: str = "fr", tablet: bool = False, origin: str | None = None):
        options = Options()
        options.binary_location = MINIBROWSER
        options.add_argument("--automation")
        service = Service(executable_path=DRIVER, env={**os.environ, "DISPLAY": virtual_screen})
        driver = webdriver.WebKitGTK(options=options, service=service)
        drivers.append(driver)
        driver.set_window_size(*(TABLET if tablet else PHONE))
        driver.set_script_timeout(WAIT_S)
        driver.get(f"{origin or server_url}/healthz")  # the app's origin, for its cookie and storage
        driver.add_cookie({"name": "django_language", "value": lang, "path": "/"})
        driver.execute_script("localStorage.setItem('phone_checked', '1')")
        return driver

    yield open_phone
    for driver in drivers:
        driver.quit()


def wait_for(driver, condition, what: str, timeout_s: float = WAIT_S):
    """What `condition(driver)` returns once it is truthy; fails naming `what`."""
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            found = condition(driver)
        except Exception:  # noqa: BLE001 - an element not there yet, or replaced under us
            found = None
        if found:
            return found
        assert time.monotonic() < deadline, f"never seen in WebKit: {what}"
        time.sleep(0.1)


def text_of(driver, selector: str) -> str:
    return driver.execute_script(
        "const el = document.querySelector(arguments[0]); return el ? el.textContent.trim() : null;",
        selector)


def tap(driver, selector: str, text: str | None = None, *, prefix: bool = False, within=None) -> None:
    """Click the first visible element of `selector` (whose text is `text`, or starts with
    it), found again if the screen drew it anew under the click: WebDriver does not wait
    for a stable element as Playwright does. `within(driver)` finds the element to search."""
    def matches(element) -> bool:
        words = element.text.strip()
        return text is None or (words.startswith(text) if prefix else words == text)

    def click(d):
        for element in (within(d) if within else d).find_elements("css selector", selector):
            if element.is_displayed() and matches(element):
                element.click()
                return True
        return None
    wait_for(driver, click, f"{selector} {text or ''}".strip())


def tap_until(driver, selector: str, text: str | None = None, *, shows, what: str,
              tries: int = 3, **where) -> None:
    """Tap until the screen `shows(driver)`: a tap on an element the screen had just drawn
    anew (a live message redrew it) reaches nothing in WebKit, so the player taps again.
    The last tap is given the whole wait: a slow answer is not a lost tap."""
    for attempt in range(tries):
        tap(driver, selector, text, **where)
        try:
            wait_for(driver, shows, what, timeout_s=WAIT_S if attempt == tries - 1 else 2)
            return
        except AssertionError:
            if attempt == tries - 1:
                raise


def type_into(driver, selector: str, words: str) -> None:
    """Type `words` into the field, again if the screen drew it anew meanwhile."""
    def typed(d):
        field = d.find_element("css selector", selector)
        field.clear()
        field.send_keys(words)
        return d.find_element("css selector", selector).get_attribute("value") == words
    wait_for(driver, typed, f"{words!r} typed into {selector}")


class CuttableLink:
    """A TCP relay in front of the test server, for a network that goes away: WebDriver
    cannot put a page offline as Playwright does, so the phone reaches the app through
    this relay (`url`), and `cut()` drops every open connection (its live socket too) and
    refuses new ones, as a field's Wi-Fi that lost the laptop; `restore()` lets them in."""

    def __init__(self, server_url: str):
        self.target = ("127.0.0.1", int(server_url.rsplit(":", 1)[1]))
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.listener.getsockname()[1]}"
        self.is_cut = False
        self.open: set = set()
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                phone, _ = self.listener.accept()
            except OSError:
                return                      # closed
            if self.is_cut:
                phone.close()
                continue
            server = socket.create_connection(self.target)
            with self.lock:
                self.open.update((phone, server))
            for source, sink in ((phone, server), (server, phone)):
                threading.Thread(target=self._pipe, args=(source, sink), daemon=True).start()

    def _pipe(self, source, sink) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for end in (source, sink):
                self._close(end)

    def _close(self, end) -> None:
        with self.lock:
            self.open.discard(end)
        try:
            end.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        end.close()

    def cut(self) -> None:
        self.is_cut = True
        with self.lock:
            ends = list(self.open)
        for end in ends:
            self._close(end)

    def restore(self) -> None:
        self.is_cut = False

    def close(self) -> None:
        self.cut()
        self.listener.close()
