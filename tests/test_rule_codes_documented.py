"""Every rule code the code cites (G15, A8, GA9a, TS5, P15, B13, Z-A9...) can be looked up:
the file that cites it names the coverage document of its ruleset (docs/rules/*-coverage.md),
and docs/glossary.md lists each family of codes with that document."""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
APPS = ("health", "combat", "effects", "race", "club", "push", "common", "players", "schedule",
        "rulesets", "live", "rehearsals")
CODE = re.compile(r"\b(Z-A|GA|TS|TB|[ABCEGHPRSZ])[0-9]{1,2}[a-z]?\b")
FAMILY = {"G": "gn_fr", "GA": "gn_fr", "A": "gn_fr", "H": "septenario_es",
          "TS": "septenario_es", "E": "septenario_es", "S": "septenario_es",
          "P": "airsoft_rats", "TB": "airsoft_rats", "C": "airsoft_rats", "B": "airsoft_rats",
          "R": "zombie_race", "Z": "zombie_race", "Z-A": "zombie_race"}


def citing_files():
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*")):
            if path.suffix not in (".py", ".yaml") or "migrations" in path.parts:
                continue
            if app == "rehearsals" and path.suffix == ".yaml":
                continue          # timelines, not rules: they quote what they rehearse
            families = {match[1] for match in CODE.finditer(path.read_text(encoding="utf-8"))}
            if families:
                yield path, families


def test_a_file_citing_rule_codes_names_their_coverage_documents():
    unpointed = []
    for path, families in citing_files():
        text = path.read_text(encoding="utf-8")
        for ruleset in sorted({FAMILY[family] for family in families}):
            if f"docs/rules/{ruleset}-coverage.md" not in text:
                unpointed.append(f"{path.relative_to(ROOT)}: {ruleset}")
    assert unpointed == []


def test_the_glossary_lists_every_family_with_its_coverage_document():
    glossary = (ROOT / "docs" / "glossary.md").read_text(encoding="utf-8")
    for family, ruleset in FAMILY.items():
        row = re.search(rf"^\| {re.escape(family)}0?1–{re.escape(family)}\d+ \| {ruleset} \|.*"
                        rf"\(rules/{ruleset}-coverage\.md\) \|$", glossary, re.M)
        assert row, family
