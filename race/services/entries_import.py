"""The race's entries from a spreadsheet (the registrations taken before the night), all
or nothing, like the roster of a game (players/roster_services.py) and the finger
readout: every row checked first, every bad line listed with its number (the header is
line 1) and reason, nothing imported if any is bad.

Columns (any order, any case; French and Spanish names too): `name`, `course`, `finger`,
`phone`, then optional `kind` (solo or team; a row with members is a team), `members`
(separated by `|`, `,` or `;` inside the cell), `carrier`, `deposit` (yes/no). A finger
already given (in the race or higher in the file) is a bad line, so the same file twice
never registers anyone twice.
"""
from __future__ import annotations

import re

from django.db import transaction
from django.utils import timezone

from common.csv_rows import CsvRejected, cell_text, csv_table
from common.i18n import message_labels
from common.locks import REGISTRATION, xact_lock
from common.numbers import whole_number
from players.models import Event, JournalEntry
from players.services import actor_label, characters_create
from rulesets import RuleRefused

from ..labels import say
from ..models import Course, Entry
from ..readout import FINGER_MAX
from ..publish import race_changed_on_commit
from .entries import carrier_among, members_check, phone_check

MAX_ROWS = 5000
NAME_MAX = Entry._meta.get_field("name").max_length
ALIASES = {
    "name": {"name", "nom", "nombre"},
    "course": {"course", "parcours", "recorrido", "carrera"},
    "finger": {"finger", "doigt", "dedo", "si", "chip", "puce"},
    "phone": {"phone", "téléphone", "telephone", "teléfono", "telefono", "tel"},
    "kind": {"kind", "type", "tipo"},
    "members": {"members", "membres", "miembros"},
    "carrier": {"carrier", "porteur", "portador"},
    "deposit": {"deposit", "caution", "fianza", "depósito", "deposito"},
}
REQUIRED = ("name", "course", "finger", "phone")
KINDS = {"solo": Entry.SOLO, "team": Entry.TEAM, "équipe": Entry.TEAM, "equipe": Entry.TEAM,
         "equipo": Entry.TEAM}
YES = {"1", "x", "yes", "y", "true", "oui", "o", "si", "sí", "s"}
NO = {"", "0", "no", "n", "false", "non", "-"}


def _columns(header: list[str]) -> dict[str, int]:
    canonical = {alias: key for key, aliases in ALIASES.items() for alias in aliases}
    keys = [canonical.get(name) for name in header]
    missing = [key for key in REQUIRED if key not in keys]
    unknown = [name for name, key in zip(header, keys) if key is None]
    if missing or unknown or len(set(keys)) != len(keys):
        raise CsvRejected([{"line": 1, "reason": say(
            "entries_header", found=", ".join(header) or "-")}])
    return {key: i for i, key in enumerate(keys)}


def _row(cells: dict, courses: dict, fingers: dict) -> dict:
    """One row as entry_register's arguments, or RuleRefused naming the problem."""
    name = cells["name"]
    if not name or len(name) > NAME_MAX:
        raise RuleRefused("bad_input", detail=say("entries_name", max=str(NAME_MAX)))
    course = courses.get(cells["course"].casefold())
    if course is None:
        raise RuleRefused("bad_input", detail=say("unknown_course", course=cells["course"][:60],
                                                  known=", ".join(c.name for c in courses.values()) or "-"))
    finger = whole_number(cells["finger"], minimum=1, maximum=FINGER_MAX)
    if finger is None:
        raise RuleRefused("bad_input", detail=say("csv_finger", value=cells["finger"][:40]))
    if finger in fingers:
        raise RuleRefused("race_finger_taken", finger=str(finger), name=fingers[finger])
    members = [m for m in re.split(r"[|,;]", cells.get("members", "")) if m.strip()]
    kind = KINDS.get(cells.get("kind", "").lower(), None if cells.get("kind") else
                     (Entry.TEAM if members else Entry.SOLO))
    if kind is None:
        raise RuleRefused("bad_input", detail=say("entries_kind", value=cells["kind"][:40]))
    members = members_check(kind, members)
    deposit = cells.get("deposit", "").lower()
    if deposit not in YES | NO:
        raise RuleRefused("bad_input", detail=say("entries_deposit", value=cells["deposit"][:40]))
    carrier = cells.get("carrier", "")
    return {"name": name, "course": course, "finger": finger, "kind": kind,
            "phone": phone_check(cells["phone"]), "members": members, "deposit": deposit in YES,
            "carrier": carrier_among(carrier, members, name) if carrier else (members[0] if members else "")}


