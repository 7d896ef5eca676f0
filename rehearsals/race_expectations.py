"""A race's `expect:` in a rehearsal file (docs/rehearse.md): an entry's `race` fields and
the organisers' `safety` board, read with the file, then compared after each step with
the views the phones and the organisers' screens get (race/selectors/boards.py).
"""
from __future__ import annotations

from datetime import datetime
from functools import cached_property

from race.selectors.boards import entries_with_courses, leaderboard, organiser_entry_view, safety_board
from race.labels import say
from race.models import Entry
from race.options import race_options
from race.scoring import REASONS
from rulesets.messages import pick

from rehearsals.race_header import balise_code
from rehearsals.script import SAFETY, checked_mapping, is_number, is_whole, parse_time

STATUSES = ("registered", "racing", "overtime", "finished", "dnf", "disqualified")
IGNORED = REASONS  # every reason a punch may not count (race/scoring.py)
RACE_FIELDS = {"status", "lives", "punches", "found", "late_minutes", "score", "rank",
               "elapsed", "time_left", "carrier", "infractions", "penalty_points", "deposit",
               "review", "warnings"}
DEPOSITS = ("taken", "returned", "none")   # the deposit cheque, as the organisers' desk shows it
PUNCH_FIELDS = {"code", "counted", "reason"}
# What the phones and the organisers' screens warn of a course (race/selectors/boards.py).
WARNINGS = ("points_unconfirmed", "no_checkpoints")
SAFETY_FIELDS = {"still_out", "overdue", "alerted"}


# -- reading ---------------------------------------------------------------------------
def read_race_expectation(reader, key: str, raw) -> None:
    """`safety: {...}`, or an entry's `{race: {...}}`."""
    race = reader.race
    if key == SAFETY:
        checks = checked_mapping(raw, "expect.safety", SAFETY_FIELDS)
        for field, value in checks.items():
            _count_or_keys(race, value, f"expect.safety.{field}")
        return
    where = f"expect.{key}"
    checks = checked_mapping(checked_mapping(raw, where, {"race"}).get("race"), f"{where}.race", RACE_FIELDS)
    if not checks:
        raise ValueError(f"{where}.race: the fields to check, e.g. {{lives: 1, score: 35}}")
    where += ".race"
    course = race["courses"][race["entries"][key]["course"]]
    if "status" in checks and checks["status"] not in STATUSES:
        raise ValueError(f"{where}.status: one of {', '.join(STATUSES)}")
    for field in ("lives", "late_minutes"):
        if field in checks and not is_whole(checks[field]):
            raise ValueError(f"{where}.{field}: a whole number")
    if "score" in checks and checks["score"] is not None and not is_number(checks["score"]):
        raise ValueError(f"{where}.score: a number, or null (disqualified: no score)")
    if "rank" in checks and checks["rank"] is not None and not is_whole(checks["rank"], 1):
        raise ValueError(f"{where}.rank: a rank from 1, or null (not ranked)")
    for field in ("elapsed", "time_left"):
        if checks.get(field) is not None:
            parse_time(checks[field], f"{where}.{field}")
    if "found" in checks:
        found = checks["found"]
        if isinstance(found, list):
            checks["found"] = [_on_course(code, course, f"{where}.found") for code in found]
        elif not is_whole(found):
            raise ValueError(f"{where}.found: a count, or the list of balises counted")
    if "punches" in checks:
        checks["punches"] = _punch_checks(checks["punches"], race, course, f"{where}.punches")
    warnings = checks.get("warnings", [])
    if not isinstance(warnings, list) or any(w not in WARNINGS for w in warnings):
        raise ValueError(f"{where}.warnings: a list among {', '.join(WARNINGS)} ([]: none)")
    _read_desk_checks(checks, where)


def _read_desk_checks(checks: dict, where: str) -> None:
    """What the organisers' desk shows of an entry: its carrier, its infractions (a count or
    their kinds, in order) and their penalty points, its deposit, the life losses flagged
    for review."""
    if "carrier" in checks and not isinstance(checks["carrier"], str):
        raise ValueError(f"{where}.carrier: the member who wears the finger and the belt")
    infractions = checks.get("infractions", 0)
    if not is_whole(infractions) and not (isinstance(infractions, list)
                                          and all(isinstance(k, str) for k in infractions)):
        raise ValueError(f"{where}.infractions: a count, or their kinds in order")
    for field in ("penalty_points", "review"):
        if field in checks and not is_whole(checks[field]):
            raise ValueError(f"{where}.{field}: a whole number")
    if checks.get("deposit", "none") not in DEPOSITS:
        raise ValueError(f"{where}.deposit: one of {', '.join(DEPOSITS)}")


def _on_course(value, course: dict, where: str) -> str:
    code = balise_code(value, where)
    if code not in course["checkpoints"]:
        raise ValueError(f"{where}: balise {code} is not on the entry's course "
                         f"(balises: {', '.join(course['checkpoints'])})")
    return code


def _punched_balise(value, race: dict, course: dict, where: str) -> str:
    """A punch may be of another course's balise: recorded, not counted."""
    code = balise_code(value, where)
    if any(code in c["checkpoints"] for c in race["courses"].values()):
        return code
    return _on_course(code, course, where)     # fails, naming the entry's balises


