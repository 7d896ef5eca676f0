"""Writes of real-world safety: a call for help, taken, closed; a row of the board marked
seen; a person who left the field; the event's safety settings; a phone's battery; a
runner's last position while the event tracks its race.

Nothing here touches the game: a call pauses no clock and changes no state. Every write
is journalled (kind `safety`) without the call's note or position, which stay in the
call's row, where the person's export and erasure find them (safety/privacy.py)."""
from __future__ import annotations

import math
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from players.models import Character, Event
from players.services import actor_label, journal_write
from race.selectors.entries import character_racing
from rulesets import RuleRefused

from . import publish
from .models import Contact, HelpCall, SafetySettings
from .selectors import event_settings

# A phone's clock may be a little ahead: a tap this far in the future is the same instant.
# An older tap is kept as it came (a phone out of reach for hours): nothing to refuse.
TAP_TOLERANCE_S = 5.0
SILENT_AFTER_MIN_MAX = 24 * 60
JOURNAL = "safety"


def _clean_note(note: str | None) -> str:
    note = (note or "").strip()
    if len(note) > HelpCall.NOTE_MAX:
        raise RuleRefused("bad_input", detail=f"the note is longer than {HelpCall.NOTE_MAX} characters")
    return note


def _position(position: dict | None) -> tuple[float | None, float | None, float | None]:
    if not position:
        return None, None, None
    lat, lng, accuracy = position.get("latitude"), position.get("longitude"), position.get("accuracy_m")
    for name, value, low, high in (("latitude", lat, -90, 90), ("longitude", lng, -180, 180)):
        if not isinstance(value, (int, float)) or not math.isfinite(value) or not low <= value <= high:
            raise RuleRefused("bad_input", detail=f"position.{name} is a number from {low} to {high}")
    if accuracy is not None and (not isinstance(accuracy, (int, float)) or not math.isfinite(accuracy)
                                 or accuracy < 0):
        raise RuleRefused("bad_input", detail="position.accuracy_m is a number of metres, 0 or more")
    return float(lat), float(lng), None if accuracy is None else float(accuracy)


@transaction.atomic
def help_call(*, event: Event, by, kind: str, note: str = "", tapped_at: datetime | None = None,
              position: dict | None = None) -> HelpCall:
    """A call for help from anyone in the event. It reaches every responder at once (their
    open screens, and their locked phones through Web Push) and pauses nothing."""
    if kind not in HelpCall.KINDS:
        raise RuleRefused("bad_input", detail=f"'kind' is one of {', '.join(HelpCall.KINDS)}")
    note = _clean_note(note)
    latitude, longitude, accuracy = _position(position)
    now = timezone.now()
    if tapped_at is not None and tapped_at > now + timedelta(seconds=TAP_TOLERANCE_S):
        raise RuleRefused("tap_in_future", tapped=tapped_at.isoformat(timespec="seconds"),
                          now=now.isoformat(timespec="seconds"))
    tapped = min(tapped_at or now, now)
    character = Character.objects.filter(event=event, user=by).order_by("pk").first()
    call = HelpCall.objects.create(
        event=event, character=character, caller=by, caller_label=actor_label(by, event),
        kind=kind, note=note, tapped_at=tapped, received_at=now,
        latitude=latitude, longitude=longitude, accuracy_m=accuracy)
    journal_write(event=event, kind=JOURNAL, what="help_called", at=now, by=by, character=character,
                  detail={"call": call.pk, "kind": kind, "tapped_at": tapped.isoformat(),
                          "with_position": latitude is not None})
    publish.call_changed_on_commit(call)
    publish.organisers_alerted_on_commit(call)
    return call


def _locked(call: HelpCall) -> HelpCall:
    return (HelpCall.objects.select_for_update(of=("self",))
            .select_related("event", "character__team").get(pk=call.pk))


