"""A spreadsheet saved as CSV, read the way an organiser sees it: line 1 is the header,
every other line keeps its number as the spreadsheet shows it, blank lines are skipped,
and every problem is kept with its line so that the whole file is fixed in one go.

Shared by every import (the race's finger readout and entries, the roster of
characters, and their management commands): one reading path, whatever the transport
(`text/csv`, `{"csv": text}`, a multipart `file`, a file on disk), so a file reads the
same everywhere:
- bytes are decoded by `csv_text_of`: UTF-8 with or without its BOM, UTF-16 with its BOM
  (Excel's "Unicode text"), otherwise cp1252 (a spreadsheet saved on Windows);
- line endings are normalised: CRLF (Windows), CR alone (Excel for Mac's "CSV
  (Macintosh)") and LF read alike;
- Excel's `sep=;` first line names the separator; otherwise the header's most frequent
  of `,` `;` TAB is;
- a line the csv module cannot read (a cell over MAX_CELL characters, a stray quote) is a
  bad line like any other, never a crash.
What a row means is the importing service's business.
"""
from __future__ import annotations

import codecs
import csv
import io
import re

from django.utils.translation import gettext_noop
from rest_framework import parsers

from rulesets import RuleRefused

from .csv_out import FORMULA_START
from .http import answer
from .i18n import Labels, localize, refusal_text
from .idempotency import idempotent

# No cell of any import holds a paragraph: a name is 100 characters, a members list a few
# hundred. A longer cell is a bad line (the csv module's own limit, 128 KiB, would raise).
MAX_CELL = 1000
TEXTS = {
    "csv_count": gettext_noop("expected {expected} values, found {found}"),
    "csv_too_long": gettext_noop("more than {max} rows"),
    "csv_no_file": gettext_noop("no file was sent"),
    "csv_cell_too_long": gettext_noop("a cell is longer than {max} characters"),
    "csv_unreadable": gettext_noop("the line cannot be read as CSV ({problem})"),
    "csv_utf16_no_bom": gettext_noop(
        "the file looks like UTF-16 without its byte order mark: save it as CSV UTF-8"),
}
SEP_LINE = re.compile(r"^sep=(.)\s*$", re.IGNORECASE)


# The module's texts by key, in every language: say("key", placeholder=value).
say = Labels(TEXTS).say


class CsvRejected(Exception):
    """A file with bad rows: nothing is imported. `rows`: [{"line", "reason"}], the
    reasons as labels ({fr, es, en}); a line with several problems has one entry each."""

    def __init__(self, rows: list[dict]):
        super().__init__(f"{len(rows)} bad row(s)")
        self.rows = sorted(rows, key=lambda row: row["line"])


def csv_text_of(raw: bytes) -> str:
    """The text of a file's bytes, whatever the spreadsheet saved it as (module docstring),
    its line endings normalised; refused with `nul_character` or a UTF-16 hint."""
    if raw.startswith(codecs.BOM_UTF8):
        text = raw[len(codecs.BOM_UTF8):].decode("utf-8", errors="replace")
    elif raw.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        text = raw.decode("utf-16", errors="replace")
    else:
        if _looks_like_utf16(raw):
            raise RuleRefused("bad_input", detail=say("csv_utf16_no_bom"))
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:     # a spreadsheet saved on Windows
            text = raw.decode("cp1252", errors="replace")
    return csv_text_checked(text)