def _punch_checks(value, race: dict, course: dict, where: str):
    """A count, or the punches in time order: each a balise number (of any course), or
    {code, counted, reason} checked on the fields it gives."""
    if is_whole(value):
        return value
    if not isinstance(value, list):
        raise ValueError(f"{where}: a count, or the list of punches (balise numbers, or "
                         "{code: 31, counted: false, reason: duplicate})")
    out = []
    for number, item in enumerate(value, start=1):
        at = f"{where}[{number}]"
        if not isinstance(item, dict):
            out.append({"code": _punched_balise(item, race, course, at)})
            continue
        item = dict(checked_mapping(item, at, PUNCH_FIELDS))
        if "code" in item:
            item["code"] = _punched_balise(item["code"], race, course, f"{at}.code")
        if "counted" in item and not isinstance(item["counted"], bool):
            raise ValueError(f"{at}.counted: true or false")
        if "reason" in item and item["reason"] not in (*IGNORED, None):
            raise ValueError(f"{at}.reason: one of {', '.join(IGNORED)}, null")
        out.append(item)
    return out


def _count_or_keys(race: dict, value, where: str) -> None:
    if is_whole(value):
        return
    if not isinstance(value, list):
        raise ValueError(f"{where}: a count, or the list of entry keys")
    for key in value:
        if not isinstance(key, str) or key not in race["entries"]:
            raise ValueError(f"{where}: unknown entry {key!r} "
                             f"(entries: {', '.join(race['entries'])})")


# -- comparing, after each step --------------------------------------------------------
def punch_reason(label) -> str | None:
    """The key of a punch's "why it does not count" label (race/labels.py)."""
    if label is None:
        return None
    return next((key for key in IGNORED if say(key) == label), pick(label, "en"))


class RaceSeen:
    """What the phones and the organisers' screens show at the step's instant, read once
    per step: each entry as its survivor sees it, the leaderboard, the safety board.
    `player` is the one playing the file (race_playing.RaceSteps), which knows the
    entries' keys."""

    def __init__(self, player, event, now: datetime):
        self.player, self.event, self.now = player, event, now

    @cached_property
    def views(self) -> dict:
        options = race_options(self.event)
        return {e.pk: organiser_entry_view(e, self.now, options) for e in entries_with_courses(self.event)}

    @cached_property
    def rows(self) -> dict:
        return {row["entry"]["id"]: row for board in leaderboard(self.event, self.now)
                for row in (*board["ranking"], *board["unranked"])}

    @cached_property
    def safety(self) -> dict:
        return safety_board(self.event, self.now)

    def diff(self, key: str, checks: dict, compare) -> list[str]:
        if key == SAFETY:
            return self.safety_diff(checks, compare)
        entry_id = self.player.entries[key]
        view, row = self.views[entry_id], self.rows[entry_id]
        punches = [{"code": p["checkpoint"]["code"], "counted": p["counted"],
                    "reason": punch_reason(p["reason"])} for p in view["punches"]]
        seen = {"status": view["status"]["key"], "lives": view["lives"]["remaining"],
                "late_minutes": view["late_minutes"], "score": _plain(view["score"]),
                "rank": row["rank"], "elapsed": row["elapsed_s"], "time_left": view["time_left_s"],
                "warnings": [w["code"] for w in view["warnings"]], **self.desk(entry_id)}
        lines = []
        for field, want in checks["race"].items():
            where = f"{key}.race.{field}"
            if field == "punches":
                lines += _punches_diff(where, want, punches, compare)
            elif field == "infractions" and is_whole(want):
                lines += compare(where, want, len(seen["infractions"]))
            elif field == "found":
                found = sorted(p["code"] for p in punches if p["counted"])
                lines += compare(where, want if is_whole(want) else sorted(want),
                                 len(found) if is_whole(want) else found)
            else:
                lines += compare(where, want, seen[field], time=field in ("elapsed", "time_left"))
        return lines

    def desk(self, entry_id: int) -> dict:
        entry = Entry.objects.get(pk=entry_id)
        infractions = list(entry.infractions.order_by("at", "pk"))
        deposit = "returned" if entry.deposit_returned_at else \
            ("taken" if entry.deposit_taken_at else "none")
        return {"carrier": entry.carrier, "infractions": [i.kind for i in infractions],
                "penalty_points": sum(i.penalty_points for i in infractions), "deposit": deposit,
                "review": entry.life_losses.filter(review__isnull=False, voided_at__isnull=True)
                .count()}

    def safety_diff(self, checks: dict, compare) -> list[str]:
        keys = self.player.entry_key
        out = [e for course in self.safety["courses"] for e in course["entries"]]
        seen = {"still_out": sorted(keys(e["entry"]["id"]) for e in out),
                "overdue": sorted(keys(e["entry"]["id"]) for e in out if e["overdue_s"] > 0),
                "alerted": sorted(keys(pk) for pk in Entry.objects.filter(
                    event=self.event, alerted_at__isnull=False).values_list("pk", flat=True))}
        lines = []
        for field, want in checks.items():
            got = seen[field]
            if not is_whole(want):
                lines += compare(f"safety.{field}", sorted(want), got)
            elif want != len(got):
                lines.append(f"safety.{field}: expected {want}, got {len(got)}: "
                             f"{', '.join(got) or 'none'}")
        return lines


def _plain(value):
    return int(value) if isinstance(value, float) and value.is_integer() else value


def _punches_diff(where: str, want, seen: list, compare) -> list[str]:
    shown = "; ".join(p["code"] + ("" if p["counted"] else f" ({p['reason']})")
                      for p in seen) or "none"
    if is_whole(want):
        return [] if want == len(seen) else \
            [f"{where}: expected {want} punch(es), got {len(seen)}: {shown}"]
    if len(want) != len(seen):
        return [f"{where}: expected {len(want)} punch(es), got {len(seen)}: {shown}"]
    lines = []
    for number, (wanted, got) in enumerate(zip(want, seen), start=1):
        for field, value in wanted.items():
            lines += compare(f"{where}[{number}].{field}", value, got[field])
    return lines
