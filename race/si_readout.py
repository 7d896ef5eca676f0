"""The punching system's own readout file: the card readout export of SPORTident's
reading software (SPORTident Config+ and SI-Reader, "CSV" export; the layout in
docs/race.md, "The reading software's own file"). One row per card read, separated by
semicolons: `SIID` (the card), then for the clear, check, start and finish stations and
for each punch `Record N`, three columns `CN` (the control's code), `DOW` (the day of the
week) and `time`; `No. of records` says how many punches the row holds.

Pure, like readout.py, whose rows it gives: one row per punch, the line being the card's.
The start, finish, clear and check stations are not balises (the race records its starts
and finishes itself). A card of the SI5 kind keeps a 12-hour clock and writes no day of
the week: its punches are read against the entry's start (readout.parse_time).
"""
from __future__ import annotations

import re

from common.numbers import whole_number

from .labels import say

SIID = ("siid", "si-card")
COUNT = ("no. of records", "no. of punches")
RECORD = re.compile(r"^(?:record (\d+) (cn|dow|time)|(\d+)\.(cn|dow|time))$")
FRACTION = re.compile(r"^(\d{1,2}:\d{2}:\d{2})[.,]\d+$")


def is_card_export(header: list[str]) -> bool:
    """The header (lower case) is the reading software's: a card column and records."""
    return any(name in SIID for name in header) and any(RECORD.match(name) for name in header)


def _records(header: list[str]) -> dict[int, dict[str, int]]:
    """{punch number: {"cn"|"dow"|"time": column}}."""
    found: dict[int, dict[str, int]] = {}
    for column, name in enumerate(header):
        match = RECORD.match(name)
        if match:
            number, part = (match.group(1), match.group(2)) if match.group(1) else match.group(3, 4)
            found.setdefault(int(number), {})[part] = column
    return found


def card_rows(header: list[str], table: list, row_type, finger_max: int) -> tuple[list, list[dict]]:
    """(readout rows, bad rows) of a card export whose header `is_card_export`."""
    card = next(i for i, name in enumerate(header) if name in SIID)
    count = next((i for i, name in enumerate(header) if name in COUNT), None)
    records = _records(header)
    rows, bad = [], []
    for line, values in table:
        finger = whole_number(values[card], maximum=finger_max)
        if finger is None:
            bad.append({"line": line, "reason": say("csv_finger", value=values[card].strip()[:40])})
            continue
        held = whole_number(values[count]) if count is not None and values[count].strip() else None
        for number in sorted(records)[:held]:
            columns = records[number]
            code = values[columns["cn"]].strip() if "cn" in columns else ""
            if not code:
                continue                        # an export pads every row to its widest card
            raw = values[columns["time"]].strip() if "time" in columns else ""
            day = values[columns["dow"]].strip() if "dow" in columns else ""
            rows.append(row_type(line, finger, code, FRACTION.sub(r"\1", raw), twelve_hour=not day))
    return rows, bad
