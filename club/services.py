"""The airsoft club's register: members, their check-in to a game, and the sanctions
register (club rulebook §5, spec §2 and C9/C10). Reads first, then the writes (each one
transaction, journalled with who decided).

Who may do what: organisers are the event's narrators (or superusers); referees
(Membership role "referee") record light faults only. A grave fault's sanction is decided
by the organisers ("décision collégiale entre les orgas"); rule B13 alone may turn a
referee's light sanction for repeated cheating into a grave one.
"""
from __future__ import annotations

from datetime import datetime, time, timedelta

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_noop
from rest_framework.exceptions import NotFound

from common.i18n import Labels, message_labels
from rulesets import RuleRefused

from players.models import Character, Event, Membership
from club.models import CheckIn, Member, Sanction
from live.publish import publish_characters_on_commit
from players.selectors import character_by_code, is_narrator
from players.services import character_create, journal_write, team_get_or_create

ORGANISER, REFEREE = "organiser", Membership.REFEREE

KIND_LABELS = Labels({
    Sanction.WARNING: gettext_noop("warning"),
    Sanction.SANCTION_OUT: gettext_noop("sanction out"),
    Sanction.REMOVED: gettext_noop("removal from the current game"),
    Sanction.EXPELLED_DAY: gettext_noop("expulsion for the rest of the day"),
    Sanction.EXCLUDED: gettext_noop("exclusion from the field"),
    Sanction.BANNED: gettext_noop("permanent ban"),
})

# What takes the player out of the game at once: a sanction-out (P15) and every grave
# sanction (P22). A warning changes nothing in the game.
TAKES_OUT = {Sanction.SANCTION_OUT, Sanction.REMOVED, Sanction.EXPELLED_DAY,
             Sanction.EXCLUDED, Sanction.BANNED}


# --- reads -------------------------------------------------------------------------------

def local_text(at: datetime) -> str:
    """An instant as staff read it: the server's timezone, named (no locale guesswork)."""
    local = timezone.localtime(at)
    return f"{local:%Y-%m-%d %H:%M} {local.tzname()}"


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


def is_club_staff(user) -> bool:
    """Organiser or referee of any event: the register is the club's, not one game's."""
    if not user.is_authenticated:
        return False
    return user.is_superuser or Membership.objects.filter(
        user=user, role__in=[Membership.NARRATOR, REFEREE]).exists()


def clean_licence(raw: str) -> str:
    # Stored upper-case: the number is read off a card and typed in any case.
    return (raw or "").strip().upper()


def member_by_reference(reference) -> Member:
    """A member by id (a JSON number) or by licence number (a string). Never one for the
    other: a mistyped licence must not check in whoever has that id."""
    if isinstance(reference, int):
        found = Member.objects.filter(pk=reference).first()
    else:
        found = Member.objects.filter(licence_number=clean_licence(str(reference))).first()
    if found is None:
        raise RuleRefused("unknown_member", member=str(reference))
    return found


def sanction_target(event: Event, *, member=None, character_id: int | None = None,
                    character_code: str | None = None) -> tuple[Member, Character | None]:
    """Who a sanction is for: a member (id or licence), or a character of this event that
    checked in as a member, by id or by the code a referee reads off the player's QR
    (a 404 for another event's character)."""
    if character_code is not None:
        character_id = character_by_code(event.pk, character_code).pk
    if character_id is None:
        return member_by_reference(member), None
    character = (Character.objects.select_related("check_in__member")
                 .filter(pk=character_id, event=event).first())
    if character is None:
        raise NotFound()
    check_in = getattr(character, "check_in", None)
    if check_in is None:
        raise RuleRefused("member_not_linked", name=character.name)
    return check_in.member, character


def member_character(event: Event, member: Member) -> Character | None:
    """The character the member checked in as for this game, if they did."""
    return Character.objects.filter(event=event, check_in__member=member).first()


def members_search(text: str, limit: int = 50) -> list[Member]:
    rows = Member.objects.order_by("name", "pk")
    text = (text or "").strip()
    if text:
        rows = rows.filter(Q(name__icontains=text) | Q(nickname__icontains=text)
                           | Q(licence_number__icontains=text))
    return list(rows[:limit])


def member_for_reader(user, member_id: int) -> Member:
    """Club staff read any member; a player only the member their character is; 404
    otherwise (nobody learns that another member exists)."""
    member = Member.objects.filter(pk=member_id).first()
    if member is None or not user.is_authenticated:
        raise NotFound()
    if is_club_staff(user) or Character.objects.filter(user=user, check_in__member=member).exists():
        return member
    raise NotFound()


