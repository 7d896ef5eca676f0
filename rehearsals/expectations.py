"""A character's and the clock's `expect:` in a rehearsal file (docs/rehearse.md): read
with the file, then compared with what the phones show (the character's snapshot) after
each step is played. The fights a character's phone shows are fight_expectations.py;
a race's entries and safety board, race_expectations.py.
"""
from __future__ import annotations

from effects.selectors.load import STATUSES as LOAD_STATUSES
from players.models import Event, JournalEntry

from players.selectors import clock_snapshot

from rehearsals.fight_expectations import fights_diff, read_fight_checks
from rehearsals.game_reading import game_diff, read_game_checks
from rehearsals.script import CHECK_KEYS, CLOCK_KEYS, checked_mapping, format_time, parse_time


LOAD_FIELDS = ("total", "capacity", "status", "items")


# -- reading ---------------------------------------------------------------------------
def read_clock_checks(reader, raw) -> None:
    checks = checked_mapping(raw, "expect.clock", CLOCK_KEYS)
    for key in ("game", "next_game"):
        if key in checks:
            read_game_checks(reader, f"expect.clock.{key}", checks[key])
    if "running" in checks and not isinstance(checks["running"], bool):
        raise ValueError("expect.clock.running: true or false")
    if "game_time" in checks:
        parse_time(checks["game_time"], "expect.clock.game_time")


def read_character_checks(reader, who: str, raw) -> None:
    """`reader` is step_reading.StepReader (the ruleset and the characters of the file)."""
    checks = checked_mapping(raw, f"expect.{who}", CHECK_KEYS)
    where = f"expect.{who}"
    rs = reader.ruleset
    for key in ("state", "next"):
        if key in checks and not (checks[key] is None and key == "next") \
                and checks[key] not in rs.states:
            raise ValueError(f"{where}.{key}: unknown state '{checks[key]}'")
    if "inert" in checks and not isinstance(checks["inert"], bool):
        raise ValueError(f"{where}.inert: true or false")
    if checks.get("next_in") is not None:
        parse_time(checks["next_in"], f"{where}.next_in")
    timers = checked_mapping(checks.get("timers"), f"{where}.timers", set(rs.timers))
    for name, value in timers.items():
        if value is not None:
            parse_time(value, f"{where}.timers.{name}")
    checked_mapping(checks.get("points"), f"{where}.points", set(rs.points))
    checked_mapping(checks.get("kits"), f"{where}.kits", set(rs.kits))
    checked_mapping(checks.get("values"), f"{where}.values", set(rs.values))
    effects = checks.get("effects", [])
    if not isinstance(effects, list) or not all(isinstance(t, str) for t in effects):
        raise ValueError(f"{where}.effects: a list of effect texts")
    if "fights" in checks:
        read_fight_checks(reader, f"{where}.fights", checks["fights"])
    for key in ("can", "cannot"):
        able = checks.get(key, [])
        if not isinstance(able, list) or any(c not in rs.capabilities for c in able):
            raise ValueError(f"{where}.{key}: a list among {', '.join(rs.capabilities) or 'none'}")
    reminders = checks.get("reminders", [])
    if not isinstance(reminders, list) or not all(isinstance(t, str) for t in reminders):
        raise ValueError(f"{where}.reminders: a list of texts (each a part of a reminder)")
    revealed = checked_mapping(checks.get("revealed"), f"{where}.revealed", {"state"})
    if revealed.get("state") is not None and revealed["state"] not in rs.states:
        raise ValueError(f"{where}.revealed.state: unknown state '{revealed['state']}'")
    if "load" in checks:
        if not rs.load:
            raise ValueError(f"{where}.load: the ruleset {rs.key} has no Carga")
        load = checked_mapping(checks["load"], f"{where}.load", set(LOAD_FIELDS))
        if load.get("status") not in (None, *LOAD_STATUSES):
            raise ValueError(f"{where}.load.status: one of {', '.join(LOAD_STATUSES)}")


# -- comparing, after each step --------------------------------------------------------
def clock_diff(checks: dict, event: Event, now) -> list[str]:
    lines = []
    if "running" in checks:
        lines += compare("clock.running", checks["running"], event.running)
    if "game_time" in checks:
        lines += compare("clock.game_time", checks["game_time"], event.game_time(now), time=True)
    shown = clock_snapshot(event, now)       # what every phone shows of the day's games
    for key in ("game", "next_game"):
        if key in checks:
            lines += game_diff(f"clock.{key}", checks[key], shown[key], compare)
    return lines