@transaction.atomic
def help_take(*, call: HelpCall, by) -> HelpCall:
    """"I'm on it": one responder (a narrator or the safety team) takes the call; the others
    and the caller see who. Taken twice by the same one is the same; by another, refused
    with who has it."""
    call = _locked(call)
    if call.status == HelpCall.CLOSED:
        raise RuleRefused("help_closed")
    if call.status == HelpCall.TAKEN:
        if call.taken_by_id == by.pk:
            return call
        raise RuleRefused("help_taken", name=call.taken_by_label)
    now = timezone.now()
    call.status, call.taken_by, call.taken_at = HelpCall.TAKEN, by, now
    call.taken_by_label = actor_label(by, call.event)
    call.save(update_fields=["status", "taken_by", "taken_by_label", "taken_at"])
    journal_write(event=call.event, kind=JOURNAL, what="help_taken", at=now, by=by,
                  character=call.character, detail={"call": call.pk})
    publish.call_changed_on_commit(call)
    return call


@transaction.atomic
def help_close(*, call: HelpCall, by, outcome: str, note: str = "") -> HelpCall:
    """Closed with how it ended. An open call may be closed without being taken (a false
    alarm called off by radio)."""
    if outcome not in HelpCall.OUTCOMES:
        raise RuleRefused("bad_input", detail=f"'outcome' is one of {', '.join(HelpCall.OUTCOMES)}")
    note = _clean_note(note)
    call = _locked(call)
    if call.status == HelpCall.CLOSED:
        raise RuleRefused("help_closed")
    now = timezone.now()
    call.status, call.closed_at, call.outcome, call.outcome_note = HelpCall.CLOSED, now, outcome, note
    call.closed_by_label = actor_label(by, call.event)
    call.save(update_fields=["status", "closed_at", "outcome", "outcome_note", "closed_by_label"])
    journal_write(event=call.event, kind=JOURNAL, what="help_closed", at=now, by=by,
                  character=call.character, detail={"call": call.pk, "outcome": outcome})
    publish.call_changed_on_commit(call)
    return call


def _contact(character: Character) -> Contact:
    contact, _ = Contact.objects.select_for_update().get_or_create(
        character=character, defaults={"event_id": character.event_id})
    return contact


@transaction.atomic
def contact_acknowledge(*, character: Character, by) -> Contact:
    """A responder marks the person's row "seen" (found, called, met on the field)."""
    contact = _contact(character)
    now = timezone.now()
    contact.acknowledged_at, contact.acknowledged_by_label = now, actor_label(by, character.event)
    contact.save(update_fields=["acknowledged_at", "acknowledged_by_label"])
    journal_write(event=character.event, kind=JOURNAL, what="seen", at=now, by=by, character=character)
    publish.board_changed_on_commit(character.event_id)
    return contact


@transaction.atomic
def contact_check_out(*, character: Character, by) -> Contact:
    """"Left the field", by the player or a responder for them. Once: a second check-out
    keeps the first one's time."""
    contact = _contact(character)
    if contact.checked_out_at is not None:
        return contact
    now = timezone.now()
    contact.checked_out_at, contact.checked_out_by_label = now, actor_label(by, character.event)
    # Leaving counts as a contact: they were on the field, and checked in, until now.
    contact.last_seen_at = contact.last_seen_at or now
    contact.save(update_fields=["checked_out_at", "checked_out_by_label", "last_seen_at"])
    journal_write(event=character.event, kind=JOURNAL, what="checked_out", at=now, by=by,
                  character=character)
    publish.board_changed_on_commit(character.event_id)
    return contact


@transaction.atomic
def contact_check_in_again(*, character: Character, by) -> Contact:
    """Back on the field (a responder's correction, or a player who left and returned)."""
    contact = _contact(character)
    if contact.checked_out_at is None:
        return contact
    now = timezone.now()
    contact.checked_out_at, contact.checked_out_by_label, contact.last_seen_at = None, "", now
    contact.save(update_fields=["checked_out_at", "checked_out_by_label", "last_seen_at"])
    journal_write(event=character.event, kind=JOURNAL, what="checked_in", at=now, by=by,
                  character=character)
    publish.board_changed_on_commit(character.event_id)
    return contact


