"""The organisers' printing: character cards (browser print or PDF, 1, 4 or 8 to an A4
page), new login codes as a separate, confirmed act, and the ruleset's paper casualty card.
Printing never changes a code (players/login_cards.py)."""
from __future__ import annotations

import io

from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from common.errors import refusal_status, request_language
from common.i18n import refusal_text
from common.parsers import JSONParser
from players.login_cards import CardCodesUnreadable, login_card_replace, login_cards_replace_all

from . import cards_pdf
from .cards import PER_PAGE, with_qr_svgs, card_words, event_cards, event_casualty_card, per_page_choice
from .print_words import CARD, PAGE, words
from rulesets import RuleRefused

from .views import _narrated_event


def _only(request) -> int | None:
    raw = request.GET.get("only", "")
    return int(raw) if raw.isdigit() else None


def _unreadable(request) -> HttpResponse:
    return HttpResponse(words(PAGE, request_language(request))["unreadable"], status=409,
                        content_type="text/plain; charset=utf-8")


@require_GET
def character_cards(request, event_id):
    event = _narrated_event(request, event_id)
    if event is None:
        return redirect(f"/admin/login/?next={request.path}")
    per_page = per_page_choice(request.GET.get("per_page"))
    only = _only(request)
    try:
        cards = with_qr_svgs(event_cards(event, by=request.user, only=only))
    except CardCodesUnreadable:
        return _unreadable(request)
    page = words(PAGE, request_language(request))
    notice = _notice(request, page, cards)
    pages = [cards[i:i + per_page] for i in range(0, len(cards), per_page)]
    return render(request, "frontend/cards.html", {
        "event": event, "lang": event.language, "pages": pages, "per_page": per_page,
        "choices": PER_PAGE, "words": card_words(event), "page": page, "notice": notice,
        "only": only, "characters": event.characters.exclude(user=None).order_by("name"),
        "none": not cards})


def _notice(request, page: dict, cards) -> str:
    replaced = request.GET.get("replaced")
    if replaced == "all":
        return page["replaced_all"].format(count=request.GET.get("count", ""))
    if replaced and cards and _only(request) is not None:
        return page["replaced_one"].format(name=cards[0].name)
    return ""


@require_GET
def character_cards_pdf(request, event_id):
    event = _narrated_event(request, event_id)
    if event is None:
        return redirect(f"/admin/login/?next={request.path}")
    per_page = per_page_choice(request.GET.get("per_page"))
    try:
        cards = event_cards(event, by=request.user, only=_only(request))
    except CardCodesUnreadable:
        return _unreadable(request)
    pdf = cards_pdf.cards_pdf(cards, event_name=event.name, words=card_words(event), per_page=per_page)
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="cards-{event.pk}-{per_page}.pdf"'
    return response


def _fields(request) -> dict:
    """The form's fields, or the same sent as JSON (a script, the tests' clients), read by
    the API's own strict parser: what no database can store is refused before anything."""
    if request.POST or not request.body:
        return request.POST
    data = JSONParser().parse(io.BytesIO(request.body))
    return data if isinstance(data, dict) else {}


@require_POST
def new_codes(request, event_id):
    """New login codes, for one character (`character`) or everyone (`character=all`),
    only with the `confirm` box ticked: printed cards of those characters stop working."""
    event = _narrated_event(request, event_id)
    if event is None:
        raise Http404
    page = words(PAGE, request_language(request))
    try:
        data = _fields(request)
    except RuleRefused as refused:
        return JsonResponse({"error": refused.code,
                             "detail": refusal_text(refused, request_language(request))},
                            status=refusal_status(refused))
    target = str(data.get("character", ""))
    if data.get("confirm") not in ("yes", True):
        return HttpResponse(page["not_confirmed"], status=400, content_type="text/plain; charset=utf-8")
    if target == "all":
        count = login_cards_replace_all(event=event, by=request.user)
        return redirect(f"/events/{event.pk}/sheets/?replaced=all&count={count}")
    character = event.characters.exclude(user=None).filter(pk=target if target.isdigit() else 0).first()
    if character is None:
        raise Http404
    login_card_replace(character=character, by=request.user)
    return redirect(f"/events/{event.pk}/sheets/?replaced=one&only={character.pk}&per_page=1")


@require_GET
def casualty_card(request, event_id):
    event = _narrated_event(request, event_id)
    if event is None:
        return redirect(f"/admin/login/?next={request.path}")
    texts = words(CARD, event.language)
    title = f"{texts['casualty_title']} — {event.name}"
    card = event_casualty_card(event)
    if request.GET.get("format") == "pdf":
        response = HttpResponse(cards_pdf.casualty_pdf(card, title=title, words=texts),
                                content_type="application/pdf")
        response["Content-Disposition"] = f'inline; filename="casualty-{event.pk}.pdf"'
        return response
    return render(request, "frontend/casualty_card.html",
                  {"event": event, "lang": event.language, "card": card, "title": title,
                   "words": texts, "page": words(PAGE, request_language(request))})
