"""The journal: every action, treatment, effect and automatic transition is a line with
who, what, the wall time and the game time, and the states before and after. Narrators
page through it, filter it by character and export it as CSV. Lines are never edited."""
from __future__ import annotations

import csv
import io
from datetime import datetime, timedelta

import pytest
from django.utils import timezone

from fixtures import START, act, snapshot, start_treatment
from health.services import characters_sweep
from players.models import JournalEntry

pytestmark = pytest.mark.django_db


def journal(api, event, query: str = "") -> list[dict]:
    response = api.get(f"/api/events/{event.pk}/journal/{query}")
    assert response.status_code == 200, response.content
    return response.json()["entries"]


def when(row) -> datetime:
    return datetime.fromisoformat(row["at"])


def test_every_write_is_a_journal_line(clock, event, player, medic, narrator_api, player_api,
                                       medic_api):
    clock.advance(10)
    act(player_api, player, "hit_wounding")
    clock.advance(20)
    first = start_treatment(medic_api, medic, player, "first_aid").json()
    clock.advance(60)
    medic_api.post(f"/api/treatments/{first['id']}/complete/")
    clock.advance(5)
    second = start_treatment(medic_api, medic, player, "first_aid").json()
    medic_api.post(f"/api/treatments/{second['id']}/abort/")
    clock.advance(5)
    narrator_api.post(f"/api/events/{event.pk}/effects/",
                      {"text": "Effet : fièvre", "character_ids": [player.pk]}, format="json")

    rows = [r for r in journal(narrator_api, event) if r["character_id"] == player.pk]
    summary = [(r["who"], r["kind"], r["what"], r["game_s"]) for r in rows]
    assert summary == [
        ("narrator", "character", "created", 0),
        ("Alice", "action", "hit_wounding", 10),
        ("Bruno", "treatment", "first_aid:started", 30),
        ("system", "timer", "inert", 70),  # the wound's inert minute, found at completion
        ("Bruno", "treatment", "first_aid:completed", 90),
        ("Bruno", "treatment", "first_aid:started", 95),
        ("Bruno", "treatment", "first_aid:aborted", 95),
        ("narrator", "effect", "pushed", 100),
    ]
    for row in rows:
        assert row["character"] == "Alice"
        if row["who"] != "system":
            assert when(row) == START + timedelta(seconds=row["game_s"])  # no pause yet
    inert = rows[3]
    assert START + timedelta(seconds=70) <= when(inert) <= START + timedelta(seconds=90)
    assert "inert" not in inert["after"]["timers"]

    hit = rows[1]
    assert hit["before"]["status"] == "healthy"
    assert hit["after"]["status"] == "wounded"
    done = rows[4]
    assert done["before"]["status"] == "wounded"
    assert done["after"]["status"] == "wounded"
    assert done["after"]["timers"]["deadline"] == 90 + 3600
    assert done["detail"]["kit_used"] == "kps"
    assert done["detail"]["medic"] == "Bruno"


def test_game_time_excludes_pauses_but_wall_time_does_not(clock, event, player, narrator_api,
                                                         player_api):
    clock.advance(100)
    narrator_api.post(f"/api/events/{event.pk}/clock/", {"action": "pause"}, format="json")
    clock.advance(300)
    narrator_api.post(f"/api/events/{event.pk}/clock/", {"action": "resume"}, format="json")
    clock.advance(50)
    act(player_api, player, "hit_stunning")

    rows = journal(narrator_api, event)
    clock_rows = [(r["what"], r["who"], r["game_s"]) for r in rows if r["kind"] == "clock"]
    assert clock_rows == [("paused", "narrator", 100), ("resumed", "narrator", 100)]
    hit = rows[-1]
    assert (hit["kind"], hit["what"], hit["game_s"]) == ("action", "hit_stunning", 150)
    assert when(hit) == START + timedelta(seconds=450)


def test_an_automatic_transition_is_journalled_by_the_system(clock, event, player, narrator_api,
                                                            player_api):
    clock.advance(30)
    wounded = act(player_api, player, "hit_wounding").json()["snapshot"]
    deadline = wounded["next"]["game_s"]
    assert deadline == 30 + 900

    clock.advance(1000)  # the worker was late: the deadline passed 100 s ago
    assert snapshot(player_api, player)["state"]["key"] == "coma"  # a read is never stale
    assert not JournalEntry.objects.filter(event=event, kind="timer").exists()

    assert characters_sweep() == 1
    applied_at = timezone.now()

    line = JournalEntry.objects.get(event=event, kind="timer")
    assert line.actor_label == "system"
    assert line.actor is None
    assert line.character_id == player.pk
    assert "deadline" in line.what.split(",")  # with the inert minute and combat recovery
    assert line.before["status"] == "wounded"
    assert line.after["status"] == "coma"
    assert line.game_s == deadline  # when the coma began, not when the sweeper noticed
    assert START + timedelta(seconds=deadline) <= line.at <= applied_at

    row = journal(narrator_api, event, f"?character={player.pk}")[-1]
    assert (row["who"], row["kind"], row["game_s"]) == ("system", "timer", deadline)
    assert row["before"]["status"] == "wounded" and row["after"]["status"] == "coma"

    assert characters_sweep() == 0  # applying it again changes nothing
    assert JournalEntry.objects.filter(event=event, kind="timer").count() == 1