def sanction_for_staff(user, sanction_id: int) -> Sanction:
    sanction = Sanction.objects.select_related("event", "member").filter(pk=sanction_id).first()
    if sanction is None or sanction.event is None or staff_role(user, sanction.event) is None:
        raise NotFound()
    return sanction


def _sanctions():
    return Sanction.objects.select_related("member", "event", "decided_by", "revoked_by",
                                           "escalated_because")


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


def one_year_after(at: datetime) -> datetime:
    local = timezone.localtime(at)
    try:
        return local.replace(year=local.year + 1)
    except ValueError:  # 29 February: a year later is the 28th
        return local.replace(year=local.year + 1, day=28)


def end_of_day(at: datetime) -> datetime:
    """Midnight after `at` in the server's timezone: "pour le reste de la journée"."""
    next_day = timezone.localtime(at).date() + timedelta(days=1)
    return timezone.make_aware(datetime.combine(next_day, time.min))


# --- writes ------------------------------------------------------------------------------

@transaction.atomic
def member_create(*, event: Event, name: str, phone: str, licence_number: str,
                  nickname: str = "", email: str = "", by) -> Member:
    """A new member on the register, at the desk of `event` (where it is journalled)."""
    licence = clean_licence(licence_number)
    existing = Member.objects.filter(licence_number=licence).first()
    if existing is not None:
        raise RuleRefused("member_exists", licence=licence, name=existing.name, id=str(existing.pk))
    try:
        with transaction.atomic():
            member = Member.objects.create(name=name, nickname=nickname, phone=phone,
                                           email=email, licence_number=licence)
    except IntegrityError:  # another desk registered the same licence a moment ago
        raise RuleRefused("member_exists", licence=licence, name=name, id="?") from None
    journal_write(event=event, kind="club", what="member_registered", at=timezone.now(), by=by,
                  detail={"member": member.pk, "name": name, "licence": licence})
    return member


@transaction.atomic
def member_check_in(*, event: Event, member: Member, team_name: str = "",
                    by) -> tuple[Character, bool]:
    """The member's character for this game, created at the first check-in; a second
    check-in finds it. Refused, creating nothing, while a sanction keeps them off the
    field. Returns (character, created)."""
    # The member's row serialises their check-ins with the sanctions recorded meanwhile.
    member = Member.objects.select_for_update().get(pk=member.pk)
    now = timezone.now()
    barring = member_barring_sanction(member, now)
    if barring is not None and barring.kind == Sanction.BANNED:
        raise RuleRefused("member_banned", name=member.name, decided=local_text(barring.decided_at))
    if barring is not None:
        raise RuleRefused("member_excluded", name=member.name, kind=KIND_LABELS[barring.kind],
                          until=local_text(barring.ends_at), decided=local_text(barring.decided_at))
    existing = member_character(event, member)
    if existing is not None:
        return existing, False
    team = team_get_or_create(event=event, name=team_name) if team_name else None
    character = character_create(event=event, name=member.name, team=team, by=by)
    CheckIn.objects.create(member=member, character=character, event=event)
    journal_write(event=event, kind="club", what="checked_in", at=now, by=by, character=character,
                  detail={"member": member.pk, "licence": member.licence_number,
                          "team": team_name or None})
    return character, True


def _sanction_end(kind: str, ends_at: datetime | None, now: datetime) -> datetime | None:
    if kind == Sanction.EXPELLED_DAY and ends_at is None:
        return end_of_day(now)
    if kind != Sanction.EXCLUDED:
        if ends_at is not None:
            raise RuleRefused("end_not_applicable", kind=KIND_LABELS[kind])
        return None
    limit = one_year_after(now)
    if ends_at is None:
        raise RuleRefused("exclusion_end_required", limit=local_text(limit))
    if ends_at <= now:
        raise RuleRefused("exclusion_in_past", asked=local_text(ends_at))
    if ends_at > limit:
        raise RuleRefused("exclusion_too_long", limit=local_text(limit), asked=local_text(ends_at))
    return ends_at


