"""Reads of real-world safety: who answers for it, calls for help as each reader may see
them, and the safety board. The event's responders (its narrators and its safety team) see
every call and the board, with the runners' last positions when the event tracks its
races; a caller sees only their own calls and their own tracking state, and never a
position, a battery or a call of anyone else."""
from __future__ import annotations

from datetime import datetime, timedelta

from rest_framework.exceptions import NotFound

from players.models import Character, Event, Membership
from players.selectors import is_narrator, is_safety_member
from race.selectors.entries import character_racing

from .models import Contact, HelpCall, SafetySettings, SitePlan
from .placement import Placement, Point

RECENT_CLOSED = 20


def is_safety_responder(user, event: Event) -> bool:
    """Whether the user answers the event's calls for help: a narrator, or a member of its
    safety team. The safety team's rights stop there: the game stays the narrators'."""
    return is_narrator(user, event) or is_safety_member(user, event)


def event_for_safety(user, event_id: int) -> Event:
    """The event if the user is one of its safety responders; anyone else gets 404, as for
    every event they have no part in."""
    event = Event.objects.filter(pk=event_id).first()
    if event is None or not is_safety_responder(user, event):
        raise NotFound()
    return event


def character_for_safety(user, character_id: int) -> tuple[Character, bool]:
    """The character, with whether the user acts on it as a safety responder (False: as its
    own player). Anyone else gets 404: a player cannot even learn another id exists."""
    character = Character.objects.select_related("event").filter(pk=character_id).first()
    if character is None:
        raise NotFound()
    if character.user_id == user.pk:
        return character, False
    if is_safety_responder(user, character.event):
        return character, True
    raise NotFound()


def iso(at: datetime | None) -> str | None:
    return at.isoformat() if at else None


def plan_of(event_id: int) -> SitePlan | None:
    """The event's site plan, without its image (read only where it is served)."""
    return SitePlan.objects.defer("image").filter(event_id=event_id).first()


def placement_of(plan: SitePlan | None) -> Placement | None:
    """Where the plan lies on the ground, once its points are placed."""
    if plan is None or not plan.points:
        return None
    return Placement([Point(**p) for p in plan.points], plan.width, plan.height)


def plan_view(plan: SitePlan | None) -> dict | None:
    if plan is None:
        return None
    return {"image_url": f"/api/events/{plan.event_id}/safety/plan/image/?v={plan.digest[:12]}",
            "width": plan.width, "height": plan.height, "points": plan.points,
            "placed": bool(plan.points), "uploaded_at": iso(plan.uploaded_at),
            "placed_at": iso(plan.placed_at)}


def plan_image(event: Event) -> SitePlan | None:
    return SitePlan.objects.filter(event=event).first()


def plan_position(call: HelpCall | Contact, placement: Placement | None) -> dict | None:
    """Where the call's (or a runner's last) position falls on the plan, in pixels of its image, with its
    accuracy as a radius in pixels; `inside` says whether it is on the image at all."""
    if placement is None or call.latitude is None:
        return None
    x, y = placement.to_pixel(call.latitude, call.longitude)
    radius = call.accuracy_m * placement.pixels_per_metre() if call.accuracy_m is not None else None
    return {"x": round(x, 1), "y": round(y, 1), "radius_px": None if radius is None else round(radius, 1),
            "inside": placement.inside(x, y)}


_OWN_PLAN = object()


def call_view(call: HelpCall, placement: Placement | None | object = _OWN_PLAN) -> dict:
    """A call as its responders (narrators, safety team) see it, with where it falls on the
    event's plan (`placement`: given by a caller that shows many calls, read here
    otherwise)."""
    if placement is _OWN_PLAN:
        placement = placement_of(plan_of(call.event_id))
    character = call.character
    return {
        "id": call.pk, "event": call.event_id, "kind": call.kind, "note": call.note,
        "status": call.status, "tapped_at": iso(call.tapped_at), "received_at": iso(call.received_at),
        "caller": call.caller_label,
        "character": ({"id": character.pk, "name": character.name,
                       "team": character.team.name if character.team_id else None}
                      if character else None),
        "position": ({"latitude": call.latitude, "longitude": call.longitude,
                      "accuracy_m": call.accuracy_m} if call.latitude is not None else None),
        "plan_position": plan_position(call, placement),
        "taken_by": call.taken_by_label or None, "taken_at": iso(call.taken_at),
        "closed_by": call.closed_by_label or None, "closed_at": iso(call.closed_at),
        "outcome": call.outcome or None, "outcome_note": call.outcome_note,
    }


def call_view_for_caller(call: HelpCall) -> dict:
    """What the caller's phone shows: received, who is coming, how it ended."""
    return {"id": call.pk, "event": call.event_id, "kind": call.kind, "status": call.status,
            "tapped_at": iso(call.tapped_at), "received_at": iso(call.received_at),
            "taken_by": call.taken_by_label or None, "taken_at": iso(call.taken_at),
            "closed_at": iso(call.closed_at), "outcome": call.outcome or None}


def _calls():
    return HelpCall.objects.select_related("character__team")


def event_calls(event: Event) -> list[dict]:
    """Every call not closed (the oldest first: it has waited longest), then the last
    closed ones."""
    waiting = _calls().filter(event=event).exclude(status=HelpCall.CLOSED).order_by("received_at", "pk")
    closed = _calls().filter(event=event, status=HelpCall.CLOSED).order_by("-closed_at", "-pk")[:RECENT_CLOSED]
    placement = placement_of(plan_of(event.pk))
    return [call_view(c, placement) for c in [*waiting, *closed]]


