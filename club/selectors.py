"""Reads of the airsoft club: who is staff of an event, the register's members and
sanctions (club rulebook §5, spec §2 and C9/C10), and the chrony station's replicas, their
checks and the club's limits (rulebook §4). The writes are in club/services/.

Who may do what: organisers are the event's narrators (or superusers); referees
(Membership role "referee") record light faults only. A grave fault's sanction is decided
by the organisers ("décision collégiale entre les orgas"); rule B13 alone may turn a
referee's light sanction for repeated cheating into a grave one.

The register is a club's: its members' contacts, licences and sanctions are read by the
organisers and referees of that club's events (and superusers), never by the staff of
another club's or of an unrelated event on the same server, who find nobody (404, as if
unknown). An event belongs to at most one club (ClubEvent).
"""
# Rule codes: docs/rules/airsoft_rats-coverage.md; their families: docs/glossary.md.
from __future__ import annotations

from datetime import datetime

from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_noop
from rest_framework.exceptions import NotFound

from common.i18n import Labels, message_labels
from rulesets import RuleRefused, Rules, get_ruleset

from players.models import Character, Event, Membership
from club.models import ChronyCheck, Club, ClubEvent, Member, Replica, Sanction
from players.selectors import character_by_code, is_narrator

ORGANISER, REFEREE = "organiser", Membership.REFEREE

KIND_LABELS = Labels({
    Sanction.WARNING: gettext_noop("warning"),
    Sanction.SANCTION_OUT: gettext_noop("sanction out"),
    Sanction.REMOVED: gettext_noop("removal from the current game"),
    Sanction.EXPELLED_DAY: gettext_noop("expulsion for the rest of the day"),
    Sanction.EXCLUDED: gettext_noop("exclusion from the field"),
    Sanction.BANNED: gettext_noop("permanent ban"),
})


def local_text(at: datetime, *, seconds: bool = False) -> str:
    """An instant as staff read it: the server's timezone, named (no locale guesswork);
    to the second where a second decides (an exclusion's one-year limit)."""
    local = timezone.localtime(at)
    return f"{local:%Y-%m-%d %H:%M{':%S' if seconds else ''}} {local.tzname()}"


def staff_role(user, event: Event) -> str | None:
    """ORGANISER (the event's narrators, superusers), REFEREE, or None."""
    if is_narrator(user, event):
        return ORGANISER
    if user.is_authenticated and Membership.objects.filter(event=event, user=user,
                                                           role=REFEREE).exists():
        return REFEREE
    return None


def event_for_staff(user, event_id: int) -> Event:
    """The event for its organisers and referees; a 404 for anyone else."""
    event = Event.objects.filter(pk=event_id).first()
    if event is None or staff_role(user, event) is None:
        raise NotFound()
    return event


def event_club(event: Event) -> Club | None:
    """The club whose register the event's desk uses; None before its first member."""
    link = ClubEvent.objects.select_related("club").filter(event=event).first()
    return link.club if link else None


def club_events(club: Club) -> list[Event]:
    return list(Event.objects.filter(club_link__club=club).order_by("pk"))


def _club_roles(user, club: Club | None, roles: list[str]) -> bool:
    if club is None or not user.is_authenticated:
        return False
    return user.is_superuser or Membership.objects.filter(
        user=user, role__in=roles, event__club_link__club=club).exists()


def is_club_staff(user, club: Club | None) -> bool:
    """Organiser or referee of an event of this club: the register is the club's, not one
    game's, and no other club's staff reads it."""
    return _club_roles(user, club, [Membership.NARRATOR, REFEREE])


def is_club_organiser(user, club: Club | None) -> bool:
    return _club_roles(user, club, [Membership.NARRATOR])


def club_for_organiser(user, club_id: int) -> Club:
    """The club for the organisers of one of its events; a 404 for anyone else."""
    club = Club.objects.filter(pk=club_id).first()
    if not is_club_organiser(user, club):
        raise NotFound()
    return club


def clean_licence(raw: str) -> str:
    # Stored upper-case: the number is read off a card and typed in any case.
    return (raw or "").strip().upper()


