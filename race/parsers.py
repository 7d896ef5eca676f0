"""A finger readout sent as a raw CSV body (Content-Type: text/csv)."""
from __future__ import annotations

from rest_framework import parsers

from rulesets import RuleRefused

from .labels import say


class CsvParser(parsers.BaseParser):
    media_type = "text/csv"

    def parse(self, stream, media_type=None, parser_context=None):
        raw = stream.read()
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise RuleRefused("bad_input", detail=say("csv_encoding")) from None
        if "\x00" in text:    # PostgreSQL stores no NUL character
            raise RuleRefused("nul_character")
        return {"csv": text}
