"""The CSV files the project writes (the journal, the race's results), safe to open in a
spreadsheet: a cell a spreadsheet would run as a formula is written as text.

Excel, LibreOffice and Google Sheets evaluate a cell that starts with `=`, `+`, `-` or
`@`, even after spaces, and treat a leading TAB or CR as a way in too (CSV injection, OWASP):
such a cell gets a leading `'`, which every spreadsheet shows as "this is text". Numbers
(ints, floats, and text that is just a number such as `-3` or `+2.5`) are left as numbers.
A name is stored as typed: only what is written out is escaped.
"""
from __future__ import annotations

import csv
import re

FORMULA_START = ("=", "+", "-", "@")
_NUMBER = re.compile(r"^[+-]?\d+(\.\d+)?$")


def spreadsheet_cell(value):
    """`value` as a CSV cell no spreadsheet would evaluate."""
    if value is None or isinstance(value, (bool, int, float)):
        return value
    text = str(value)
    if _NUMBER.match(text):
        return text
    if text[:1] in ("\t", "\r", "\n") or text.lstrip()[:1] in FORMULA_START:
        return "'" + text
    return text


class SafeWriter:
    """csv.writer whose every cell goes through `spreadsheet_cell`."""

    def __init__(self, out, **kwargs):
        self._writer = csv.writer(out, **kwargs)

    def writerow(self, row) -> None:
        self._writer.writerow([spreadsheet_cell(value) for value in row])