def own_calls(event: Event, user) -> list[dict]:
    calls = HelpCall.objects.filter(event=event, caller=user).order_by("-received_at", "-pk")[:RECENT_CLOSED]
    return [call_view_for_caller(c) for c in calls]


def event_settings(event: Event) -> SafetySettings:
    """The event's safety settings (the defaults until an organiser changes one)."""
    return SafetySettings.objects.filter(event=event).first() or SafetySettings(event=event)


def settings_view(found: SafetySettings) -> dict:
    return {"silent_after_min": found.silent_after_min, "battery_low_pct": found.battery_low_pct,
            "ends_at": iso(found.ends_at), "race_tracking": found.race_tracking}


def _row(character: Character, contact: Contact | None, reasons: list[str]) -> dict:
    return {
        "character": {"id": character.pk, "name": character.name,
                      "team": character.team.name if character.team_id else None},
        "reasons": reasons,
        "last_seen_at": iso(contact.last_seen_at) if contact else None,
        "battery": ({"level": contact.battery_level, "charging": contact.battery_charging,
                     "at": iso(contact.battery_at)} if contact and contact.battery_level is not None else None),
        "checked_out_at": iso(contact.checked_out_at) if contact else None,
        "acknowledged_at": iso(contact.acknowledged_at) if contact else None,
        "acknowledged_by": (contact.acknowledged_by_label or None) if contact else None,
    }


def _reasons(contact: Contact, found: SafetySettings, now: datetime, ended: bool) -> list[str]:
    """Why the board lists this person. A row marked seen leaves the silence list until
    it is silent again for the whole delay; low battery leaves it until a new reading."""
    if contact.checked_out_at is not None:
        return []
    reasons = []
    heard = max(filter(None, (contact.last_seen_at, contact.acknowledged_at)))
    if heard <= now - timedelta(minutes=found.silent_after_min):
        reasons.append("silent")
    acknowledged = contact.acknowledged_at
    if (contact.battery_level is not None and contact.battery_level <= found.battery_low_pct
            and not contact.battery_charging
            and (acknowledged is None or contact.battery_at > acknowledged)):
        reasons.append("battery_low")
    if ended:
        reasons.append("not_checked_out")
    return reasons


def runner_positions(event: Event, found: SafetySettings, now: datetime) -> list[dict]:
    """The last position of each runner still out, while the event tracks its races: who,
    where, how precise, and how old the fix is (the phone stops sending at the finish, so
    an old fix says where they were last). Nothing while tracking is off."""
    if not found.race_tracking:
        return []
    contacts = (Contact.objects.filter(event=event, position_at__isnull=False, checked_out_at__isnull=True)
                .select_related("character__team").order_by("character__name", "pk"))
    placement = placement_of(plan_of(event.pk))
    return [{"character": {"id": c.character_id, "name": c.character.name,
                           "team": c.character.team.name if c.character.team_id else None},
             "latitude": c.latitude, "longitude": c.longitude, "accuracy_m": c.accuracy_m,
             "at": iso(c.position_at), "age_s": max(0, round((now - c.position_at).total_seconds())),
             "plan_position": plan_position(c, placement)} for c in contacts]


def tracking_state(character: Character) -> dict:
    """What the runner's own phone needs: whether it should share its position now (the
    event tracks races and this character's race runs), and why not otherwise."""
    if not event_settings(character.event).race_tracking:
        return {"tracking": False, "why_not": "tracking_off"}
    if not character_racing(character.pk):
        return {"tracking": False, "why_not": "tracking_not_racing"}
    return {"tracking": True, "why_not": None}


def safety_board(event: Event, now: datetime, out_for_real: dict[int, dict] | None = None) -> dict:
    """The responders' board: the calls, who is listed and why, and who is still out,
    per event and per team. Checked in is a phone heard from at least once; checked out,
    someone who left the field (safety/services.py). `out_for_real`: who is out of the
    game for a real injury (health/holds.py), listed even if their phone was never seen."""
    found = event_settings(event)
    ended = found.ends_at is not None and now >= found.ends_at
    contacts = (Contact.objects.filter(event=event, last_seen_at__isnull=False)
                .select_related("character__team").order_by("character__name", "pk"))
    rows, per_team, still_out = [], {}, 0
    out_for_real = out_for_real or {}
    for contact in contacts:
        character = contact.character
        if contact.checked_out_at is None:
            still_out += 1
            team = character.team.name if character.team_id else None
            per_team[team] = per_team.get(team, 0) + 1
        reasons = _reasons(contact, found, now, ended)
        if character.pk in out_for_real:
            reasons.append("out_for_real")
        if reasons:
            rows.append(_row(character, contact, reasons))
    listed = {row["character"]["id"] for row in rows}
    unseen = [pk for pk in out_for_real if pk not in listed]
    for character in Character.objects.filter(pk__in=unseen).select_related("team", "safety_contact"):
        rows.append(_row(character, getattr(character, "safety_contact", None), ["out_for_real"]))
    for row in rows:
        held = out_for_real.get(row["character"]["id"])
        row["out_for_real"] = held and {"reason": held["reason"]}
    return {"settings": settings_view(found), "ended": ended, "still_out": still_out,
            "teams": [{"team": team, "still_out": n}
                      for team, n in sorted(per_team.items(), key=lambda kv: (kv[0] is None, kv[0] or ""))],
            "rows": rows, "calls": event_calls(event), "plan": plan_view(plan_of(event.pk)),
            "positions": runner_positions(event, found, now)}


def safety_responder_ids(event: Event) -> list[int]:
    """Who hears of a call: the event's narrators and its safety team (their user ids)."""
    responders = [Membership.NARRATOR, Membership.SAFETY]
    return list(Membership.objects.filter(event=event, role__in=responders)
                .values_list("user_id", flat=True).distinct())

