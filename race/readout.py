"""Reading the electronic punching system's readout (a CSV file): the columns, the rows,
the times. Pure: what a row means for an entry is the service's business
(race/services/punches.py). Every problem is kept with its line number, so that the
organiser fixes the whole file in one go.

Accepted: a header naming the columns `finger,checkpoint,time` or the French
`doigt,balise,heure` (any order, any case, other columns ignored), separated by commas,
semicolons or tabs. A time is `HH:MM:SS` (the race's time zone, on the race night) or
ISO 8601 (`2026-06-06T21:14:05+02:00`; without an offset, the race's time zone).
The reading software's own per-card export is read too (race/si_readout.py).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo

from common.csv_rows import csv_table
from common.numbers import whole_number

from .labels import say
from .si_readout import card_rows, is_card_export

MAX_ROWS = 20_000
FINGER_MAX = 2**31 - 1         # the column's integer
ALIASES = {
    "finger": {"finger", "doigt", "si", "si_card", "sicard", "card", "chip", "puce"},
    "checkpoint": {"checkpoint", "balise", "control", "code", "poste"},
    "time": {"time", "heure", "punch_time", "datetime", "horaire"},
}
CLOCK = re.compile(r"^(\d{1,2}):(\d{2}):(\d{2})$")


@dataclass(frozen=True)
class Row:
    line: int
    finger: int
    checkpoint: str
    time: str
    twelve_hour: bool = False     # an SI5 card's clock: no day, no morning or evening


def _columns(header: list[str]) -> dict | None:
    names = header
    found = {}
    for column, aliases in ALIASES.items():
        positions = [i for i, name in enumerate(names) if name in aliases]
        if len(positions) != 1:
            return None
        found[column] = positions[0]
    return found


def read_rows(text: str) -> tuple[list[Row], list[dict]]:
    """(rows, bad rows) from the file's text; line 1 is the header."""
    header, table, bad = csv_table(text, max_rows=MAX_ROWS)
    if is_card_export(header):
        rows, more = card_rows(header, table, Row, FINGER_MAX)
        bad += more
        if not rows and not bad:
            bad.append({"line": 1, "reason": say("csv_empty")})
        return rows, bad
    columns = _columns(header) if header else None
    if columns is None:
        return [], [{"line": 1, "reason": say("csv_header", found=", ".join(header) or "-")}]
    rows = []
    for line, values in table:
        finger = whole_number(values[columns["finger"]], maximum=FINGER_MAX)
        if finger is None:
            bad.append({"line": line, "reason": say("csv_finger", value=values[columns["finger"]].strip()[:40])})
            continue
        rows.append(Row(line, finger, values[columns["checkpoint"]].strip(),
                        values[columns["time"]].strip()))
    if not rows and not bad:
        bad.append({"line": 1, "reason": say("csv_empty")})
    return rows, bad


# A 12-hour clock's punch is read as the first instant after the start showing it; one
# up to this much before the start is read as before it, not eleven hours after.
TWELVE_HOUR_BEFORE = timedelta(hours=1)


def parse_time(raw: str, *, zone: ZoneInfo, anchor: datetime,
               twelve_hour: bool = False) -> datetime | None:
    """The instant a readout time names, or None. HH:MM:SS is taken on the date that puts
    it nearest the anchor (the entry's start), so a night race past midnight reads right;
    on a 12-hour clock (an SI5 card), the first such instant from the start on."""
    match = CLOCK.match(raw)
    if match:
        h, m, s = (int(g) for g in match.groups())
        if h > 23 or m > 59 or s > 59 or (twelve_hour and h > 12):
            return None
        local = anchor.astimezone(zone)
        hours = {h % 12, h % 12 + 12} if twelve_hour else {h}
        candidates = [datetime.combine(local.date() + timedelta(days=d), time(hour, m, s), zone)
                      for d in (-1, 0, 1) for hour in hours]
        if twelve_hour:
            return min(c for c in candidates if c >= anchor - TWELVE_HOUR_BEFORE)
        return min(candidates, key=lambda c: abs((c - anchor).total_seconds()))
    try:
        parsed = datetime.fromisoformat(raw)
    except ValueError:
        return None
    if "T" not in raw and " " not in raw:
        return None                       # a date alone is not a punch time
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=zone)
