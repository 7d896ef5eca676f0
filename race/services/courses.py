"""Courses and their balises, set up by the organisers before the race."""
# Rule codes: docs/rules/zombie_race-coverage.md; their families: docs/glossary.md.
from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from players.models import Event
from players.services import journal_write
from rulesets import RuleRefused

from ..balise_codes import typed_code
from ..labels import say
from ..models import Checkpoint, Course, new_checkpoint_qr
from ..options import race_options
from ..publish import race_changed_on_commit


@transaction.atomic
def course_create(*, event: Event, name: str, by, duration_s: int | None = None,
                  points_per_checkpoint: int | None = None) -> Course:
    """enfant / famille / sportif take their duration from the options (1 h, 1 h 30,
    2 h); any other name needs its own. The points per balise start unconfirmed (Z1)."""
    options = race_options(event)
    name = name.strip()
    if duration_s is None:
        if name.lower() not in options.durations:
            raise RuleRefused("bad_input", detail=say("duration_needed", course=name))
        duration_s = options.durations[name.lower()]
    if Course.objects.filter(event=event, name__iexact=name).exists():
        raise RuleRefused("race_course_exists", course=name)
    points = options.points_per_checkpoint if points_per_checkpoint is None else points_per_checkpoint
    course = Course.objects.create(event=event, name=name, duration_s=duration_s,
                                   points_per_checkpoint=points)
    journal_write(event=event, kind="race", what="course:created", at=timezone.now(), by=by,
                  detail={"course": course.pk, "name": name, "duration_s": duration_s,
                          "points_per_checkpoint": points})
    return course


@transaction.atomic
def checkpoint_create(*, course: Course, code: str, by, name: str = "", lat: float | None = None,
                      lon: float | None = None, qr: str | None = None,
                      points: int | None = None) -> Checkpoint:
    code = code.strip()
    if Checkpoint.objects.filter(course=course, code__iexact=code).exists():
        raise RuleRefused("race_checkpoint_exists", course=course.name, code=code)
    qr = (qr or "").strip()
    if qr and Checkpoint.objects.filter(qr=qr).exists():
        raise RuleRefused("bad_input", detail=say("qr_taken", qr=qr))
    # The code printed under the QR names one balise of the race: a phone typing it must
    # not punch another (one chance in a billion per pair, but a race is printed once).
    taken = {typed_code(other) for other in Checkpoint.objects.filter(
        course__event_id=course.event_id).values_list("qr", flat=True)}
    if qr and typed_code(qr) in taken:
        raise RuleRefused("bad_input", detail=say("typed_code_taken", qr=qr, code=typed_code(qr)))
    while not qr or typed_code(qr) in taken:
        qr = new_checkpoint_qr()
    checkpoint = Checkpoint.objects.create(course=course, code=code, name=name, lat=lat, lon=lon,
                                           points=points, qr=qr)
    journal_write(event=course.event, kind="race", what="checkpoint:created", at=timezone.now(),
                  by=by, detail={"course": course.pk, "checkpoint": checkpoint.pk, "code": code,
                                 "points": points})
    return checkpoint


@transaction.atomic
def course_points_confirm(*, course: Course, points_per_checkpoint: int, by) -> Course:
    """The organiser sets the points a balise is worth and confirms them: the warning
    leaves the screens and the results."""
    course = Course.objects.select_for_update().get(pk=course.pk)
    before = (course.points_per_checkpoint, course.points_confirmed)
    now = timezone.now()
    course.points_per_checkpoint = points_per_checkpoint
    course.points_confirmed = True
    course.points_confirmed_at = now
    course.save(update_fields=["points_per_checkpoint", "points_confirmed", "points_confirmed_at"])
    journal_write(event=course.event, kind="race", what="course:points_confirmed", at=now, by=by,
                  detail={"course": course.pk, "before": list(before),
                          "points_per_checkpoint": points_per_checkpoint})
    race_changed_on_commit(event_id=course.event_id, course_ids=[course.pk])
    return course
