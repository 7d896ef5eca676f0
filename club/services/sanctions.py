"""The sanctions register (club rulebook §5): a sanction recorded, with its side in the
game when it takes the player out, and a sanction revoked (each one transaction,
journalled with who decided). Who may decide what is in club/selectors.py."""
# Rule codes: docs/rules/airsoft_rats-coverage.md; their families: docs/glossary.md.
from __future__ import annotations

from datetime import datetime, time, timedelta

from django.db import transaction
from django.utils import timezone

from rulesets import RuleRefused

from players import observers
from players.models import Character, Event
from club.models import Member, Sanction
from club.selectors import (KIND_LABELS, REFEREE, local_text, member_character,
                            member_of_event_club, staff_role)
from players.selectors import is_narrator
from players.services import journal_write

# What takes the player out of the game at once: a sanction-out (P15) and every grave
# sanction (P22). A warning changes nothing in the game.
TAKES_OUT = {Sanction.SANCTION_OUT, Sanction.REMOVED, Sanction.EXPELLED_DAY,
             Sanction.EXCLUDED, Sanction.BANNED}


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


def _sanction_end(kind: str, ends_at: datetime | None, now: datetime) -> datetime | None:
    if kind == Sanction.EXPELLED_DAY and ends_at is None:
        return end_of_day(now)
    if kind != Sanction.EXCLUDED:
        if ends_at is not None:
            raise RuleRefused("end_not_applicable", kind=KIND_LABELS[kind])
        return None
    limit = one_year_after(now)
    if ends_at is None:
        raise RuleRefused("exclusion_end_required", limit=local_text(limit, seconds=True))
    if ends_at <= now:
        raise RuleRefused("exclusion_in_past", asked=local_text(ends_at, seconds=True))
    if ends_at > limit:
        # Over by a second, the two instants differ only in their seconds: show them.
        raise RuleRefused("exclusion_too_long", limit=local_text(limit, seconds=True),
                          asked=local_text(ends_at, seconds=True))
    return ends_at


@transaction.atomic
def sanction_record(*, event: Event, member: Member, kind: str, reason: str, by,
                    character: Character | None = None, cheating: bool = False,
                    ends_at: datetime | None = None, category: str = "") -> Sanction:
    """A sanction on the register, decided by `by` during `event`. Rule B13: a light
    sanction for cheating, when the member already has an unrevoked cheating sanction, is
    recorded as a removal from the game (the least grave sanction of a grave fault); the
    organisers may then add a heavier one. A fault of a `category` the member already
    has an unrevoked sanction for is recorded as a repeat of it ("en cas de récidive
    l'exclusion sera plus sévère": how much more is the organisers' decision, the
    register shows them the earlier one). A member of another club's register is
    refused as unknown."""
    if category and category not in dict(Sanction.CATEGORIES):
        raise RuleRefused("bad_input", detail=f"category '{category}' is not one of "
                          f"{', '.join(c for c, _ in Sanction.CATEGORIES)}")
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
    member = member_of_event_club(event, Member.objects.select_for_update().get(pk=member.pk))
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
    repeat_of = (member.sanctions.filter(category=category, revoked_at__isnull=True)
                 .order_by("-decided_at", "-id").first()) if category else None
    sanction = Sanction.objects.create(
        member=member, event=event, character=character, level=Sanction.LEVEL_OF[kind],
        kind=kind, cheating=cheating, reason=reason, decided_by=by, decided_at=now,
        ends_at=ends_at, escalated_from=asked if kind != asked else "",
        escalated_because=previous if kind != asked else None, category=category,
        repeat_of=repeat_of)
    journal_write(event=event, kind="sanction", what=kind, at=now, by=by, character=character,
                  detail={"sanction": sanction.pk, "member": member.pk,
                          "licence": member.licence_number, "level": sanction.level,
                          "asked": asked, "cheating": cheating, "reason": reason,
                          "ends_at": ends_at.isoformat() if ends_at else None,
                          "escalated_because": previous.pk if kind != asked and previous else None,
                          "category": category or None,
                          "repeat_of": repeat_of.pk if repeat_of else None,
                          "decided_by": by.get_username(), "role": role})
    if kind in TAKES_OUT:
        sanction_game_apply(sanction=sanction)
    return sanction


def sanction_game_apply(*, sanction: Sanction) -> None:
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
    observers.characters_changed.notify(character_ids=[sanction.character_id])


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
