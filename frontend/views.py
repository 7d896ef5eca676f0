import qrcode
import qrcode.image.svg
from django.conf import settings
from django.contrib.auth import login
from django.http import Http404, JsonResponse
from django.utils import translation
from django.views.i18n import JavaScriptCatalog
from django.shortcuts import redirect, render
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_GET, require_http_methods

from common.i18n import refusal_text, text
from common.messages import LOGIN_FAILED_WORDS, LOGIN_PAGE_WORDS, OBJECT_LABEL_WORDS
from effects.selectors.items import revealed_text
from effects.models import Item
from common.errors import refusal_status, request_language
from players.selectors import event_for_narrator, login_token_language
from players.services import login_token_redeem_limited
from rest_framework.exceptions import NotFound
from rulesets import RuleRefused

from . import shell


@require_http_methods(["GET", "POST"])
def login_link(request, token):
    """The link printed (as a QR code) on a character sheet. Opening it shows one button;
    only its POST opens the session, so a chat app's link preview does not use it up."""
    # The event's language: a lost phone's fresh browser has no language of its own yet.
    lang = login_token_language(token) or request_language(request)
    if request.method == "GET":
        words = {key: text(msgid, lang) for key, msgid in LOGIN_PAGE_WORDS.items()}
        return render(request, "frontend/login.html", {"lang": lang, "words": words})
    try:
        user, _event = login_token_redeem_limited(raw=token, ip=request.META.get("REMOTE_ADDR", ""))
    except RuleRefused as refused:
        return _login_refused(request, refused, lang)
    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    return redirect("/")


def _login_refused(request, refused: RuleRefused, lang: str):
    words = {key: text(msgid, lang) for key, msgid in LOGIN_FAILED_WORDS.items()}
    response = render(request, "frontend/login_failed.html",
                      {"lang": lang, "words": words, "message": refusal_text(refused, lang)},
                      status=refusal_status(refused))
    if getattr(refused, "retry_after", None):
        response["Retry-After"] = str(refused.retry_after)
    return response


@require_GET
def healthz(request):
    """For load balancers (and the REST benchmark's baseline): answers without the database."""
    return JsonResponse({"ok": True})


@require_GET
@ensure_csrf_cookie
def home(request):
    """The phone app's shell. Everything else comes from the API and the live channel."""
    lang = request_language(request)
    return render(request, "frontend/app.html", {"lang": lang, "version": shell.version(),
                                                 "words": shell.words(lang),
                                                 "manifest": shell.manifest_url(lang)})


@require_GET
def manifest(request):
    """`?lang=fr|es|en` (as the shell links it); without it, the request's language."""
    lang = request.GET.get("lang")
    if lang not in shell.LANGS:
        lang = request_language(request)
    return JsonResponse(shell.manifest(lang), content_type="application/manifest+json",
                        json_dumps_params={"ensure_ascii": False})


@require_GET
def service_worker(request):
    """Served from the root so that its scope is the whole app."""
    response = render(request, "frontend/sw.js", {"version": shell.version(),
                                                  "shell": shell.shell_urls()},
                      content_type="text/javascript")
    response["Cache-Control"] = "no-cache"
    response["Service-Worker-Allowed"] = "/"
    return response


@require_GET
def js_catalog(request, lang):
    """The phone texts' catalogue, one URL per language so the service worker can keep it."""
    if lang not in ("fr", "es", "en"):
        raise Http404
    with translation.override(lang):
        response = JavaScriptCatalog.as_view(packages=["frontend"])(request)
    response["Cache-Control"] = "no-cache"
    return response


def _narrated_event(request, event_id):
    """The event for its narrators; None asks for a login; anyone else gets a 404."""
    if not request.user.is_authenticated:
        return None
    try:
        return event_for_narrator(request.user, event_id)
    except NotFound:
        raise Http404 from None


@require_GET
def printable_labels(request, event_id):
    """Labels to print and tie to the objects: the tag in large type, the code and a QR
    code the phone opens; a medicine's or an envelope's verso on a block to fold; a lock's
    rule (§4.3) and where its padlock hangs at first, for whoever sets up the door."""
    event = _narrated_event(request, event_id)
    if event is None:
        return redirect(f"/admin/login/?next={request.path}")
    labels = []
    for item in Item.objects.filter(event=event):
        qr = qrcode.make(f"{settings.PUBLIC_URL}/?object={item.code}",
                         image_factory=qrcode.image.svg.SvgPathImage)
        verso = revealed_text(item) if item.kind in (Item.MEDICINE, Item.ENVELOPE) else None
        labels.append({"item": item, "qr": qr.to_string(encoding="unicode"), "verso": verso})
    words = {key: text(msgid, event.language) for key, msgid in OBJECT_LABEL_WORDS.items()}
    for label in labels:
        if label["item"].kind == Item.LOCK:
            label["lock"] = (words["lock"], words["closed" if label["item"].closed else "open"])
    return render(request, "frontend/labels.html",
                  {"event": event, "labels": labels, "words": words})
