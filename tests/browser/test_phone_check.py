"""A phone that checks itself: "Is this phone ready for the game?" opens at a player's
first login and from the top bar; each line passes or fails and, failing, says what to do
in the game's language; the result reaches the narrators, whose screen counts the phones
not ready and marks each row.

- on the secure address (this machine's own name is a secure context) with everything
  allowed, every line passes;
- over plain http at a name on the site's Wi-Fi (Chromium maps it to this machine with
  --host-resolver-rules), the secure address, offline mode, the camera, notifications,
  the screen and the kept data fail, each saying to open the https address;
- on the secure address, a phone whose clock is an hour fast, whose battery is low, whose
  notifications, camera, screen lock and storage were refused fails those lines (the
  browser's answers replaced by an init script: this machine has no battery or camera);
- the narrators read "Phones that cannot work offline: 1" and the row's mark, live."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from browser_helpers import eventually, screenshot
from conftest import CHROMIUM, LAN_NAME, LAN_RULES, PAGE_TIMEOUT_MS, PHONE
from crowd import crowd_event
from players.models import PHONE_CHECKS, PhoneReadiness

pytestmark = pytest.mark.django_db(transaction=True)

WORDS = {
    "fr": {"title": "Ce téléphone est-il prêt pour le jeu\u00a0?", "ready": "Ce téléphone est prêt pour le jeu.",
           "fix": "Choses à régler avant le jeu\u00a0: ", "https": "Ouvrez l'adresse en https",
           "needs_https": "Il faut d'abord l'adresse sécurisée", "continue": "Aller au jeu",
           "menu": "Vérifier le téléphone", "healthy": "En pleine forme", "ahead": "avance de 60 min",
           "battery": "Chargez complètement le téléphone", "offline_count": "Téléphones qui ne peuvent pas fonctionner hors ligne\u00a0: 1"},
    "es": {"title": "¿Está este teléfono listo para el juego?", "ready": "Este teléfono está listo para el juego.",
           "fix": "Cosas que arreglar antes del juego: ", "https": "Abre la dirección https",
           "needs_https": "Primero hace falta la dirección segura", "continue": "Ir al juego",
           "menu": "Comprobar el teléfono", "healthy": "En plena forma", "ahead": "60 min adelantado",
           "battery": "Carga del todo el teléfono", "offline_count": "Teléfonos que no pueden funcionar sin conexión: 1"},
    "en": {"title": "Is this phone ready for the game?", "ready": "This phone is ready for the game.",
           "fix": "Things to fix before the game: ", "https": "Open the https address",
           "needs_https": "It needs the secure address first", "continue": "Continue to the game",
           "menu": "Phone check", "healthy": "Healthy", "ahead": "60 min ahead",
           "battery": "Charge the phone fully", "offline_count": "Phones that cannot work offline: 1"},
}

# What this machine cannot have (a camera, a battery) or would refuse in a headless
# browser, answered as a phone that has them.
A_GOOD_PHONE = """
(() => {
  const md = navigator.mediaDevices;
  if (md) md.enumerateDevices = async () => [{ kind: "videoinput", deviceId: "back", groupId: "g", label: "" }];
  if (navigator.wakeLock) navigator.wakeLock.request = async () => ({ release: async () => {} });
  if (navigator.storage) navigator.storage.persisted = async () => true;
  navigator.getBattery = async () => ({ level: 0.9, charging: false });
})();
"""

# A phone that cannot: its clock an hour fast, 20 % of battery, notifications refused, no
# camera, the screen lock refused (battery saver), its data not kept.
A_POOR_PHONE = """
(() => {
  const realNow = Date.now.bind(Date);
  const RealDate = Date;
  class FastDate extends RealDate {
    constructor(...args) { if (args.length) super(...args); else super(realNow() + 3600000); }
    static now() { return realNow() + 3600000; }
  }
  window.Date = FastDate;
  Object.defineProperty(Notification, "permission", { get: () => "denied" });
  const md = navigator.mediaDevices;
  if (md) md.enumerateDevices = async () => [{ kind: "audioinput", deviceId: "mic", groupId: "g", label: "" }];
  if (navigator.wakeLock) navigator.wakeLock.request = async () => { throw new DOMException("battery saver", "NotAllowedError"); };
  if (navigator.storage) {
    navigator.storage.persisted = async () => false;
    navigator.storage.persist = async () => false;
  }
  navigator.getBattery = async () => ({ level: 0.2, charging: false });
})();
"""


def log_in(page, link):
    page.goto(link)
    page.locator("form button").click()
    return page


def line(page, key):
    return page.locator(f".check-line[data-check='{key}']")


def expect_lines(page, passing, failing):
    expect(page.locator(".check-lines")).to_be_visible()
    for key in passing:
        assert "check-ok" in line(page, key).get_attribute("class"), line(page, key).inner_text()
    for key in failing:
        expect(line(page, key)).to_have_class("check-line check-failed")
        expect(line(page, key).locator(".check-fix")).not_to_be_empty()


def reported(character, failing):
    eventually_db = PhoneReadiness.objects.filter(pk=character.pk).first()
    return eventually_db is not None and eventually_db.failing == failing


def wait_for_report(page, character, failing):
    for _ in range(150):
        if reported(character, failing):
            return
        page.wait_for_timeout(100)
    kept = PhoneReadiness.objects.filter(pk=character.pk).first()
    raise AssertionError(f"the report never arrived as {failing}: {kept and kept.failing}")


@pytest.mark.parametrize("lang", ["fr", "es", "en"])
def test_a_phone_with_everything_allowed_is_ready_at_its_first_login(server_url, phone, lang):
    crowd = crowd_event(server_url, characters=6, language=lang)
    alice = crowd.characters[1]
    words = WORDS[lang]
    # A phone that has not chosen: the check speaks the game's language.
    page = phone(lang, chosen=False, checked=False, init_script=A_GOOD_PHONE, browser_locale="de-DE")
    page.context.grant_permissions(["notifications", "camera"])
    log_in(page, crowd.link_for(alice, server_url))

    expect(page.locator(".phone-check h1")).to_have_text(words["title"])
    expect_lines(page, PHONE_CHECKS, [])
    expect(page.locator(".check-summary")).to_have_text(words["ready"])
    wait_for_report(page, alice, [])
    screenshot(page, f"phone-check-ready-{lang}")

    page.get_by_role("button", name=words["continue"]).click()
    expect(page.locator("#state-label")).to_have_text(words["healthy"])
    # A reload or the next login goes to the game; the top bar opens the check again.
    page.reload()
    expect(page.locator("#state-label")).to_have_text(words["healthy"])
    page.get_by_role("link", name=words["menu"]).click()
    expect(page.locator(".check-summary")).to_have_text(words["ready"])
    assert page.errors == []


@pytest.mark.parametrize("lang", ["fr", "es", "en"])
def test_a_phone_that_cannot_says_what_to_fix_line_by_line(server_url, phone, lang):
    crowd = crowd_event(server_url, characters=6, language=lang)
    bruno = crowd.characters[2]
    words = WORDS[lang]
    page = phone(lang, chosen=False, checked=False, init_script=A_POOR_PHONE, browser_locale="de-DE")
    log_in(page, crowd.link_for(bruno, server_url))

    failing = ["camera", "notifications", "wake_lock", "clock", "storage", "battery"]
    expect(page.locator(".check-summary")).to_have_text(f"{words['fix']}6.")
    expect_lines(page, ["secure_context", "offline"], failing)
    expect(line(page, "clock")).to_contain_text(words["ahead"])
    expect(line(page, "battery")).to_contain_text(words["battery"])
    wait_for_report(page, bruno, failing)
    kept = PhoneReadiness.objects.get(pk=bruno.pk)
    assert kept.battery_level == 0.2 and -3_610_000 < kept.clock_offset_ms < -3_590_000
    screenshot(page, f"phone-check-poor-{lang}")
    assert page.errors == []


@pytest.fixture(scope="module")
def lan_browser(browser):
    """Chromium again (one Playwright per thread), resolving LAN_NAME to this machine."""
    lan = browser.browser_type.launch(
        executable_path=CHROMIUM,
        args=["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", LAN_RULES])
    yield lan
    lan.close()


@pytest.mark.parametrize("lang", ["fr", "es", "en"])
def test_over_plain_http_at_a_lan_name_the_secure_lines_are_red(lan_server_url, lan_browser, lang):
    crowd = crowd_event(lan_server_url, characters=6, language=lang)
    clara = crowd.characters[3]
    words = WORDS[lang]
    context = lan_browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True,
                                      locale="de-DE")
    try:
        page = context.new_page()
        page.set_default_timeout(PAGE_TIMEOUT_MS)
        log_in(page, crowd.link_for(clara, lan_server_url))
        assert page.evaluate("window.isSecureContext") is False
        assert page.url.startswith(f"http://{LAN_NAME}:")

        insecure = ["secure_context", "offline", "camera", "notifications", "wake_lock", "storage"]
        expect(page.locator(".check-summary")).to_have_text(f"{words['fix']}6.")
        expect_lines(page, ["clock", "battery"], insecure)
        expect(line(page, "secure_context")).to_contain_text(f"http://{LAN_NAME}:")
        expect(line(page, "secure_context").locator(".check-fix")).to_contain_text(words["https"])
        for key in insecure[1:]:
            expect(line(page, key).locator(".check-fix")).to_contain_text(words["needs_https"])
        wait_for_report(page, clara, insecure)
        screenshot(page, f"phone-check-http-{lang}")
    finally:
        context.close()


NARRATOR_WORDS = {
    "fr": {"summary": "1 prêts, 1 pas prêts, 10 jamais vérifiés", "after": "2 prêts, 1 pas prêts, 9 jamais vérifiés",
           "ready": "Tél. ✓", "not_ready": "Tél. ✗", "unchecked": "Tél. –", "why": "pas hors ligne",
           "never": "Personnages dont le téléphone ne s'est jamais vérifié\u00a0: 10"},
    "es": {"summary": "1 listos, 1 no listos, 10 nunca comprobados", "after": "2 listos, 1 no listos, 9 nunca comprobados",
           "ready": "Tel. ✓", "not_ready": "Tel. ✗", "unchecked": "Tel. –", "why": "sin modo sin conexión",
           "never": "Personajes cuyo teléfono nunca se comprobó: 10"},
    "en": {"summary": "1 ready, 1 not ready, 10 never checked", "after": "2 ready, 1 not ready, 9 never checked",
           "ready": "Phone ✓", "not_ready": "Phone ✗", "unchecked": "Phone –", "why": "no offline",
           "never": "Characters whose phone never checked itself: 10"},
}


def _report(character, failing):
    from django.utils import timezone

    from players.readiness_services import phone_readiness_report
    checks = {key: {"ok": key not in failing, "detail": "http" if key in failing else ""} for key in PHONE_CHECKS}
    phone_readiness_report(character=character, checks=checks, checked_at=timezone.now(), now=timezone.now())


@pytest.mark.parametrize("lang", ["fr", "es", "en"])
def test_the_narrators_count_the_phones_not_ready_and_see_a_new_check_live(server_url, phone, lang):
    from browser_helpers import off_the_browser_thread, wait_until_listening
    from live.publish import narrators_group
    crowd = crowd_event(server_url, characters=12, language=lang)
    words, said = NARRATOR_WORDS[lang], WORDS[lang]
    ready, poor, newcomer = crowd.characters[0], crowd.characters[1], crowd.characters[2]
    off_the_browser_thread(_report, ready, [])
    off_the_browser_thread(_report, poor, ["secure_context", "offline", "camera"])

    narrator = log_in(phone(lang), crowd.narrator_link)
    panel = narrator.locator(".phones-panel")
    expect(panel.locator("summary")).to_contain_text(words["summary"])
    panel.locator("summary").click()
    expect(panel.locator("li[data-check='offline']")).to_have_text(said["offline_count"])
    expect(panel.locator("li[data-check='never']")).to_have_text(words["never"])
    rows = narrator.locator(".char-row")
    expect(rows.filter(has_text=poor.name).locator(".phone-mark")).to_have_text(words["not_ready"])
    expect(rows.filter(has_text=poor.name)).to_contain_text(words["why"])
    expect(rows.filter(has_text=ready.name).locator(".phone-mark")).to_have_text(words["ready"])
    expect(rows.filter(has_text=newcomer.name).locator(".phone-mark")).to_have_text(words["unchecked"])
    screenshot(narrator, f"narrator-phones-{lang}")

    # The newcomer logs in on a good phone: its check reaches the narrators' screen at once.
    wait_until_listening(narrators_group(crowd.event.pk))
    player = phone(lang, checked=False, init_script=A_GOOD_PHONE)
    player.context.grant_permissions(["notifications", "camera"])
    log_in(player, crowd.link_for(newcomer, server_url))
    expect(player.locator(".check-summary")).to_have_text(said["ready"])
    expect(rows.filter(has_text=newcomer.name).locator(".phone-mark")).to_have_text(words["ready"])
    expect(panel.locator("summary")).to_contain_text(words["after"])
    assert narrator.errors == [] and player.errors == []