def test_a_sweep_on_time_journals_the_deadline_instant(clock, event, player, player_api):
    act(player_api, player, "hit_wounding")
    clock.advance(900)
    assert characters_sweep() == 1
    line = JournalEntry.objects.get(event=event, kind="timer")
    assert line.game_s == 900
    assert line.at == START + timedelta(seconds=900)


def test_an_overdue_timer_is_journalled_before_the_action_that_found_it(clock, event, player,
                                                                       player_api, narrator_api):
    act(player_api, player, "hit_wounding")
    clock.advance(950)
    response = act(narrator_api, player, "set_state", state="healthy")
    assert response.status_code == 200

    rows = journal(narrator_api, event, f"?character={player.pk}")
    assert [(r["who"], r["kind"], r["game_s"]) for r in rows[-2:]] == [
        ("system", "timer", 900),
        ("narrator", "action", 950),
    ]
    assert "deadline" in rows[-2]["what"].split(",")
    assert rows[-2]["after"]["status"] == "coma"
    assert rows[-1]["what"] == "set_state"
    assert rows[-1]["before"]["status"] == "coma"
    assert rows[-1]["after"]["status"] == "healthy"


def test_narrator_pages_through_the_journal(clock, event, player, narrator_api, player_api):
    for _ in range(3):
        act(player_api, player, "hit_stunning")
        clock.advance(601)

    everything = journal(narrator_api, event)
    ids = [r["id"] for r in everything]
    assert ids == sorted(ids)
    middle = ids[2]

    page = journal(narrator_api, event, f"?after={middle}")
    assert [r["id"] for r in page] == ids[3:]
    assert journal(narrator_api, event, f"?after={ids[-1]}") == []


def test_journal_pages_hold_500_lines(clock, event, player, narrator_api):
    JournalEntry.objects.bulk_create(
        JournalEntry(event=event, character=player, actor_label="narrator", kind="note",
                     what=f"line {i}", at=clock.now, game_s=0) for i in range(620))
    total = JournalEntry.objects.filter(event=event).count()

    first = journal(narrator_api, event)
    assert len(first) == 500
    rest = journal(narrator_api, event, f"?after={first[-1]['id']}")
    assert len(first) + len(rest) == total
    assert rest[0]["id"] > first[-1]["id"]

    exported = narrator_api.get(f"/api/events/{event.pk}/journal.csv")
    assert len(list(csv.reader(io.StringIO(exported.content.decode())))) == total + 1


def test_narrator_filters_the_journal_by_character(clock, event, player, other_player,
                                                   narrator_api, player_api):
    act(player_api, player, "hit_stunning")
    act(narrator_api, other_player, "hit_wounding")
    act(player_api, player, "hit_wounding")

    rows = journal(narrator_api, event, f"?character={other_player.pk}")
    assert {r["character_id"] for r in rows} == {other_player.pk}
    assert [r["what"] for r in rows] == ["created", "hit_wounding"]
    mine = journal(narrator_api, event, f"?character={player.pk}")
    assert [r["what"] for r in mine] == ["created", "hit_stunning", "hit_wounding"]
    after = journal(narrator_api, event, f"?character={player.pk}&after={mine[1]['id']}")
    assert [r["what"] for r in after] == ["hit_wounding"]


def test_journal_exports_as_csv(clock, event, player, medic, narrator_api, player_api,
                                medic_api):
    act(player_api, player, "hit_wounding")
    clock.advance(60)
    start_treatment(medic_api, medic, player, "first_aid")

    response = narrator_api.get(f"/api/events/{event.pk}/journal.csv")

    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    assert f"journal-event-{event.pk}.csv" in response["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0] == ["id", "wall_time", "game_s", "who", "kind", "what", "character",
                       "state_before", "state_after", "detail"]
    entries = journal(narrator_api, event)
    assert len(rows) == len(entries) + 1
    assert [int(r[0]) for r in rows[1:]] == [e["id"] for e in entries]
    hit = next(r for r in rows if r[5] == "hit_wounding")
    assert hit[3:9] == ["Alice", "action", "hit_wounding", "Alice", "healthy", "wounded"]
    assert datetime.fromisoformat(hit[1]) == START
    started = next(r for r in rows if r[5] == "first_aid:started")
    assert (started[2], started[3]) == ("60.0", "Bruno")


def test_journal_entries_cannot_be_edited_or_deleted(clock, event, player, player_api):
    act(player_api, player, "hit_stunning")
    line = JournalEntry.objects.filter(event=event, kind="action").get()

    line.what = "hit_wounding"
    with pytest.raises(ValueError):
        line.save()
    with pytest.raises(ValueError):
        line.delete()

    stored = JournalEntry.objects.get(pk=line.pk)
    assert stored.what == "hit_stunning"
    assert JournalEntry.objects.filter(event=event, kind="action").count() == 1


def test_a_new_journal_entry_can_still_be_written(clock, event, player):
    entry = JournalEntry(event=event, character=player, actor_label="narrator", kind="note",
                         what="correction", at=clock.now, game_s=0)
    entry.save()
    assert JournalEntry.objects.filter(pk=entry.pk).exists()
