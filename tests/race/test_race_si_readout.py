"""The punching system's own readout file: the reading software's per-card export (one
row per card, numbered record columns), written here from its documented layout
(docs/race.md), imports to the same punches as the race's own CSV; an SI5 card's 12-hour
clock is read against the entry's start, past midnight too."""
from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from race.models import Punch
from racekit import post

pytestmark = pytest.mark.django_db
PARIS = ZoneInfo("Europe/Paris")
RECORDS = 10
HEAD = ("No;Read on;SIID;Start no;Clear CN;Clear DOW;Clear time;Clear_r CN;Clear_r DOW;Clear_r time;"
        "Check CN;Check DOW;Check time;Start CN;Start DOW;Start time;Start_r CN;Start_r DOW;"
        "Start_r time;Finish CN;Finish DOW;Finish time;Finish_r CN;Finish_r DOW;Finish_r time;"
        "Class;First name;Last name;Club;Country;Email;Date of birth;Sex;Phone;Street;ZIP;City;"
        "Hardware version;Software version;Battery date;Battery voltage;Clear count;Character set;"
        "SEL_FEEDBACK;No. of records;"
        + ";".join(f"Record {n} CN;Record {n} DOW;Record {n} time" for n in range(1, RECORDS + 1)))


def card_row(no: int, card: int, start: tuple, finish: tuple, punches: list[tuple], name=("", "")) -> str:
    """One card read: (CN, DOW, time) for the start, the finish and each punch."""
    stations = ["", "", ""] * 3 + list(start) + ["", "", ""] + list(finish) + ["", "", ""]
    person = ["", name[0], name[1]] + [""] * 16
    records = [value for punch in punches for value in punch]
    records += [""] * (3 * RECORDS - len(records))
    return ";".join([str(no), "07.06.2026 01:05:12", str(card), ""] + stations + person
                    + [str(len(punches))] + records)


# Lucie's card has a 24-hour clock and days (Sa, Su); Paul's is an SI5: 12-hour, no day.
READOUT = "\n".join([
    HEAD,
    card_row(1, 101, ("1", "Sa", "22:00:00"), ("2", "Su", "00:35:00"),
             [("31", "Sa", "22:20:00"), ("32", "Sa", "23:40:00.000"), ("33", "Su", "00:10:00")],
             name=("Lucie", "Morel")),
    card_row(2, 202, ("1", "", "10:00:00"), ("2", "", "00:40:00"),
             [("31", "", "10:50:00"), ("34", "", "11:59:00"), ("33", "", "00:20:00")]),
]) + "\n"
SAME_AS_CSV = """finger,checkpoint,time
101,31,2026-06-06T22:20:00+02:00
101,32,2026-06-06T23:40:00+02:00
101,33,2026-06-07T00:10:00+02:00
202,31,2026-06-06T22:50:00+02:00
202,34,2026-06-06T23:59:00+02:00
202,33,2026-06-07T00:20:00+02:00
"""


def imported(api, race, text) -> set:
    response = api.post(f"/api/race/events/{race.pk}/punches/import/", text, content_type="text/csv")
    assert response.status_code == 201, response.content
    return {(p.entry.finger, p.checkpoint.code, p.at.astimezone(PARIS).replace(tzinfo=None))
            for p in Punch.objects.select_related("entry", "checkpoint")}


def test_a_card_export_imports_the_same_punches_as_the_csv(clock, race, famille, enrol, organiser_api):
    enrol("Lucie Morel", 101)
    enrol("Paul Roux", 202)
    post(organiser_api, f"/api/race/courses/{famille.pk}/start/")     # 22:00 in Rugles
    clock.advance(3 * 3600)
    from_cards = imported(organiser_api, race, READOUT)
    Punch.objects.all().delete()
    assert imported(organiser_api, race, SAME_AS_CSV) == from_cards
    # The SI5's "11:59:00" after a 22:00 start is 23:59, its "00:20:00" the next day.
    assert (202, "34", datetime(2026, 6, 6, 23, 59)) in from_cards
    assert (202, "33", datetime(2026, 6, 7, 0, 20)) in from_cards
    assert len(from_cards) == 6          # the start and finish stations are no balises


def test_a_bad_card_row_refuses_the_file_naming_its_line(clock, race, famille, enrol, organiser_api):
    enrol("Lucie Morel", 101)
    post(organiser_api, f"/api/race/courses/{famille.pk}/start/")
    text = "\n".join([HEAD, card_row(1, 101, ("", "", ""), ("", "", ""), [("31", "", "13:10:00")]),
                      card_row(2, 999, ("", "", ""), ("", "", ""), [("31", "Sa", "22:10:00")])])
    response = organiser_api.post(f"/api/race/events/{race.pk}/punches/import/", text,
                                  content_type="text/csv", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400
    assert [(r["line"], r["reason"]) for r in response.json()["rows"]] == [
        (2, "time '13:10:00' is neither HH:MM:SS nor ISO 8601 with an offset"),
        (3, "no entry has finger 999")]
    assert not Punch.objects.exists()