def member_by_reference(event: Event, reference) -> Member:
    """A member of the event's club by id (a JSON number) or by licence number (a
    string). Never one for the other: a mistyped licence must not check in whoever has
    that id. Another club's member is unknown here, like one who does not exist."""
    rows = Member.objects.filter(club__event_links__event=event)
    if isinstance(reference, int):
        found = rows.filter(pk=reference).first()
    else:
        found = rows.filter(licence_number=clean_licence(str(reference))).first()
    if found is None:
        raise RuleRefused("unknown_member", member=str(reference))
    return found


def member_of_event_club(event: Event, member: Member) -> Member:
    """The member, when the event's desk uses the member's club: what a service checks
    before it ties a check-in, a sanction or a replica of the event to them."""
    if not ClubEvent.objects.filter(event=event, club_id=member.club_id).exists():
        raise RuleRefused("unknown_member", member=member.licence_number)
    return member


def sanction_target(event: Event, *, member=None, character_id: int | None = None,
                    character_code: str | None = None) -> tuple[Member, Character | None]:
    """Who a sanction is for: a member (id or licence), or a character of this event that
    checked in as a member, by id or by the code a referee reads off the player's QR
    (a 404 for another event's character)."""
    if character_code is not None:
        character_id = character_by_code(event.pk, character_code).pk
    if character_id is None:
        return member_by_reference(event, member), None
    character = (Character.objects.select_related("check_in__member")
                 .filter(pk=character_id, event=event).first())
    if character is None:
        raise NotFound()
    check_in = getattr(character, "check_in", None)
    if check_in is None:
        raise RuleRefused("member_not_linked", name=character.name)
    return member_of_event_club(event, check_in.member), character


def member_character(event: Event, member: Member) -> Character | None:
    """The character the member checked in as for this game, if they did."""
    return Character.objects.filter(event=event, check_in__member=member).first()


def members_search(club: Club | None, text: str, limit: int = 50) -> list[Member]:
    if club is None:
        return []
    rows = Member.objects.filter(club=club).order_by("name", "pk")
    text = (text or "").strip()
    if text:
        rows = rows.filter(Q(name__icontains=text) | Q(nickname__icontains=text)
                           | Q(licence_number__icontains=text))
    return list(rows[:limit])


def member_for_reader(user, member_id: int) -> Member:
    """The staff of the member's club read them; a player only the member their character
    is; 404 otherwise (nobody learns that another member exists)."""
    member = Member.objects.select_related("club").filter(pk=member_id).first()
    if member is None or not user.is_authenticated:
        raise NotFound()
    if (is_club_staff(user, member.club)
            or Character.objects.filter(user=user, check_in__member=member).exists()):
        return member
    raise NotFound()


def sanction_for_staff(user, sanction_id: int) -> Sanction:
    sanction = Sanction.objects.select_related("event", "member").filter(pk=sanction_id).first()
    if sanction is None or sanction.event is None or staff_role(user, sanction.event) is None:
        raise NotFound()
    return sanction


def _sanctions():
    return Sanction.objects.select_related("member", "event", "decided_by", "revoked_by",
                                           "escalated_because", "repeat_of")


def event_sanctions(event: Event, limit: int = 500) -> list[Sanction]:
    return list(_sanctions().filter(event=event)[:limit])


def member_sanctions(member: Member) -> list[Sanction]:
    """The whole history, every event, newest first, revoked ones included."""
    return list(_sanctions().filter(member=member))


def member_barring_sanction(member: Member, at: datetime) -> Sanction | None:
    """What keeps the member off the field at `at`: a permanent ban, else the exclusion or
    day's expulsion that ends last. Revoked sanctions keep nobody out."""
    barring = [s for s in member.sanctions.filter(
        revoked_at__isnull=True,
        kind__in=[Sanction.BANNED, Sanction.EXCLUDED, Sanction.EXPELLED_DAY])
        if sanction_bars(s, at)]   # one rule, the register's rows and the checks alike
    if not barring:
        return None
    return max(barring, key=lambda s: (s.kind == Sanction.BANNED, s.ends_at or at))


def sanction_bars(sanction: Sanction, at: datetime) -> bool:
    return (sanction.revoked_at is None
            and (sanction.kind == Sanction.BANNED
                 or (sanction.kind in (Sanction.EXCLUDED, Sanction.EXPELLED_DAY)
                     and sanction.ends_at is not None and sanction.ends_at > at)))