@transaction.atomic
def sanction_record(*, event: Event, member: Member, kind: str, reason: str, by,
                    character: Character | None = None, cheating: bool = False,
                    ends_at: datetime | None = None) -> Sanction:
    """A sanction on the register, decided by `by` during `event`. Rule B13: a light
    sanction for cheating, when the member already has an unrevoked cheating sanction, is
    recorded as a removal from the game (the least grave sanction of a grave fault); the
    organisers may then add a heavier one."""
    role = staff_role(by, event)
    if role is None:
        raise RuleRefused("forbidden")
    if role == REFEREE and Sanction.LEVEL_OF[kind] == Sanction.GRAVE:
        raise RuleRefused("sanction_needs_organiser", kind=KIND_LABELS[kind])
    now = timezone.now()
    # An expulsion's end is midnight of the day it is decided; a day's expulsion given
    # an explicit end is refused like any other non-exclusion.
    ends_at = _sanction_end(kind, ends_at, now)
    # Locked: two cheating sanctions recorded at once must see each other (B13).
    member = Member.objects.select_for_update().get(pk=member.pk)
    asked, previous = kind, None
    if cheating and Sanction.LEVEL_OF[kind] == Sanction.LIGHT:
        previous = (member.sanctions.filter(cheating=True, revoked_at__isnull=True)
                    .order_by("-decided_at", "-id").first())
        rules = event.rules()
        first_is_grave = rules.has("club_sanctions") \
            and rules.option("cheating_first_offence") == "grave"
        if previous is not None or first_is_grave:
            kind = Sanction.REMOVED
    if character is None:
        character = member_character(event, member)
    sanction = Sanction.objects.create(
        member=member, event=event, character=character, level=Sanction.LEVEL_OF[kind],
        kind=kind, cheating=cheating, reason=reason, decided_by=by, decided_at=now,
        ends_at=ends_at, escalated_from=asked if kind != asked else "",
        escalated_because=previous if kind != asked else None)
    journal_write(event=event, kind="sanction", what=kind, at=now, by=by, character=character,
                  detail={"sanction": sanction.pk, "member": member.pk,
                          "licence": member.licence_number, "level": sanction.level,
                          "asked": asked, "cheating": cheating, "reason": reason,
                          "ends_at": ends_at.isoformat() if ends_at else None,
                          "escalated_because": previous.pk if kind != asked and previous else None,
                          "decided_by": by.get_username(), "role": role})
    if kind in TAKES_OUT:
        sanction_applied_on_commit(sanction)
    return sanction


def sanction_applied_on_commit(sanction: Sanction) -> None:
    """The game side of a sanction that takes the player out (sanction-out: P15, back to
    the spawn; a grave one: P22, removed), applied in the recording transaction so the
    state and the register commit together. A ruleset without such an action (a LARP
    event) or a player the action does not apply to keeps the sanction on the register
    only, and the journal says so."""
    if sanction.character_id is None:  # not checked in to this game: nothing to take out
        return
    from health.services import character_apply_rules, characters_lock  # health builds on players
    action = "sanction_out" if sanction.kind == Sanction.SANCTION_OUT else "removed"
    event = sanction.event
    rules = event.rules()
    health = characters_lock([sanction.character_id]).get(sanction.character_id)
    applied = bool(health and action in rules.ruleset.actions
                   and rules.available(rules.advance(health.as_core(), health.character.sheet,
                                                     event.game_time(sanction.decided_at)).state,
                                       action))
    if applied:
        character_apply_rules(health=health, event=event, action=action, by=sanction.decided_by,
                              now=sanction.decided_at, detail={"sanction": sanction.pk})
    journal_write(event=event, kind="sanction", what="applied_to_game" if applied else "register_only",
                  at=sanction.decided_at, by=sanction.decided_by, character=sanction.character,
                  detail={"sanction": sanction.pk, "kind": sanction.kind, "action": action})
    publish_characters_on_commit([sanction.character_id])


@transaction.atomic
def sanction_revoke(*, sanction: Sanction, reason: str, by) -> Sanction:
    """The organisers (after the committee's review, when needed) lift a sanction: it
    stays on the register, marked revoked, and no longer keeps the member out nor counts
    for B13. It does not bring a player back into a game they were taken out of."""
    # of=("self",): PostgreSQL locks no row on the nullable side of the join to the event.
    sanction = (Sanction.objects.select_for_update(of=("self",)).select_related("event")
                .get(pk=sanction.pk))
    if sanction.event is None or not is_narrator(by, sanction.event):
        raise RuleRefused("revoke_needs_organiser")
    if sanction.revoked_at is not None:
        raise RuleRefused("sanction_revoked_already", at=local_text(sanction.revoked_at),
                          who=sanction.revoked_by.get_username() if sanction.revoked_by else "?")
    now = timezone.now()
    sanction.revoked_at, sanction.revoked_by, sanction.revoked_reason = now, by, reason
    sanction.save(update_fields=["revoked_at", "revoked_by", "revoked_reason"])
    journal_write(event=sanction.event, kind="sanction", what="revoked", at=now, by=by,
                  character=sanction.character,
                  detail={"sanction": sanction.pk, "member": sanction.member_id,
                          "kind": sanction.kind, "reason": reason,
                          "decided_by": by.get_username()})
    return sanction
