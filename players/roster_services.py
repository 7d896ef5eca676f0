"""An event's roster from a spreadsheet: one character per row, all or nothing.

The file's first line names the columns: `name`, `team` (optional), then any field of
the event's ruleset sheet (rulesets/sheet.py: `combat`, `first_aid`, `kits`...). Every
row is checked before anything is written; a file with a bad line imports nothing, and
the refusal lists every bad line with its number as the spreadsheet shows it (the header
is line 1) and its reason.

A name already in the event, or twice in the file, is a bad line (names compared by
common/names.py: accents composed or not, invisible characters, spaces, case, Cyrillic
look-alikes): importing the same file twice, even re-saved by another program, never makes twins, and a retried upload (the same Idempotency-Key) is
answered from the first one's answer (common/idempotency.py).
"""
from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from common.csv_rows import CsvRejected, cell_text, csv_table
from common.i18n import Labels, message_labels
from common.locks import REGISTRATION, xact_lock
from common.names import name_key
from rulesets import RuleRefused
from rulesets.sheet import sheet_fields, sheet_from_columns

from .models import Character, Event, Team
from .services import characters_create, journal_write

MAX_ROWS = 5000
NAME_MAX = Character._meta.get_field("name").max_length
TEAM_MAX = Team._meta.get_field("name").max_length
# The two columns every roster has, as organisers may write them in their language.
ALIASES = {"name": {"name", "nom", "nombre"}, "team": {"team", "équipe", "equipe", "equipo"}}
TEXTS = {
    "roster_rejected": gettext_noop("file refused, nothing imported: {count} bad line(s)"),
    "roster_header": gettext_noop(
        "the first line names the columns: name, team, then any of {fields}; not known: {found}"),
    "roster_no_name": gettext_noop("the first line has no column 'name'"),
    "roster_twice": gettext_noop("the column '{column}' is named twice"),
    "roster_empty": gettext_noop("the file holds no character"),
    "roster_name_empty": gettext_noop("the name is empty"),
    "roster_too_long": gettext_noop("{column} is longer than {max} characters"),
    "roster_name_taken": gettext_noop("{name} is already a character of this event"),
    "roster_name_twice": gettext_noop("{name} is also on line {line}"),
    "roster_name_like": gettext_noop("{name} is the same name as {existing}, already a character of this event"),
}


# The module's texts by key, in every language: say("key", placeholder=value).
say = Labels(TEXTS).say


def _columns(header: list[str], fields: dict) -> list[str]:
    """The key each column holds (`name`, `team` or a sheet field), or the refusal."""
    canonical = {alias: key for key, aliases in ALIASES.items() for alias in aliases}
    keys = [canonical.get(name, name) for name in header]
    unknown = [name for name, key in zip(header, keys) if key not in ALIASES and key not in fields]
    if unknown:
        raise CsvRejected([{"line": 1, "reason": say(
            "roster_header", fields=", ".join(sorted(fields)) or "-", found=", ".join(unknown))}])
    meant = [fields[key].key if key in fields else key for key in keys]   # `combat` is `combat_base`
    twice = sorted({key for key, field in zip(keys, meant) if meant.count(field) > 1})
    if twice:
        raise CsvRejected([{"line": 1, "reason": say("roster_twice", column=twice[0])}])
    if "name" not in keys:
        raise CsvRejected([{"line": 1, "reason": say("roster_no_name")}])
    return keys


def _rows(event: Event, text: str) -> list[tuple[int, str, str, dict, dict]]:
    """[(line, name, team, sheet, kits)] of a file whose every line is good."""
    rules = event.rules()
    header, table, bad = csv_table(text, max_rows=MAX_ROWS)
    keys = _columns(header, sheet_fields(rules))
    taken = {name_key(n): n for n in Character.objects.filter(event=event).values_list("name", flat=True)}
    seen, rows = {}, []
    for line, values in table:
        cells = dict(zip(keys, (cell_text(v) for v in values)))
        name, team = cells.pop("name"), cells.pop("team", "")
        reason = _name_problem(name, team, taken.get(name_key(name)), seen.get(name_key(name)))
        seen.setdefault(name_key(name), line)
        if reason is None:
            try:
                sheet, kits = sheet_from_columns(rules, cells)
            except RuleRefused as refused:
                reason = message_labels(refused.code, **refused.params)
        if reason is not None:
            bad.append({"line": line, "reason": reason})
        else:
            rows.append((line, name, team, sheet, kits))
    if not table and not bad:
        bad.append({"line": 1, "reason": say("roster_empty")})
    if bad:
        raise CsvRejected(bad)
    return rows


def _name_problem(name: str, team: str, taken: str | None, first_line: int | None) -> dict | None:
    """Why the name cannot be a new character: empty, too long, or the same name (common/names.py)
    as a character of the event (`taken`, as stored) or as the file's line `first_line`."""
    if not name:
        return say("roster_name_empty")
    if len(name) > NAME_MAX:
        return say("roster_too_long", column="name", max=str(NAME_MAX))
    if len(team) > TEAM_MAX:
        return say("roster_too_long", column="team", max=str(TEAM_MAX))
    if taken == name:
        return say("roster_name_taken", name=name)
    if taken is not None:
        return say("roster_name_like", name=name, existing=taken)
    if first_line is not None:
        return say("roster_name_twice", name=name, line=str(first_line))
    return None


@transaction.atomic
def characters_import(*, event: Event, text: str, by) -> dict:
    """Every row of the roster file a character of `event` (characters_create: each with
    its player account, login and initial health), or none (CsvRejected, every bad line listed)."""
    # One import or registration at a time per event, so that the name check holds; not the
    # event's row, which a pause or an Emergencia must get at once (common/locks.py).
    xact_lock(REGISTRATION, event.pk)
    rows = _rows(event, text)
    teams = {name_key(t.name): t for t in Team.objects.filter(event=event)}
    new_teams = []
    for name in dict.fromkeys(team for _, _, team, _, _ in rows if team):
        if name_key(name) not in teams:
            teams[name_key(name)] = Team(event=event, name=name)
            new_teams.append(teams[name_key(name)])
    Team.objects.bulk_create(new_teams)
    created = characters_create(event=event, by=by, rows=[
        {"name": name, "sheet": sheet, "kits": kits, "team": teams[name_key(team)] if team else None}
        for _, name, team, sheet, kits in rows])
    journal_write(event=event, kind="character", what="roster_imported", at=timezone.now(), by=by,
                  detail={"characters": len(created), "teams_created": [t.name for t in new_teams]})
    return {"imported": len(created), "teams_created": [t.name for t in new_teams],
            "characters": [{"id": c.pk, "name": c.name, "code": c.code,
                            "team": c.team.name if c.team else None} for c in created]}