def escalation_of(sanction: Sanction) -> dict | None:
    """Whether rule B13 made this sanction grave, and why, in every language."""
    if not sanction.escalated_from:
        return None
    words = {"kind": KIND_LABELS[sanction.kind], "asked": KIND_LABELS[sanction.escalated_from]}
    previous = sanction.escalated_because
    why = (message_labels("sanction_escalated", previous=str(previous.pk),
                          date=local_text(previous.decided_at), **words)
           if previous else message_labels("cheating_first_grave", **words))
    return {"from": sanction.escalated_from, "to": sanction.kind,
            "because_of": previous.pk if previous else None, "why": why}


# A replica checked outside an event, or at an event whose ruleset has no chrony (a
# LARP), is held to the club's limits: the airsoft ruleset's defaults (Appendix A `safety`).
CLUB_RULESET = "airsoft_rats"


def chrony_limits(event: Event | None) -> dict:
    rules = event.rules() if event is not None else None
    if rules is None or not rules.has("chrony"):
        club = get_ruleset(CLUB_RULESET)
        rules = Rules(club, club.options)
    return {"max_power_joule": rules.option("max_power_joule"),
            "calibre_mm": rules.option("calibre_mm"), "full_auto": rules.option("full_auto")}


def energy_joules(*, bb_weight_g: float, speed_mps: float) -> float:
    """E = m v² / 2, with the BB's mass in kilograms."""
    return bb_weight_g / 1000 * speed_mps ** 2 / 2


def number_labels(value: float) -> dict:
    """1.21 as each language writes it: "1,21" in French and Spanish."""
    text = f"{value:.3f}".rstrip("0").rstrip(".")
    return {"en": text, "fr": text.replace(".", ","), "es": text.replace(".", ",")}


def _full_auto_allowed(value) -> bool:
    return value is True or str(value).lower() in ("allowed", "true", "yes")


def chrony_reasons(*, energy_j: float, calibre_mm: float, full_auto_used: bool,
                   limits: dict) -> list[dict]:
    """Why a replica fails, each reason in fr/es/en; empty when it passes. The energy is
    compared at the chrony's precision (a thousandth of a joule): 1.2004 J passes 1.2 J."""
    reasons = []
    energy, limit = round(energy_j, 3), float(limits["max_power_joule"])
    if energy > limit:
        reasons.append(message_labels("chrony_too_powerful", energy=number_labels(energy),
                                      max=number_labels(limit)))
    allowed = limits["calibre_mm"]
    allowed = [float(c) for c in (allowed if isinstance(allowed, list) else [allowed])]
    if not any(abs(calibre_mm - c) < 0.01 for c in allowed):
        reasons.append(message_labels("chrony_calibre", calibre=number_labels(calibre_mm),
                                      allowed=number_labels(allowed[0]) if len(allowed) == 1
                                      else ", ".join(str(c) for c in allowed)))
    if full_auto_used and not _full_auto_allowed(limits["full_auto"]):
        reasons.append(message_labels("chrony_full_auto"))
    return reasons


def replica_for_staff(user, replica_id: int) -> Replica:
    """The replica for the organisers and referees of its event; a 404 for anyone else."""
    replica = (Replica.objects.select_related("member", "event")
               .filter(pk=replica_id).first())
    if replica is None or replica.event is None or staff_role(user, replica.event) is None:
        raise NotFound()
    return replica


def replica_latest_check(replica: Replica) -> ChronyCheck | None:
    return replica.checks.order_by("-id").first()


def event_replicas(event: Event) -> list[tuple[Replica, ChronyCheck | None]]:
    """Every replica registered for the event with its latest check, in two queries (every
    check is read: a game day has a few per replica)."""
    replicas = list(Replica.objects.filter(event=event).select_related("member"))
    latest: dict[int, ChronyCheck] = {}
    for check in (ChronyCheck.objects.filter(replica__in=replicas).select_related("checked_by")
                  .order_by("-id")):
        latest.setdefault(check.replica_id, check)
    return [(replica, latest.get(replica.pk)) for replica in replicas]


def replica_pass(replica: Replica) -> ChronyCheck:
    """The passing check a pass label shows: refused when the latest check failed (the
    replica may not play), or when there is none yet."""
    check = replica_latest_check(replica)
    if check is None:
        raise RuleRefused("replica_not_checked", replica=replica.label, code=replica.code)
    if not check.passed:
        raise RuleRefused("replica_failed", replica=replica.label, code=replica.code,
                          reasons=check.reasons)
    return check
