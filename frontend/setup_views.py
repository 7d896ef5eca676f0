"""Setting up from the browser: the first organiser (the link `./run` prints), the event
form, the event's set-up page (invitations of narrators and referees), and the invited
person's page. Views parse the form, call one service, render."""
from __future__ import annotations

import qrcode
import qrcode.image.svg
from django.conf import settings
from django.contrib.auth import login
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from common.errors import request_language
from common.i18n import refusal_text
from players.models import Invitation, Membership
from players.setup_services import (event_set_up, invitation_accept, invitation_cancel,
                                    invitation_create, invitation_open, setup_token_redeem,
                                    setup_token_valid, team_member_remove)
from rulesets import RuleRefused
from rulesets.messages import pick

from .event_form import EventSetupForm, ruleset_choices
from .setup_words import SETUP
from .views import _narrated_event

BACKEND = "django.contrib.auth.backends.ModelBackend"


def _words(request) -> dict:
    lang = request_language(request)
    return {key: pick(value, lang) for key, value in SETUP.items()}


@require_http_methods(["GET", "POST"])
def first_organiser(request, token):
    words = _words(request)
    if not setup_token_valid(token):
        return render(request, "frontend/setup_message.html", {"words": words, "message": words["link_dead"]},
                      status=400)
    error = ""
    if request.method == "POST":
        try:
            user = setup_token_redeem(raw=token, name=request.POST.get("name", ""))
        except RuleRefused as refused:
            error = refusal_text(refused, request_language(request))
        else:
            login(request, user, backend=BACKEND)
            return redirect("/events/new/")
    return render(request, "frontend/setup_first.html", {"words": words, "error": error},
                  status=400 if error else 200)


@require_http_methods(["GET", "POST"])
def event_new(request):
    if not request.user.is_authenticated:
        return redirect(f"/admin/login/?next={request.path}")
    words = _words(request)
    if not request.user.is_staff:
        return HttpResponse(words["staff_only"], status=403, content_type="text/plain; charset=utf-8")
    lang = request_language(request)
    ruleset = request.POST.get("ruleset") or request.GET.get("ruleset", "")
    rulesets = ruleset_choices(lang)
    if not ruleset:
        return render(request, "frontend/event_new.html", {"words": words, "rulesets": rulesets,
                                                           "lang": lang})
    initial = {"language": lang, "time_zone": "Europe/Paris"}
    form = EventSetupForm(request.POST or None, ruleset=ruleset, words=words, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            event = event_set_up(name=form.cleaned_data["name"], ruleset=ruleset,
                                 options=form.overrides(), language=form.cleaned_data["language"],
                                 time_zone=form.cleaned_data["time_zone"],
                                 display=form.cleaned_data["display"],
                                 starts_on=form.cleaned_data["starts_on"], by=request.user)
        except RuleRefused as refused:
            form.add_error(None, refusal_text(refused, lang))
        else:
            return redirect(f"/events/{event.pk}/setup/?created=1")
    description = dict(rulesets).get(ruleset)
    return render(request, "frontend/event_new.html", {
        "words": words, "rulesets": rulesets, "form": form, "ruleset": ruleset, "lang": lang,
        "description": description}, status=400 if form.errors else 200)


@require_http_methods(["GET"])
def event_setup(request, event_id):
    event = _narrated_event(request, event_id)
    if event is None:
        return redirect(f"/admin/login/?next={request.path}")
    words = _words(request)
    members = (Membership.objects.filter(event=event, role__in=dict(Invitation.ROLES))
               .select_related("user").order_by("role", "user__first_name", "user__username"))
    invitations = Invitation.objects.filter(event=event, used_at__isnull=True).order_by("-created_at")
    fresh = request.session.pop(f"invitation-{event.pk}", None)
    shown = None
    if fresh:
        url = f"{settings.PUBLIC_URL}/invite/{fresh['raw']}"
        qr = qrcode.make(url, image_factory=qrcode.image.svg.SvgPathImage).to_string(encoding="unicode")
        shown = {"url": url, "qr": qr, "role": words[fresh["role"]]}
    return render(request, "frontend/event_setup.html", {
        "event": event, "words": words, "members": members, "invitations": invitations,
        "fresh": shown, "created": request.GET.get("created") == "1", "me": request.user})


@require_POST
def event_invite(request, event_id):
    event = _narrated_event(request, event_id)
    if event is None:
        raise Http404
    try:
        raw = invitation_create(event=event, role=request.POST.get("role", ""), by=request.user)
    except RuleRefused as refused:
        return HttpResponse(refusal_text(refused, request_language(request)), status=400,
                            content_type="text/plain; charset=utf-8")
    # Shown once, on the page the organiser lands on (kept in their session until then).
    request.session[f"invitation-{event.pk}"] = {"raw": raw, "role": request.POST["role"]}
    return redirect(f"/events/{event.pk}/setup/")


@require_POST
def event_team_remove(request, event_id):
    event = _narrated_event(request, event_id)
    if event is None:
        raise Http404
    try:
        if request.POST.get("invitation"):
            invitation_cancel(event=event, invitation_id=int(request.POST["invitation"]), by=request.user)
        else:
            team_member_remove(event=event, membership_id=int(request.POST.get("membership") or 0),
                               by=request.user)
    except (RuleRefused, ValueError) as refused:
        text = refusal_text(refused, request_language(request)) if isinstance(refused, RuleRefused) else str(refused)
        return HttpResponse(text, status=400, content_type="text/plain; charset=utf-8")
    return redirect(f"/events/{event.pk}/setup/")


@require_http_methods(["GET", "POST"])
def invitation(request, token):
    words = _words(request)
    invited = invitation_open(token)
    if invited is None:
        return render(request, "frontend/setup_message.html", {"words": words, "message": words["link_dead"]},
                      status=400)
    lang = invited.event.language
    words = {key: pick(value, lang) for key, value in SETUP.items()}   # the event's language
    error = ""
    if request.method == "POST":
        try:
            user, _event = invitation_accept(raw=token, name=request.POST.get("name", ""))
        except RuleRefused as refused:
            error = refusal_text(refused, lang)
        else:
            login(request, user, backend=BACKEND)
            return redirect("/")
    explain = words["join_explain"].format(role=words[invited.role], event=invited.event.name)
    return render(request, "frontend/setup_join.html", {"words": words, "explain": explain,
                                                        "error": error, "lang": lang},
                  status=400 if error else 200)