@transaction.atomic
def battery_report(*, character: Character, level: float, charging: bool | None) -> Contact:
    """The phone's battery (navigator.getBattery, 0 to 1), reported by the phone itself."""
    if not isinstance(level, (int, float)) or not math.isfinite(level) or not 0 <= level <= 1:
        raise RuleRefused("bad_input", detail="battery.level is a number from 0 to 1")
    contact = _contact(character)
    now = timezone.now()
    contact.battery_level, contact.battery_charging, contact.battery_at = round(level * 100), charging, now
    contact.last_seen_at = now
    contact.save(update_fields=["battery_level", "battery_charging", "battery_at", "last_seen_at"])
    return contact


@transaction.atomic
def position_record(*, character: Character, latitude: float, longitude: float,
                    accuracy_m: float | None, at: datetime) -> Contact:
    """A runner's phone sends where it is, while the event tracks races for safety and
    their race runs. Only the latest fix is kept (no trail); a fix older than the one kept
    (a slow request overtaken by the next) changes nothing. Not journalled: the journal
    outlives the positions, which follow the person's erasure and the event's retention.
    Only the character's own player sends it (the view reads the character as theirs)."""
    latitude, longitude, accuracy_m = _position(
        {"latitude": latitude, "longitude": longitude, "accuracy_m": accuracy_m})
    if not event_settings(character.event).race_tracking:
        raise RuleRefused("tracking_off")
    if not character_racing(character.pk):
        raise RuleRefused("tracking_not_racing")
    now = timezone.now()
    if at > now + timedelta(seconds=TAP_TOLERANCE_S):
        raise RuleRefused("tap_in_future", tapped=at.isoformat(timespec="seconds"),
                          now=now.isoformat(timespec="seconds"))
    at = min(at, now)
    contact = _contact(character)
    contact.last_seen_at = now
    if contact.position_at is not None and at <= contact.position_at:
        contact.save(update_fields=["last_seen_at"])
        return contact
    contact.latitude, contact.longitude, contact.accuracy_m = latitude, longitude, accuracy_m
    contact.position_at = at
    # No message to the open boards: every runner sends a fix a minute, and the boards read
    # themselves every 30 seconds anyway.
    contact.save(update_fields=["latitude", "longitude", "accuracy_m", "position_at", "last_seen_at"])
    return contact


@transaction.atomic
def settings_store(*, event: Event, by, silent_after_min: int | None = None,
                   battery_low_pct: int | None = None, ends_at: datetime | None = None,
                   ends_at_given: bool = False, race_tracking: bool | None = None) -> SafetySettings:
    found = event_settings(event)
    if silent_after_min is not None:
        if not 1 <= silent_after_min <= SILENT_AFTER_MIN_MAX:
            raise RuleRefused("bad_input", detail=f"silent_after_min is from 1 to {SILENT_AFTER_MIN_MAX}")
        found.silent_after_min = silent_after_min
    if battery_low_pct is not None:
        if not 0 <= battery_low_pct <= 100:
            raise RuleRefused("bad_input", detail="battery_low_pct is from 0 to 100")
        found.battery_low_pct = battery_low_pct
    if ends_at_given:
        found.ends_at = ends_at
    if race_tracking is not None:
        found.race_tracking = race_tracking
    found.save()
    journal_write(event=event, kind=JOURNAL, what="settings", at=timezone.now(), by=by,
                  detail={"silent_after_min": found.silent_after_min,
                          "battery_low_pct": found.battery_low_pct,
                          "ends_at": found.ends_at.isoformat() if found.ends_at else None,
                          "race_tracking": found.race_tracking})
    publish.board_changed_on_commit(event.pk)
    return found
