"""Scanning on every phone: a phone without BarcodeDetector (an iPhone's browser) reads a
balise's QR with the camera through the ZXing shipped in the app (js/scanner.js, its
worker js/scan_worker.js) and punches it; a medic's phone or tablet finds a patient among
the 300 of a real event by their QR; a phone that cannot scan types the code printed under
the QR; the number printed on the maps is refused with what to type instead.

The camera is Chromium's fake one, playing a picture of the QR code written by the test
(a one-frame Y4M video: the QR drawn with the `qrcode` package, no imaging library)."""
from __future__ import annotations

import os
import re

import pytest
from playwright.sync_api import expect

from browser_helpers import CHECKED_BEFORE, screenshot
from crowd import crowd_event
from club.models import Member, Sanction
from club.services.chrony import replica_register
from race.balise_codes import typed_code
from race.models import Checkpoint
from race.services.running import entry_start
from test_airsoft_phones import terrier
from test_race_phones import in_thread, open_in_french, rugles_by_night

pytestmark = pytest.mark.django_db(transaction=True)

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")    # as tests/browser/conftest.py
NO_BARCODE_DETECTOR = "delete window.BarcodeDetector;"
NO_CAMERA = "Object.defineProperty(Navigator.prototype, 'mediaDevices', { get: () => undefined });"
WIDTH, HEIGHT = 640, 480
PHONE, TABLET = {"width": 390, "height": 844}, {"width": 1024, "height": 768}   # as conftest.py


