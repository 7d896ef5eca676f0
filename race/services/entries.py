"""Registration: entries (solo or team) with their finger, phone number, deposit and
gear check; a team's carrier; the zombies' logins."""
# Rule codes: docs/rules/zombie_race-coverage.md; their families: docs/glossary.md.
from __future__ import annotations

import re
import secrets

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.text import slugify

from common.locks import REGISTRATION, xact_lock
from players.models import Event, Membership
from players.services import character_create, journal_write, login_token_issue, membership_grant
from rulesets import RuleRefused

from ..labels import say
from ..models import Course, Entry
from ..publish import race_changed_on_commit
from .common import entry_lock, race_journal

GEAR = ("vest", "light", "phone")
# Digits with the usual separators; 6 to 15 digits (E.164 holds at most 15).
PHONE = re.compile(r"^\+?[0-9 .()\-]{6,30}$")


def members_check(kind: str, members: list[str]) -> list[str]:
    members = [m.strip() for m in members if m.strip()]
    if kind == Entry.TEAM and len(members) < 2:
        raise RuleRefused("bad_input", detail=say("team_members"))
    if kind == Entry.SOLO and members:
        raise RuleRefused("bad_input", detail=say("solo_members"))
    return members


def phone_check(phone: str) -> str:
    phone = phone.strip()
    if not PHONE.match(phone) or not 6 <= sum(c.isdigit() for c in phone) <= 15:
        raise RuleRefused("bad_input", detail=say("bad_phone", phone=phone))
    return phone


@transaction.atomic
def entry_register(*, event: Event, course: Course, name: str, kind: str, finger: int,
                   phone: str, by, members: list[str] | None = None, carrier: str = "",
                   deposit_taken: bool = False) -> Entry:
    """An entry and its login: a character of the event (character_create), so that the
    survivor's phone logs in with a link like in any other game, and whose code is the
    one on the bib's QR."""
    members = members_check(kind, members or [])
    phone = phone_check(phone)
    carrier = carrier_among(carrier, members, name) if carrier else (members[0] if members else "")
    # One registration at a time per race, so that the finger check holds (common/locks.py).
    xact_lock(REGISTRATION, event.pk)
    holder = Entry.objects.filter(event=event, finger=finger).first()
    if holder is not None:
        raise RuleRefused("race_finger_taken", finger=str(finger), name=holder.name)
    character = character_create(event=event, name=name, by=by)
    now = timezone.now()
    entry = Entry.objects.create(event=event, course=course, character=character, kind=kind,
                                 name=name, members=members, carrier=carrier, finger=finger,
                                 phone=phone, deposit_taken_at=now if deposit_taken else None)
    race_journal(entry=entry, what="entry:registered", by=by, at=now, detail={
        "course": course.name, "kind": kind, "finger": finger, "members": members,
        "deposit_taken": deposit_taken})
    race_changed_on_commit(event_id=event.pk, entry_ids=[entry.pk], course_ids=[course.pk])
    return entry


def carrier_among(carrier: str, members: list[str], name: str) -> str:
    for member in members:
        if member.casefold() == carrier.strip().casefold():
            return member
    raise RuleRefused("bad_input", detail=say("not_a_member", carrier=carrier, name=name,
                                              members=", ".join(members) or "-"))


def _registered(entry: Entry) -> None:
    if entry.status != Entry.REGISTERED:
        raise RuleRefused("race_already_started", name=entry.name)


@transaction.atomic
def entry_gear_check(*, entry: Entry, gear: dict, by) -> Entry:
    """Mandatory gear (rulebook): a yellow vest and a light for every member, a charged
    phone with the number given at registration. What is not given keeps its value."""
    entry = entry_lock(entry)
    _registered(entry)
    before = {k: bool(entry.gear.get(k)) for k in GEAR}
    entry.gear = {**before, **{k: bool(v) for k, v in gear.items() if k in GEAR}}
    entry.gear_checked_at = timezone.now()
    entry.save(update_fields=["gear", "gear_checked_at"])
    race_journal(entry=entry, what="entry:gear_checked", by=by, at=entry.gear_checked_at,
                 detail={"before": before, "after": entry.gear})
    race_changed_on_commit(event_id=entry.event_id, entry_ids=[entry.pk])
    return entry


def gear_missing(entry: Entry) -> list[str]:
    return [k for k in GEAR if not entry.gear.get(k)]


@transaction.atomic
def entry_deposit_take(*, entry: Entry, by) -> Entry:
    """The finger is handed over against the deposit cheque."""
    entry = entry_lock(entry)
    _registered(entry)
    if entry.deposit_taken_at is None:
        entry.deposit_taken_at = timezone.now()
        entry.save(update_fields=["deposit_taken_at"])
        race_journal(entry=entry, what="entry:deposit_taken", by=by, at=entry.deposit_taken_at)
        race_changed_on_commit(event_id=entry.event_id, entry_ids=[entry.pk])
    return entry


@transaction.atomic
def entry_carrier_change(*, entry: Entry, carrier: str, by) -> Entry:
    """R12: in a team, whoever wears the finger wears the belt; both move together."""
    entry = entry_lock(entry)
    if entry.kind != Entry.TEAM:
        raise RuleRefused("race_not_team", name=entry.name)
    if entry.status not in (Entry.REGISTERED, Entry.RACING):
        raise RuleRefused("race_not_racing", name=entry.name, status=say(entry.status))
    new = carrier_among(carrier, entry.members, entry.name)
    before, entry.carrier = entry.carrier, new
    entry.save(update_fields=["carrier"])
    race_journal(entry=entry, what="entry:carrier_changed", by=by,
                 detail={"before": before, "after": new})
    race_changed_on_commit(event_id=entry.event_id, entry_ids=[entry.pk])
    return entry


@transaction.atomic
def zombie_create(*, event: Event, name: str, by) -> tuple[object, str]:
    """A zombie's account (no password: a login link), with the zombie role in the race.
    Returns the user and the raw login secret."""
    user = get_user_model().objects.create_user(
        username=f"{slugify(name)[:40] or 'zombie'}-z{event.pk}-{secrets.token_hex(3)}",
        first_name=name[:150])
    membership_grant(event=event, user=user, role=Membership.ZOMBIE)
    journal_write(event=event, kind="race", what="zombie:created", at=timezone.now(), by=by,
                  detail={"zombie": user.get_username(), "name": name})
    return user, login_token_issue(event=event, user=user, by=by)
