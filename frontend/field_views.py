"""The page a phone opens on plain http, before it trusts the event's https: the event's
certificate authority to install, with each platform's steps (docs/field-network.md)."""
import qrcode
import qrcode.image.svg
from django.conf import settings
from django.http import HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext_noop
from django.views.decorators.http import require_GET

from common.errors import request_language
from common.i18n import text
from frontend.field_tls import ca_der, ca_fingerprint

FILE_NAME = "event-authority"

WORDS_MSGIDS = {
    "title": gettext_noop("Install the event's certificate"),
    "why": gettext_noop(
        "The game's app needs a secure connection to work offline and to scan QR codes. "
        "There is no internet here, so the event has its own certificate authority: install "
        "it once on this phone, then open your login link."),
    "download": gettext_noop("Download the certificate"),
    "android_steps": gettext_noop(
        "Tap “Download the certificate”. Open Settings › Security › Install a certificate › "
        "CA certificate (on some phones: Settings › Security and privacy › More security "
        "settings › Encryption and credentials), tap “Install anyway” and choose the "
        "downloaded file, {file}.crt."),
    "iphone_steps": gettext_noop(
        "In Safari, tap “Download the certificate”, then “Allow”. Open Settings › General › "
        "VPN & Device Management, tap the downloaded profile and “Install”. Then Settings › "
        "General › About › Certificate Trust Settings: turn on full trust for this authority."),
    "check": gettext_noop(
        "Then open the game: {url}. It opens without a warning once the certificate is trusted."),
    "fingerprint": gettext_noop(
        "The authority's SHA-256 fingerprint, to compare with the one the organisers show:"),
    "limits": gettext_noop(
        "This authority can vouch only for local addresses and the event's own names, never "
        "for another site. Remove it after the event, where you installed it."),
    "next_phone": gettext_noop("Next phone: scan this code to open this page."),
    "missing": gettext_noop(
        "This server has no certificate authority of its own to install: it does not serve "
        "the game over https with one."),
}


def _words(lang: str) -> dict:
    return {key: text(msgid, lang, file=FILE_NAME, url=settings.PUBLIC_URL)
            for key, msgid in WORDS_MSGIDS.items()}


@require_GET
def field_ca_page(request):
    lang = request_language(request)
    words = _words(lang)
    if not settings.FIELD_CA_CERT.exists():
        return render(request, "frontend/field_ca.html", {"lang": lang, "words": words, "missing": True},
                      status=404)
    here = request.build_absolute_uri("/field/ca/")
    qr = qrcode.make(here, image_factory=qrcode.image.svg.SvgPathImage).to_string(encoding="unicode")
    fingerprint = ca_fingerprint(settings.FIELD_CA_CERT)
    return render(request, "frontend/field_ca.html", {
        "lang": lang, "words": words, "qr": qr, "fingerprint": fingerprint, "file": FILE_NAME,
        "public_url": settings.PUBLIC_URL})


@require_GET
def field_ca_certificate(request, encoding):
    """The authority's certificate: DER as a .crt with the type Android's and iOS's
    installers recognise, or PEM for computers (Firefox, certutil)."""
    if not settings.FIELD_CA_CERT.exists():
        return HttpResponse(_words(request_language(request))["missing"], status=404,
                            content_type="text/plain; charset=utf-8")
    if encoding == "crt":
        response = HttpResponse(ca_der(settings.FIELD_CA_CERT), content_type="application/x-x509-ca-cert")
    else:
        response = HttpResponse(settings.FIELD_CA_CERT.read_bytes(), content_type="application/x-pem-file")
    response["Content-Disposition"] = f'attachment; filename="{FILE_NAME}.{encoding}"'
    # A phone must not keep an authority the organisers replaced.
    response["Cache-Control"] = "no-store"
    return response