def write_camera_picture(path, text: str) -> None:
    """`path` becomes a Y4M video of one frame: the QR code of `text`, black on white in
    the middle of a grey 640x480 picture, as a phone held over a balise sees it."""
    import qrcode
    code = qrcode.QRCode(border=4)
    code.add_data(text)
    code.make(fit=True)
    modules = code.get_matrix()
    size = len(modules)
    scale = min(WIDTH, HEIGHT) * 3 // 4 // size
    left, top = (WIDTH - size * scale) // 2, (HEIGHT - size * scale) // 2
    luma = bytearray([128]) * (WIDTH * HEIGHT)
    for y in range(size * scale):
        row = modules[y // scale]
        start = (top + y) * WIDTH + left
        luma[start:start + size * scale] = bytes(16 if row[x // scale] else 235
                                                 for x in range(size * scale))
    chroma = bytes([128]) * (WIDTH * HEIGHT // 4)
    header = f"YUV4MPEG2 W{WIDTH} H{HEIGHT} F30:1 Ip A1:1 C420jpeg\n".encode()
    path.write_bytes(header + b"FRAME\n" + bytes(luma) + chroma + chroma)


@pytest.fixture(scope="module")
def camera_picture(tmp_path_factory):
    """The file the fake camera plays; Chromium opens it again at each start of the camera,
    so a test writes the QR it needs before scanning."""
    return tmp_path_factory.mktemp("camera") / "camera.y4m"


@pytest.fixture(scope="module")
def camera_browser(browser, camera_picture):
    """Chromium with a fake back camera showing `camera_picture`, its permission granted."""
    write_camera_picture(camera_picture, "nothing yet")
    with_camera = browser.browser_type.launch(
        executable_path=CHROMIUM,
        args=["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
              "--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream",
              f"--use-file-for-fake-video-capture={camera_picture}"])
    yield with_camera
    with_camera.close()


@pytest.fixture
def camera_phone(camera_browser, server_url):
    """A phone as tests/browser/conftest.py `phone` opens one, with that camera and no
    BarcodeDetector; `page.workers_seen` lists the URL of every worker its page started."""
    contexts = []

    def open_phone(lang: str = "fr", init_script: str | None = None, chosen: bool = True,
                   tablet: bool = False):
        context = camera_browser.new_context(
            viewport=TABLET if tablet else PHONE, device_scale_factor=2, is_mobile=True,
            has_touch=True, locale={"fr": "fr-FR", "es": "es-ES", "en": "en-GB"}[lang],
            extra_http_headers={"Accept-Language": lang} if chosen else None,
            permissions=["camera"])
        if chosen:
            context.add_cookies([{"name": "django_language", "value": lang, "url": server_url}])
        context.add_init_script(CHECKED_BEFORE)
        context.add_init_script(NO_BARCODE_DETECTOR + (init_script or ""))
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(15000)
        page.workers_seen, page.errors = [], []
        page.on("worker", lambda worker: page.workers_seen.append(worker.url))
        page.on("pageerror", lambda error: page.errors.append(str(error)))
        return page

    yield open_phone
    for context in contexts:
        context.close()


def racing(server_url):
    night = in_thread(rugles_by_night, server_url)
    in_thread(entry_start, entry=night.lucie, by=night.organiser)
    return night


def test_an_iphone_reads_the_balise_qr_with_the_app_s_own_decoder_and_punches(
        server_url, camera_phone, camera_picture):
    night = racing(server_url)
    balise = Checkpoint.objects.get(course=night.famille, code="31")
    write_camera_picture(camera_picture, balise.qr)

    survivor = open_in_french(camera_phone, night.links["lucie"], "#race-status")
    expect(survivor.locator("#race-status")).to_have_text("En course")
    assert survivor.evaluate("'BarcodeDetector' in window") is False

    survivor.get_by_role("button", name="Scanner une balise").click()
    expect(survivor.locator(".race-note.ok")).to_have_text(
        "Balise 31 Église Saint-Germain pointée : elle compte.")
    expect(survivor.locator("#found-count")).to_have_text("1 / 4")
    # The vendored ZXing read it (in its worker), and the camera is off again.
    assert any(url.endswith("/static/frontend/js/scan_worker.js") for url in survivor.workers_seen)
    expect(survivor.locator(".scanner video")).to_have_count(0)
    punched, = night.lucie.punches.all()
    assert (punched.checkpoint_id, punched.source) == (balise.pk, "phone")
    assert survivor.errors == []


@pytest.mark.parametrize("tablet", [False, True], ids=["phone", "tablet"])
def test_a_medic_without_barcode_detector_scans_a_patient_s_qr_among_300(
        server_url, camera_phone, camera_picture, tablet):
    crowd = crowd_event(server_url, medics=1)
    patient = crowd.characters[250]
    # What the patient's phone shows ("Mon QR code pour un médecin").
    write_camera_picture(camera_picture, f"{server_url}/?patient={patient.code}")
    medic = camera_phone(tablet=tablet)
    medic.goto(crowd.link_for(crowd.characters[1], server_url))
    medic.locator("form button").click()  # the login page's button
    medic.get_by_role("link", name="Médecin").click()
    assert medic.evaluate("'BarcodeDetector' in window") is False
    medic.get_by_role("button", name="Scanner le QR code du patient").click()
    expect(medic.get_by_text(f"Soigner {patient.name}")).to_be_visible()
    assert any(url.endswith("/static/frontend/js/scan_worker.js") for url in medic.workers_seen)
    expect(medic.locator(".scanner video")).to_have_count(0)
    assert medic.errors == []


# Codes that ZXing's finder misses in a 640x480 frame decoded at its full size: it takes
# a block of their data for a corner square. A phone held still over one read nothing.
MISSED_AT_ONE_SIZE = ["http://127.0.0.1:31002/?patient=BB8AYN", "http://127.0.0.1:46996/?patient=9N1D4X",
                      "http://127.0.0.1:41286/?patient=SEKKQ7", "http://127.0.0.1:58131/?patient=ETTK0Q"]
# Pass labels (replica codes) it missed at all three sizes, and at a quarter turn too
# (the last): read once the frame is turned by 30 degrees.
MISSED_AT_THREE_SIZES = ["T2Z9W8KL", "5X8ZWQYU", "CV7FZVSN", "ZWL8NPXY", "QPZQKA86", "SQGUMLD6"]
SCAN_ONCE = """async () => {
  const { startScanner } = await import("/static/frontend/js/scanner.js");
  return new Promise((resolve) => { startScanner(resolve); setTimeout(() => resolve(null), 10000); });
}"""


def test_a_code_zxing_misses_one_way_is_read_another(server_url, camera_phone, camera_picture):
    held_still = camera_phone("en")
    held_still.goto(f"{server_url}/")
    for text in MISSED_AT_ONE_SIZE + MISSED_AT_THREE_SIZES:
        write_camera_picture(camera_picture, text)
        assert held_still.evaluate(SCAN_ONCE) == text
    assert held_still.errors == []


@pytest.mark.parametrize("tablet", [False, True], ids=["phone", "tablet"])
def test_a_phone_that_cannot_scan_types_the_code_printed_under_the_qr(server_url, phone, tablet):
    night = racing(server_url)
    balise = Checkpoint.objects.get(course=night.famille, code="32")
    code = typed_code(balise.qr)

    survivor = phone("en", chosen=False, tablet=tablet,
                     init_script=NO_BARCODE_DETECTOR + NO_CAMERA)
    survivor.goto(night.links["lucie"])
    survivor.locator("form button").click()
    expect(survivor.locator("#race-status")).to_have_text("En course")

    # No camera at all: the phone says to type the code, and the field is there.
    survivor.get_by_role("button", name="Scanner une balise").click()
    expect(survivor.locator(".scan-field .message")).to_have_text(
        "Ce téléphone ne peut pas scanner : tapez le code écrit sous le QR.")
    field = survivor.get_by_label("Code sous le QR de la balise")
    expect(field).to_be_focused()

    # The number printed on the map: refused, saying what to type instead.
    field.fill("33")
    survivor.get_by_role("button", name="Pointer", exact=True).click()
    expect(survivor.locator(".race-note.refusal")).to_contain_text(
        "33 est le numéro de la balise sur la carte : tapez les six caractères imprimés sous son "
        "QR, ou scannez le QR.")
    expect(survivor.locator("#found-count")).to_have_text("0 / 4")

    # The code printed under balise 32's QR, typed in lower case with a space.
    field.fill(f"{code[:3].lower()} {code[3:].lower()}")
    survivor.get_by_role("button", name="Pointer", exact=True).click()
    expect(survivor.locator(".race-note.ok")).to_have_text("Balise 32 Pont sur la Risle pointée : elle compte.")
    expect(survivor.locator("#found-count")).to_have_text("1 / 4")
    assert [p.checkpoint.code for p in night.lucie.punches.all()] == ["32"]
    if not tablet:
        survivor.evaluate("window.scrollTo(0, 0)")     # the field's focus scrolled the page
        screenshot(survivor, "race-survivor-typed-code")
    assert survivor.errors == []


def test_the_organisers_print_each_balise_with_the_code_under_its_qr(server_url, phone):
    night = in_thread(rugles_by_night, server_url)
    organiser = open_in_french(phone, night.links["organiser"], "#race-summary")
    organiser.get_by_role("tab", name="Départs").click()
    course = organiser.locator(f"#race-courses [data-course='{night.famille.pk}']")
    course.locator("summary").click()
    for cp in Checkpoint.objects.filter(course=night.famille):
        expect(course.locator(f"li[data-balise='{cp.code}'] .typed-code")).to_have_text(typed_code(cp.qr))

    with organiser.expect_popup() as opened:
        organiser.locator("#print-balises").click()
    sheet = opened.value
    expect(sheet.locator("h1")).to_have_text("Rugles by Night — Balises à imprimer")
    label = sheet.locator("[data-balise='31']")
    expect(label.locator(".number")).to_have_text("31")
    expect(label.locator(".typed")).to_have_text(
        typed_code(Checkpoint.objects.get(course=night.famille, code="31").qr))
    expect(label.locator("svg")).to_have_count(1)
    assert re.search(r"Impossible de scanner \? Tapez ce code :", label.inner_text())


def test_a_referee_scans_a_player_and_the_chrony_a_pass_label(server_url, camera_phone,
                                                              camera_picture):
    event, orga, players, links = terrier(server_url)
    for licence, label in (("RAT-0002", "M4 CQB"), ("RAT-0003", "Glock 17")):
        replica_register(event=event, member=Member.objects.get(licence_number=licence),
                         label=label, type="rifle", calibre_mm=6, by=orga)
    glock = event.replicas.get(label="Glock 17")
    referee = camera_phone("fr")
    referee.goto(links["referee"])
    referee.locator("form button").click()  # the login page's button
    staff = referee.locator("#staff-panels")

    # The player's phone shows their QR: scanned, the sanction names their character.
    write_camera_picture(camera_picture, f"{server_url}/?patient={players['karim'].code}")
    staff.get_by_role("tab", name="Sanctions").click()
    staff.get_by_role("button", name="Scanner son QR code").click()
    expect(staff.get_by_label("N° de licence du joueur")).to_have_value(players["karim"].code)
    staff.get_by_label("Motif (obligatoire)").fill("A tiré à moins de 3 m")
    staff.get_by_role("button", name="Enregistrer la sanction").click()
    expect(staff.locator(".sanction-result")).to_contain_text("Enregistrée : avertissement — Karim Benali")
    assert Sanction.objects.get().character == players["karim"]

    # At a control, the pass label's QR (the replica's code) chooses the replica.
    write_camera_picture(camera_picture, glock.code)
    staff.get_by_role("tab", name="Chrony").click()
    measure = staff.locator("form.check-form")
    measure.get_by_role("button", name="Scanner l'étiquette chrony").click()
    expect(measure.locator(".pass-note")).to_have_text("Choisie : Glock 17 de Hugo Petit.")
    expect(measure.get_by_label("Réplique")).to_have_value(str(glock.pk))
    # A code typed wrong chooses nothing and says so.
    measure.get_by_label("Code de l'étiquette chrony").fill("zzzz")
    measure.get_by_role("button", name="Chercher").click()
    expect(measure.locator(".pass-note")).to_have_text("Aucune réplique du jour n'a le code ZZZZ.")
    expect(measure.get_by_label("Réplique")).to_have_value(str(glock.pk))
    assert any(url.endswith("/static/frontend/js/scan_worker.js") for url in referee.workers_seen)
    assert referee.errors == []
