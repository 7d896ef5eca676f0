"""A spreadsheet saved as CSV, read the way an organiser sees it: line 1 is the header,
every other line keeps its number as the spreadsheet shows it, blank lines are skipped,
and every problem is kept with its line so that the whole file is fixed in one go.

Shared by every import (the race's finger readout and entries, the roster of
characters); what a row means is the importing service's business. A file comes as
`text/csv`, as `{"csv": text}` or as a multipart `file` (`uploaded_csv_text`).
"""
from __future__ import annotations

import csv
import io

from django.utils.translation import gettext_noop
from rest_framework import parsers

from rulesets import RuleRefused

from .http import answer
from .i18n import Labels, localize, refusal_text
from .idempotency import idempotent

TEXTS = {
    "csv_count": gettext_noop("expected {expected} values, found {found}"),
    "csv_too_long": gettext_noop("more than {max} rows"),
    "csv_encoding": gettext_noop("the file is not UTF-8"),
    "csv_no_file": gettext_noop("no file was sent"),
}


# The module's texts by key, in every language: say("key", placeholder=value).
say = Labels(TEXTS).say


class CsvRejected(Exception):
    """A file with bad rows: nothing is imported. `rows`: [{"line", "reason"}], the
    reasons as labels ({fr, es, en})."""

    def __init__(self, rows: list[dict]):
        super().__init__(f"{len(rows)} bad row(s)")
        self.rows = sorted(rows, key=lambda row: row["line"])


def _delimiter(first_line: str) -> str:
    counts = {d: first_line.count(d) for d in (",", ";", "\t")}
    return max(counts, key=counts.get) if any(counts.values()) else ","


def csv_table(text: str, *, max_rows: int) -> tuple[list[str], list[tuple[int, list[str]]], list[dict]]:
    """(the header's names, stripped and in lower case; [(line, values)]; bad rows) of a
    file separated by commas, semicolons or tabs (a French spreadsheet saves with `;`)."""
    text = text.lstrip("\ufeff")
    reader = csv.reader(io.StringIO(text), delimiter=_delimiter(text.split("\n", 1)[0]))
    header = [h.strip().lower().lstrip("\ufeff") for h in next(reader, None) or []]
    rows, bad = [], []
    for values in reader:
        line = reader.line_num
        if not any(v.strip() for v in values):
            continue                      # a blank line
        if len(rows) + len(bad) >= max_rows:
            return header, rows, bad + [{"line": line, "reason": say("csv_too_long", max=str(max_rows))}]
        if len(values) != len(header):
            bad.append({"line": line, "reason": say("csv_count", expected=str(len(header)),
                                                    found=str(len(values)))})
            continue
        rows.append((line, values))
    return header, rows, bad


def _checked(text: str) -> str:
    if "\x00" in text:       # PostgreSQL stores no NUL character (an answer lists rows)
        raise RuleRefused("nul_character")
    return text


class CsvParser(parsers.BaseParser):
    """A file sent as a raw CSV body (Content-Type: text/csv)."""
    media_type = "text/csv"

    def parse(self, stream, media_type=None, parser_context=None):
        try:
            return {"csv": _checked(stream.read().decode("utf-8"))}
        except UnicodeDecodeError:
            raise RuleRefused("bad_input", detail=say("csv_encoding")) from None


def uploaded_csv_text(data, *, empty: dict | None = None) -> str:
    """The file's text from a parsed request body (a multipart `file` or `{"csv": text}`);
    refused with `empty` (a label: what the file should hold) when there is none."""
    upload = data.get("file") if hasattr(data, "get") else None
    if upload is not None and hasattr(upload, "read"):
        raw = upload.read()
        try:
            return _checked(raw.decode("utf-8"))
        except UnicodeDecodeError:  # a spreadsheet saved on Windows
            return _checked(raw.decode("cp1252", errors="replace"))
    text = data.get("csv") if hasattr(data, "get") else None
    if not isinstance(text, str) or not text.strip():
        raise RuleRefused("bad_input", detail=empty or say("csv_no_file"))
    return _checked(text)


def csv_file_import(*, path: str, language: str, run, rejected_label, write, fail) -> dict:
    """A file on the organiser's disk given to an import service (`run(text)`), for a
    management command: each bad line written as `FILE:LINE: reason` in `language`, then
    `fail` (CommandError) with `rejected_label(count)`. The answer of `run` otherwise."""
    try:
        with open(path, "rb") as raw:
            data = raw.read()
    except OSError as exc:
        raise fail(f"{path}: {exc.strerror}") from exc
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:      # a spreadsheet saved on Windows
        text = data.decode("cp1252", errors="replace")
    try:
        return run(_checked(text))
    except CsvRejected as rejected:
        for row in rejected.rows:
            write(f"{path}:{row['line']}: {localize(row['reason'], language)}")
        raise fail(localize(rejected_label(len(rejected.rows)), language)) from None
    except RuleRefused as refused:
        raise fail(refusal_text(refused, language)) from None


def csv_import_answered(request, *, run_import, rejected_detail):
    """An import's answer, once per Idempotency-Key: 201 with what `run_import()` made, or
    400 `csv_rejected` with every bad line and `rejected_detail(count)` as its headline."""
    def run():
        try:
            summary = run_import()
        except CsvRejected as rejected:
            return answer(request, {"error": "csv_rejected", "rows": rejected.rows,
                                    "detail": rejected_detail(len(rejected.rows))}, status=400)
        return answer(request, summary, status=201)
    return idempotent(request, run)