def _looks_like_utf16(raw: bytes) -> bool:
    """ASCII text in UTF-16 has a NUL in every other byte."""
    sample = raw[:200]
    return len(sample) >= 4 and (sample[1::2].count(0) > len(sample) // 4
                                 or sample[0::2].count(0) > len(sample) // 4)


def csv_text_checked(text: str) -> str:
    """A file's text as every import reads it: no BOM, `\\n` line endings, no NUL (which
    PostgreSQL cannot store)."""
    if "\x00" in text:
        raise RuleRefused("nul_character")
    return text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")


def _delimiter(first_line: str) -> str:
    counts = {d: first_line.count(d) for d in (",", ";", "\t")}
    return max(counts, key=counts.get) if any(counts.values()) else ","


def csv_table(text: str, *, max_rows: int) -> tuple[list[str], list[tuple[int, list[str]]], list[dict]]:
    """(the header's names, stripped and in lower case; [(line, values)]; bad rows) of a
    file separated by commas, semicolons or tabs (a French spreadsheet saves with `;`)."""
    text = csv_text_checked(text)
    first, _, rest = text.partition("\n")
    offset, delimiter = 0, _delimiter(first)
    sep = SEP_LINE.match(first)
    if sep:                        # Excel's "sep=;": the line names the separator
        offset, delimiter, text = 1, sep.group(1), rest
    reader = csv.reader(io.StringIO(text), delimiter=delimiter, strict=True)
    header, bad = _header(reader, offset)
    rows = []
    while True:
        try:
            values = next(reader)
        except StopIteration:
            break
        except csv.Error as exc:
            bad.append({"line": reader.line_num + offset, "reason": _unreadable(exc)})
            continue
        line = reader.line_num + offset
        if not any(v.strip() for v in values):
            continue                      # a blank line
        if len(rows) + len(bad) >= max_rows:
            return header, rows, bad + [{"line": line, "reason": say("csv_too_long", max=str(max_rows))}]
        problems = _row_problems(values, len(header))
        if problems:
            bad.extend({"line": line, "reason": reason} for reason in problems)
            continue
        rows.append((line, values))
    return header, rows, bad


def _header(reader, offset: int) -> tuple[list[str], list[dict]]:
    try:
        header = next(reader, None) or []
    except csv.Error as exc:
        return [], [{"line": 1 + offset, "reason": _unreadable(exc)}]
    if any(len(name) > MAX_CELL for name in header):
        return [], [{"line": 1 + offset, "reason": say("csv_cell_too_long", max=str(MAX_CELL))}]
    return [h.strip().lower() for h in header], []


def _row_problems(values: list[str], expected: int) -> list[dict]:
    problems = []
    if len(values) != expected:
        problems.append(say("csv_count", expected=str(expected), found=str(len(values))))
    if any(len(v) > MAX_CELL for v in values):
        problems.append(say("csv_cell_too_long", max=str(MAX_CELL)))
    return problems


def cell_text(value: str) -> str:
    """A cell without the spaces around it, unless removing them would make it start with
    what a spreadsheet runs as a formula (" =1+1" stays as typed; exports escape it)."""
    stripped = value.strip()
    if stripped[:1] in FORMULA_START and value[:1] != stripped[:1]:
        return value
    return stripped


def _unreadable(exc: csv.Error) -> dict:
    if "field larger than field limit" in str(exc):
        return say("csv_cell_too_long", max=str(MAX_CELL))
    return say("csv_unreadable", problem=str(exc)[:80])


class CsvParser(parsers.BaseParser):
    """A file sent as a raw CSV body (Content-Type: text/csv). Its size was checked by
    common.middleware.BodyLimitMiddleware before the view ran."""
    media_type = "text/csv"

    def parse(self, stream, media_type=None, parser_context=None):
        return {"csv": csv_text_of(stream.read() if stream is not None else b"")}


def uploaded_csv_text(data, *, empty: dict | None = None) -> str:
    """The file's text from a parsed request body (a multipart `file`, `{"csv": text}` or a
    text/csv body); refused with `empty` (a label: what the file should hold) when there is none."""
    upload = data.get("file") if hasattr(data, "get") else None
    if upload is not None and hasattr(upload, "read"):
        text = csv_text_of(upload.read())
    else:
        text = data.get("csv") if hasattr(data, "get") else None
        text = csv_text_checked(text) if isinstance(text, str) else None
    if not text or not text.strip():
        raise RuleRefused("bad_input", detail=empty or say("csv_no_file"))
    return text


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
        return run(csv_text_of(data))
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
