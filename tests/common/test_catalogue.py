"""The server's catalogue (locale/<lang>/LC_MESSAGES/django.po): every refusal code has its
text, every text has its French and Spanish, and the compiled .mo says what the .po says."""
from __future__ import annotations

import ast
import gettext
import string
from pathlib import Path

import pytest
from django.utils import translation

from common.i18n import message_text
from common.messages import MESSAGES
from rulesets.messages import REFUSAL_CODES

LOCALE = Path(__file__).resolve().parents[2] / "locale"
LANGS = ("fr", "es")


def _string(lines: list[str]) -> str:
    return "".join(ast.literal_eval(line) for line in lines)


def po_entries(lang: str) -> dict[str, tuple[str, set]]:
    """msgid -> (msgstr, flags) of one .po file (no plurals or contexts: none are used)."""
    entries, flags, field, parts = {}, set(), None, {}
    lines = (LOCALE / lang / "LC_MESSAGES" / "django.po").read_text().splitlines() + [""]
    for line in lines:
        if line.startswith("#,"):
            flags |= {f.strip() for f in line[2:].split(",")}
        elif line.startswith(("msgid ", "msgstr ")):
            if line.startswith("msgid ") and "msgstr" in parts:
                entries[_string(parts["msgid"])] = (_string(parts["msgstr"]), flags)
                flags, parts = set(), {}
            field, _, first = line.partition(" ")
            parts[field] = [first]
        elif line.startswith('"') and field:
            parts[field].append(line)
    if "msgstr" in parts:
        entries[_string(parts["msgid"])] = (_string(parts["msgstr"]), flags)
    entries.pop("", None)
    return entries


def _placeholders(text: str) -> list[str]:
    return sorted(name for _, name, _, _ in string.Formatter().parse(text) if name)


def test_every_refusal_code_has_a_text():
    assert set(MESSAGES) == set(REFUSAL_CODES)


@pytest.mark.parametrize("lang", LANGS)
def test_every_server_text_is_translated(lang):
    entries = po_entries(lang)
    untranslated = sorted(msgid for msgid, (msgstr, flags) in entries.items()
                          if not msgstr or "fuzzy" in flags)
    assert not untranslated, f"{lang}: no translation for {untranslated}"
    missing = sorted(set(MESSAGES.values()) - set(entries))
    assert not missing, f"{lang}: run makemessages (docs/architecture.md): {missing}"


@pytest.mark.parametrize("lang", LANGS)
def test_compiled_catalogue_matches_the_po(lang):
    with open(LOCALE / lang / "LC_MESSAGES" / "django.mo", "rb") as mo:
        compiled = dict(gettext.GNUTranslations(mo)._catalog)
    compiled.pop("", None)
    written = {msgid: msgstr for msgid, (msgstr, flags) in po_entries(lang).items()
               if msgstr and "fuzzy" not in flags}
    assert compiled == written, f"{lang}: run compilemessages (docs/architecture.md)"


@pytest.mark.parametrize("lang", LANGS)
def test_translations_keep_the_placeholders(lang):
    for msgid, (msgstr, _) in po_entries(lang).items():
        assert _placeholders(msgstr) == _placeholders(msgid), f"{lang}: {msgid!r} -> {msgstr!r}"


def test_a_refusal_reads_in_each_language():
    params = {"action": {"fr": "Soin", "es": "Cura", "en": "Heal"}, "remaining": 12}
    assert message_text("not_ready", params, "en") == "Heal is not finished: 12 s left."
    assert message_text("not_ready", params, "fr") == "Soin n'est pas terminé : encore 12 s."
    assert message_text("not_ready", params, "es") == "Cura no ha terminado: quedan 12 s."
    # Rendering a text does not change the language the request is answered in.
    with translation.override("es"):
        message_text("not_ready", params, "fr")
        assert translation.get_language() == "es"
