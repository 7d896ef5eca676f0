"""The body map of rulesets that track damage by location (Septenario de Normas): which
limbs are useless or stunned and until when, the armour left in this Conflict and for
the next ones, and when the current Conflict ends. Read-only; the rules core owns the
values."""
from __future__ import annotations

from rulesets import CharacterState, Rules
from rulesets.body import armour_base


def body_view(rules: Rules, state: CharacterState, sheet: dict, game_s: float,
              wall_time=lambda game_s: None) -> dict | None:
    """`wall_time(game_s)` gives the instant a deadline falls at (None while paused), as
    timers carry it, so a phone counts down without working it out."""
    body = rules.ruleset.body
    if not body:
        return None
    limbs = state.values.get(body["limbs_value"]) or {}
    damage = state.values.get(body["damage_value"]) or []
    locations = []
    for key, label in body["locations"].items():
        points = [p for p in damage if p["location"] == key]
        status = limbs.get(key) or ("wounded" if points else "ok")
        until = min((p["expires_at"] for p in points if p.get("expires_at") is not None),
                    default=None) if status == "stunned" else None
        at = wall_time(until) if until else None
        locations.append({"key": key, "label": label, "status": status, "points": len(points),
                          "until_game_s": until,
                          "remaining_s": round(max(0.0, until - game_s), 3) if until else None,
                          "at": at.isoformat() if at else None})
    conflict = _conflict(state, game_s, wall_time)
    return {"locations": locations, "damage_points": len(damage),
            "armour": _armour(rules, state, sheet, in_conflict=conflict is not None),
            "conflict": conflict}


def _conflict(state: CharacterState, game_s: float, wall_time=lambda game_s: None) -> dict | None:
    until = state.values.get("conflict_until")
    if until is None or until <= game_s:
        return None
    at = wall_time(until)
    return {"until_game_s": until, "remaining_s": round(until - game_s, 3),
            "at": at.isoformat() if at else None}


def _armour(rules: Rules, state: CharacterState, sheet: dict, *, in_conflict: bool) -> dict | None:
    kind = sheet.get("armour") or "none"
    if kind == "none":
        return None
    base = armour_base(rules.for_sheet(sheet), sheet)  # as the hits count it
    next_conflict = max(0, base - int(state.values.get("armour_lost") or 0))
    return {"kind": kind, "base": base, "next_conflict": next_conflict,
            "left_now": int(state.values.get("armour_left") or 0) if in_conflict else next_conflict}
