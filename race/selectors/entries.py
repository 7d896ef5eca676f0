"""Who may see or act on what in a race, and the loading of entries with what a score
needs. Anything a caller may not see answers 404, as elsewhere: a survivor cannot learn
that another entry exists."""
from __future__ import annotations

from rest_framework.exceptions import NotFound

from players.models import Event, Membership
from players.selectors import clean_code, is_narrator
from rulesets import RuleRefused

from .. import balise_codes
from ..models import Checkpoint, Course, Entry, LifeLoss
from ..options import RULESET
from ..scoring import EntryFacts, PunchFact


def race_exists(event_id: int) -> bool:
    return Event.objects.filter(pk=event_id, ruleset=RULESET).exists()


def race_event(event_id: int) -> Event:
    """A race event, for anyone (the public results); 404 for anything else."""
    event = Event.objects.filter(pk=event_id, ruleset=RULESET).first()
    if event is None:
        raise NotFound()
    return event


def _has_role(user, event: Event, roles) -> bool:
    if not user.is_authenticated:
        return False
    return is_narrator(user, event) or Membership.objects.filter(
        event=event, user=user, role__in=roles).exists()


def race_for_organiser(user, event_id: int) -> Event:
    event = race_event(event_id)
    if not is_narrator(user, event):
        raise NotFound()
    return event


def race_for_zombie(user, event_id: int) -> Event:
    """Zombies pull flags; organisers may record a grab a zombie reports by voice."""
    event = race_event(event_id)
    if not _has_role(user, event, [Membership.ZOMBIE]):
        raise NotFound()
    return event


def course_for_organiser(user, course_id: int) -> Course:
    course = Course.objects.select_related("event").filter(pk=course_id).first()
    if course is None or not is_narrator(user, course.event):
        raise NotFound()
    return course


def entry_for_organiser(user, entry_id: int) -> Entry:
    entry = _entry(entry_id)
    if not is_narrator(user, entry.event):
        raise NotFound()
    return entry


def entry_for_marshal(user, entry_id: int) -> Entry:
    """Marshals (signaleurs) are organisers, or members with the referee role."""
    entry = _entry(entry_id)
    if not _has_role(user, entry.event, [Membership.REFEREE]):
        raise NotFound()
    return entry


def entry_for_reporter(user, entry_id: int) -> Entry:
    """Anyone of the organisation who may log an infraction: organisers, marshals, zombies
    (rulebook: zombies may also watch over the rules)."""
    entry = _entry(entry_id)
    if not _has_role(user, entry.event, [Membership.REFEREE, Membership.ZOMBIE]):
        raise NotFound()
    return entry


def entry_visible(user, entry_id: int) -> tuple[Entry, bool]:
    """The entry if the user is its survivor (or team) or an organiser, with whether they
    act as an organiser."""
    entry = _entry(entry_id)
    if user.is_authenticated and entry.character.user_id == user.pk:
        return entry, False
    if is_narrator(user, entry.event):
        return entry, True
    raise NotFound()


def _entry(entry_id: int) -> Entry:
    entry = (Entry.objects.select_related("event", "course", "character")
             .filter(pk=entry_id).first())
    if entry is None:
        raise NotFound()
    return entry


def life_loss_for_organiser(user, loss_id: int) -> LifeLoss:
    loss = LifeLoss.objects.select_related("entry__event").filter(pk=loss_id).first()
    if loss is None or not is_narrator(user, loss.entry.event):
        raise NotFound()
    return loss


def entry_by_code(event: Event, code: str) -> Entry:
    """The entry whose bib QR holds this code (its survivor's character code)."""
    wanted = clean_code(code)
    entry = (Entry.objects.select_related("event", "course", "character")
             .filter(event=event, character__code=wanted).first() if wanted else None)
    if entry is None:
        raise RuleRefused("unknown_code", code=code)
    return entry


def checkpoint_find(course: Course, scanned: str, *, code_allowed: bool) -> Checkpoint | None:
    """The balise of the course whose QR holds `scanned`, or whose code printed under the
    QR it is (race/balise_codes.py), or, for organisers, whose number it is. A survivor
    never punches by number alone: it is printed on maps."""
    return _balise_among(Checkpoint.objects.filter(course=course), scanned, code_allowed)


def checkpoint_elsewhere(entry: Entry, scanned: str, *, code_allowed: bool) -> Checkpoint | None:
    """A balise of another course of the entry's race, found as checkpoint_find does: the
    finger beeps on any box, so such a punch is recorded, never counted."""
    others = Checkpoint.objects.filter(course__event_id=entry.event_id).exclude(
        course_id=entry.course_id)
    return _balise_among(others, scanned, code_allowed)


def checkpoint_numbered(event_id: int, scanned: str) -> Checkpoint | None:
    """A balise of the race whose number (printed on the map) this is."""
    return (Checkpoint.objects.filter(course__event_id=event_id, code__iexact=(scanned or "").strip())
            .order_by("pk").first())


def _balise_among(checkpoints, scanned: str, code_allowed: bool) -> Checkpoint | None:
    scanned = (scanned or "").strip()
    checkpoints = checkpoints.order_by("pk")
    found = checkpoints.filter(qr=scanned).first()
    typed = clean_code(scanned)
    if found is None and typed and len(typed) == balise_codes.LENGTH:
        # A race has a few dozen balises: comparing them here costs one small query.
        found = next((cp for cp in checkpoints if balise_codes.typed_code(cp.qr) == typed), None)
    if found is None and code_allowed:
        found = checkpoints.filter(code__iexact=scanned).first()
    return found


# -- entries with what their score needs -----------------------------------------------------

def entries_loaded(event: Event, **filters) -> list[Entry]:
    """Entries with their punches, life losses and infractions, in four queries."""
    return list(Entry.objects.filter(event=event, **filters)
                .select_related("course", "character")
                .prefetch_related("punches", "life_losses", "infractions")
                .order_by("course__duration_s", "course_id", "name", "pk"))


def lives_lost(entry: Entry) -> int:
    return sum(1 for loss in entry.life_losses.all() if loss.took_life and not loss.voided_at)


def lives_remaining(entry: Entry, initial: int) -> int:
    return max(0, initial - lives_lost(entry))


def entry_facts(entry: Entry) -> EntryFacts:
    return EntryFacts(
        status=entry.status, started_at=entry.started_at, deadline_at=entry.deadline_at,
        finished_at=entry.finished_at, ended_at=entry.ended_at,
        punches=[PunchFact(p.pk, p.checkpoint_id, p.at, p.not_counted) for p in entry.punches.all()],
        lives_lost=lives_lost(entry),
        no_life_exits=sum(1 for loss in entry.life_losses.all()
                          if loss.no_life_left and not loss.voided_at),
        infraction_points=sum(i.penalty_points for i in entry.infractions.all()))


def course_points(course: Course) -> dict:
    """{checkpoint id: P_b}: a balise's own points, or the course's."""
    return {cp.pk: course.points_per_checkpoint if cp.points is None else cp.points
            for cp in course.checkpoints.all()}


def character_racing(character_id: int) -> bool:
    """Whether this character's race entry is running now: started, and not yet finished,
    abandoned or disqualified (those leave RACING). A character with no entry is not."""
    return Entry.objects.filter(character_id=character_id, status=Entry.RACING).exists()
