"""The race's pages: the public results (no login), a printable page and a CSV per
course, with names and scores only (no phone number, finger or bib code ever reaches
them); and, for its organisers, the balises to print."""
from __future__ import annotations

import io

import qrcode
import qrcode.image.svg
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_GET
from rest_framework.exceptions import NotFound

from common.csv_out import SafeWriter
from common.i18n import localize
from rulesets.messages import LANGUAGES

from .selectors.boards import courses_view, public_results
from .selectors.iof_export import result_list, start_list
from .labels import TEXTS, say
from .options import race_options
from .selectors.entries import race_event, race_for_organiser

HEADINGS = [k for k in TEXTS if k.startswith("h_")]
BALISE_WORDS = [k for k in TEXTS if k.startswith("print_")]
CSV_COLUMNS = ("course", "rank", "name", "kind", "members", "status", "found", "checkpoints",
               "late_minutes", "lives_lost", "elapsed", "score")


def _race(event_id: int):
    try:
        return race_event(event_id)
    except NotFound:
        raise Http404() from None


def _lang(request, event) -> str:
    """?lang=fr|es|en, else the race's own language: the page is printed for its runners."""
    wanted = request.GET.get("lang", "")
    return wanted if wanted in LANGUAGES else (event.language if event.language in LANGUAGES else "fr")


def hms(seconds) -> str:
    if seconds is None:
        return ""
    seconds = int(seconds)
    return f"{seconds // 3600}:{seconds % 3600 // 60:02d}:{seconds % 60:02d}"


@require_GET
def results_page(request, event_id):
    event = _race(event_id)
    lang, now = _lang(request, event), timezone.now()
    results = localize(public_results(event, now), lang)
    for course in results["courses"]:
        course["course"]["duration"] = hms(course["course"]["duration_s"])
        for row in course["ranking"] + course["unranked"]:
            row["elapsed"] = hms(row["elapsed_s"])
    words = localize({k[2:]: say(k) for k in HEADINGS if k != "h_provisional"}, lang)
    words["provisional"] = localize(say("h_provisional", at=timezone.localtime(now, race_options(event).zone()).strftime("%H:%M")), lang)
    return render(request, "race/results.html", {"event": event, "results": results,
                                                 "words": words, "lang": lang})


@require_GET
def results_csv(request, event_id):
    event = _race(event_id)
    results = localize(public_results(event, timezone.now()), _lang(request, event))
    out = io.StringIO()
    writer = SafeWriter(out)   # no cell a spreadsheet would run
    writer.writerow(CSV_COLUMNS)
    for course in results["courses"]:
        for row in course["ranking"] + course["unranked"]:
            shown = row["unclassified"] or row["status"]
            status = " — ".join(filter(None, (shown["label"], shown.get("reason"))))
            writer.writerow([course["course"]["name"], row["rank"] or "", row["name"], row["kind"],
                             " / ".join(row["members"]), status, row["found"],
                             row["checkpoints"], row["late_minutes"], row["lives_lost"],
                             hms(row["elapsed_s"]), "" if row["score"] is None else row["score"]])
    response = HttpResponse(out.getvalue(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="results-race-{event.pk}.csv"'
    return response


def _xml(body: bytes, name: str) -> HttpResponse:
    response = HttpResponse(body, content_type="application/xml; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@require_GET
def results_xml(request, event_id):
    """The public results as an IOF XML 3.0 ResultList: no finger, club or phone."""
    event = _race(event_id)
    return _xml(result_list(event, timezone.now(), public=True), f"results-race-{event.pk}.xml")


@require_GET
def startlist_xml(request, event_id):
    """The public start list (IOF XML 3.0 StartList): names, courses, start times."""
    event = _race(event_id)
    return _xml(start_list(event, timezone.now(), public=True), f"startlist-race-{event.pk}.xml")


@require_GET
def organiser_iof_xml(request, event_id, message):
    """The organisers' StartList or ResultList, with each entry's finger and club, for
    the orienteering software (MeOS, QuickEvent)."""
    if not request.user.is_authenticated:
        return redirect(f"/admin/login/?next={request.path}")
    try:
        event = race_for_organiser(request.user, event_id)
    except NotFound:
        raise Http404() from None
    write = result_list if message == "results" else start_list
    return _xml(write(event, timezone.now(), public=False), f"{message}-race-{event.pk}-iof.xml")


@require_GET
def balises_page(request, event_id):
    """The balises to print, one label each: the number (as on the map), the name, the QR
    the survivors' phones scan and, under it, the code typed by a phone that cannot."""
    if not request.user.is_authenticated:
        return redirect(f"/admin/login/?next={request.path}")
    try:
        event = race_for_organiser(request.user, event_id)
    except NotFound:
        raise Http404() from None
    courses = courses_view(event)["courses"]
    for course in courses:
        for cp in course["checkpoints"]:
            cp["svg"] = qrcode.make(cp["qr"], image_factory=qrcode.image.svg.SvgPathImage) \
                .to_string(encoding="unicode")
    lang = _lang(request, event)
    words = localize({k[6:]: say(k) for k in BALISE_WORDS}, lang)
    return render(request, "race/balises.html", {"event": event, "courses": courses,
                                                 "words": words, "lang": lang})