def _rows(event: Event, text: str) -> list[dict]:
    header, table, bad = csv_table(text, max_rows=MAX_ROWS)
    columns = _columns(header)
    courses = {c.name.casefold(): c for c in Course.objects.filter(event=event)}
    fingers = dict(Entry.objects.filter(event=event).values_list("finger", "name"))
    rows = []
    for line, values in table:
        cells = {key: cell_text(values[i]) for key, i in columns.items()}
        try:
            row = _row(cells, courses, fingers)
        except RuleRefused as refused:
            reason = refused.params["detail"] if refused.code == "bad_input" else \
                message_labels(refused.code, **refused.params)
            bad.append({"line": line, "reason": reason})
            finger = whole_number(cells["finger"], minimum=1, maximum=FINGER_MAX)
            if finger is not None:
                fingers.setdefault(finger, cells["name"])
            continue
        fingers[row["finger"]] = row["name"]
        rows.append(row)
    if not table and not bad:
        bad.append({"line": 1, "reason": say("entries_empty")})
    if bad:
        raise CsvRejected(bad)
    return rows


@transaction.atomic
def entries_import(*, event: Event, text: str, by) -> dict:
    """Every row an entry with its login (a character, as entry_register makes one), or
    none (CsvRejected with every bad line)."""
    # One registration at a time per race, so that the finger check holds; not the event's
    # row, which a pause or an Emergencia must get at once (common/locks.py).
    xact_lock(REGISTRATION, event.pk)
    return entry_rows_register(event=event, rows=_rows(event, text), by=by)


def entry_rows_register(*, event: Event, rows: list[dict], by) -> dict:
    """Rows checked by an import (this CSV one, or race/services/iof_import.py), each an
    entry with its login; inside the import's transaction, holding its REGISTRATION lock."""
    characters = characters_create(event=event, by=by, rows=[
        {"name": row["name"], "sheet": {}, "kits": {}, "team": None} for row in rows])
    now = timezone.now()
    entries = Entry.objects.bulk_create([
        Entry(event=event, course=row["course"], character=character, kind=row["kind"],
              name=row["name"], members=row["members"], carrier=row["carrier"], finger=row["finger"],
              phone=row["phone"], club=row.get("club", ""),
              deposit_taken_at=now if row["deposit"] else None)
        for row, character in zip(rows, characters)], batch_size=1000)
    label, game_s = actor_label(by, event), event.game_time(now)
    JournalEntry.objects.bulk_create([JournalEntry(
        event=event, character=entry.character, actor=by, actor_label=label, kind="race",
        what="entry:registered", at=now, game_s=game_s, detail={
            "entry": entry.pk, "course": entry.course.name, "kind": entry.kind, "finger": entry.finger,
            "members": entry.members, "deposit_taken": entry.deposit_taken_at is not None,
            "imported": True}) for entry in entries], batch_size=1000)
    race_changed_on_commit(event_id=event.pk, entry_ids=[e.pk for e in entries],
                           course_ids=sorted({e.course_id for e in entries}))
    return {"imported": len(entries),
            "entries": [{"id": e.pk, "name": e.name, "finger": e.finger, "course": e.course.name,
                         "code": e.character.code} for e in entries]}
