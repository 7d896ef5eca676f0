"""French typography in everything a French reader sees: a space (ordinary or no-break)
before ':', ';', '!' and '?'; and none before them in Spanish or English. Checked in the
compiled catalogues the server and the phone read (the .po files match them: see
tests/common/test_catalogue.py and tests/frontend/test_phone_app_files.py) and in the
rules' own French labels."""
from __future__ import annotations

import gettext
import re
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
CATALOGUES = {
    "server": ROOT / "locale" / "{lang}" / "LC_MESSAGES" / "django.mo",
    "phone": ROOT / "frontend" / "locale" / "{lang}" / "LC_MESSAGES" / "djangojs.mo",
}
# Written as a machine reads them, not as prose: a JSON field, a time's format.
TECHNICAL = ('"confirm": true', "HH:MM:SS")
SPACES = " \u00a0\u202f"


def compiled(kind: str, lang: str) -> list[str]:
    with open(str(CATALOGUES[kind]).format(lang=lang), "rb") as mo:
        catalog = gettext.GNUTranslations(mo)._catalog
    return [text for msgid, text in catalog.items() if msgid and isinstance(text, str)]


def rule_labels(lang: str) -> list[str]:
    def walk(node):
        if isinstance(node, dict):
            if isinstance(node.get(lang), str):
                yield node[lang]
            for value in node.values():
                yield from walk(value)
        elif isinstance(node, list):
            for value in node:
                yield from walk(value)
    texts = []
    for path in sorted((ROOT / "rulesets" / "data").glob("*.yaml")):
        texts += list(walk(yaml.safe_load(path.read_text())))
    return texts


def unspaced(text: str) -> bool:
    """A ':' ';' '!' or '?' glued to the word before it (a time, 14:30, is not prose)."""
    for technical in TECHNICAL:
        text = text.replace(technical, "")
    for match in re.finditer(r"[:;!?]", text):
        before, after = text[match.start() - 1:match.start()], text[match.end():match.end() + 1]
        if match.group() == ":" and before.isdigit() and after.isdigit():
            continue
        if before and before not in SPACES:
            return True
    return False


def spaced(text: str) -> bool:
    """A space before ':' ';' '!' or '?' (a French habit) in another language."""
    return re.search(r"[ \u00a0\u202f][:;!?](\s|$)", text) is not None


@pytest.mark.parametrize("kind", sorted(CATALOGUES))
def test_french_puts_a_space_before_the_colon(kind):
    glued = [text for text in compiled(kind, "fr") if unspaced(text)]
    assert glued == [], f"French {kind} texts without a space before : ; ! ? — {glued}"


def test_the_rules_french_labels_put_a_space_before_the_colon():
    glued = [text for text in rule_labels("fr") if unspaced(text)]
    assert glued == [], glued


@pytest.mark.parametrize("kind", sorted(CATALOGUES))
def test_spanish_puts_no_space_before_the_colon(kind):
    assert [text for text in compiled(kind, "es") if spaced(text)] == []


def test_the_check_tells_a_french_colon_from_an_english_one():
    assert unspaced("Arrêt de jeu: tous figés") and not unspaced("Arrêt de jeu : tous figés")
    assert not unspaced("Prochaine partie à 14:30 ?") and unspaced("Touché!")
    assert not unspaced("Combat\u00a0: 2") and spaced("Combate : 2")