def character_diff(key: str, checks: dict, snapshot: dict, kits: dict, names: dict,
                   phone: dict) -> list[str]:
    """Only the fields the file names are compared; None means absent (no next
    transition, a timer not running, points hidden in this state). `phone`: what the
    phone was told during the step (phone_seen)."""
    upcoming = snapshot["next"]
    seen = {
        "state": snapshot["state"]["key"],
        "inert": snapshot["state"]["inert"],
        "next": upcoming["leads_to"]["key"] if upcoming else None,
        "next_in": upcoming["remaining_s"] if upcoming else None,
        "effects": sorted(e["text"] for e in snapshot["effects"]),
    }
    groups = {
        "timers": {t["key"]: t["remaining_s"] for t in snapshot["timers"]},
        "points": {p["key"]: p["value"] for p in snapshot["points"]},
        "kits": {k: int(n) for k, n in kits.items()},
        "values": snapshot["values"],
    }
    lines = []
    for field, want in checks.items():
        if field in groups:
            for name, wanted in want.items():
                got = groups[field].get(name, 0 if field == "kits" else None)
                lines += compare(f"{key}.{field}.{name}", wanted, got, time=field == "timers")
        elif field == "effects":
            lines += compare(f"{key}.effects", sorted(want), seen["effects"])
        elif field == "fights":
            lines += fights_diff(key, want, snapshot["fights"], names, compare)
        elif field in ("can", "cannot"):
            able = _able(snapshot)[field]
            lines += [f"{key}.{field}: expected {c} in it, got [{', '.join(able)}]"
                      for c in want if c not in able]
        elif field == "reminders":
            lines += _reminders_diff(key, want, phone["reminders"])
        elif field == "revealed":
            lines += compare(f"{key}.revealed", want, phone["revealed"])
        elif field == "load":
            load = snapshot["load"] or {}
            seen_load = {**load, "items": sorted(i["name"] for i in load.get("items", []))}
            for name, wanted in want.items():
                lines += compare(f"{key}.load.{name}", sorted(wanted) if name == "items"
                                 else wanted, seen_load.get(name))
        else:
            lines += compare(f"{key}.{field}", want, seen[field], time=field == "next_in")
    return lines


def _able(snapshot: dict) -> dict:
    """What the player may do now: the state's capabilities, less what a running fight
    forbids (a medic healing cannot shoot)."""
    held_back = {c["key"] for f in snapshot["fights"] for c in f.get("cannot") or []}
    can = [c["key"] for c in snapshot["state"]["can"] if c["key"] not in held_back]
    cannot = list(dict.fromkeys([c["key"] for c in snapshot["state"]["cannot"]] + sorted(held_back)))
    return {"can": can, "cannot": cannot}


def _reminders_diff(key: str, want: list, seen: list) -> list[str]:
    """Each text written is part of one reminder, in order, and no reminder is left over."""
    if len(want) == len(seen) and all(w in s for w, s in zip(want, seen)):
        return []
    return [f"{key}.reminders: expected {show_value(want)}, got {show_value(seen)}"]


def phone_seen(character_id: int, since_journal_id: int) -> dict:
    """What the character's phone was told at the step's instant: the rules' reminders (in
    English) in the journal lines written since `since_journal_id`, and what its latest
    treatment as a medic revealed ({} when none, or aborted)."""
    from health.models import Treatment    # read here only, for an `expect:` that asks
    rows = JournalEntry.objects.filter(character_id=character_id, id__gt=since_journal_id)
    reminders = [e["text"].get("en", "") for row in rows.order_by("id")
                 for e in (row.detail or {}).get("events") or [] if e.get("kind") == "reminder"]
    latest = Treatment.objects.filter(medic_id=character_id).order_by("-pk").first()
    revealed = dict((latest.result or {}).get("revealed") or {}) if latest else {}
    return {"reminders": reminders, "revealed": revealed}


def compare(path: str, want, got, *, time: bool = False) -> list[str]:
    if time:
        want = None if want is None else parse_time(want)
        same = (want is None) == (got is None) and (want is None or abs(got - want) < 0.5)
        show = (lambda v: "none" if v is None else format_time(v))
    else:
        # 0 must not pass for false, nor 1 for true
        same = want == got and isinstance(want, bool) == isinstance(got, bool)
        show = show_value
    return [] if same else [f"{path}: expected {show(want)}, got {show(got)}"]


def show_value(value) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "[" + ", ".join(f'"{v}"' for v in value) + "]"
    return str(value)
