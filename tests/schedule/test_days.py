"""Dawn and day end, scheduled by the organisers at wall-clock instants: the ruleset's day
action reaches every character it applies to, once, and only while the game runs; after
a day end the narrators read who waits for their decision on untreated wounds."""
from __future__ import annotations

import json
from datetime import timedelta

import pytest
import redis
from django.conf import settings
from django.contrib.auth import get_user_model

from fixtures import START, act, client_for, snapshot
from schedule.services.days import days_run_due
from players.models import JournalEntry
from schedule.models import GameDay
from players.services import character_create, event_create
from schedule.tasks import run_due_days, sweep_due_days

pytestmark = pytest.mark.django_db

DAWN_AT = START + timedelta(hours=11)          # 07:00 the next morning


@pytest.fixture
def game(clock, narrator_user):
    return event_create(name="Septenario", ruleset="septenario_es", language="es",
                        by=narrator_user, start_clock=True)


def make(game, name: str, coraje: int = 1):
    return character_create(event=game, name=name, sheet={"coraje": coraje, "trauma": 3})


def coraje(api, character) -> int:
    return next(p["value"] for p in snapshot(api, character)["points"] if p["key"] == "coraje")


def schedule(api, game, kind: str, at, key=None):
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    return api.post(f"/api/events/{game.pk}/days/", {"kind": kind, "due_at": at.isoformat()},
                    format="json", **headers)


def days_of(api, game) -> dict:
    response = api.get(f"/api/events/{game.pk}/days/")
    assert response.status_code == 200, response.content
    return response.json()


def test_dawn_gives_one_coraje_to_the_rested_once(clock, game, narrator_api):
    rested, tired = make(game, "Inés"), make(game, "Tomás")
    assert act(narrator_api, rested, "rested").status_code == 200
    created = schedule(narrator_api, game, "dawn", DAWN_AT)
    assert created.status_code == 201, created.content
    assert created.json()["day"]["status"] == "scheduled"

    clock.advance(10 * 3600)                  # 06:00: not yet
    assert sweep_due_days() == 0
    assert coraje(narrator_api, rested) == 1

    clock.advance(3600 + 30)                  # 07:00:30, the sweeper's next pass
    assert sweep_due_days() == 2
    assert coraje(narrator_api, rested) == 2
    assert coraje(narrator_api, tired) == 1
    assert snapshot(narrator_api, rested)["values"]["rested"] is False   # a new night to come
    assert snapshot(narrator_api, tired)["values"]["fatigued"] is True

    day_line = JournalEntry.objects.get(event=game, kind="day", what="dawn")
    assert day_line.actor_label == "system"
    assert day_line.detail["characters_changed"] == 2
    assert JournalEntry.objects.filter(character=rested, kind="action", what="dawn").count() == 1
    listed = days_of(narrator_api, game)["days"]
    assert [(d["kind"], d["status"]) for d in listed] == [("dawn", "done")]
    assert listed[0]["done_at"] == (DAWN_AT + timedelta(seconds=30)).isoformat()

    # A second delivery of the task, or the next sweep, applies nothing again.
    assert run_due_days(game.pk) == 0
    assert sweep_due_days() == 0
    assert coraje(narrator_api, rested) == 2
    assert JournalEntry.objects.filter(event=game, kind="day", what="dawn").count() == 1


def test_dawn_never_raises_coraje_past_three(clock, game, narrator_api):
    brave = make(game, "Lucía", coraje=3)
    act(narrator_api, brave, "rested")
    schedule(narrator_api, game, "dawn", DAWN_AT)
    clock.advance(11 * 3600)
    run_due_days(game.pk)
    assert coraje(narrator_api, brave) == 3


def test_a_paused_game_runs_its_dawn_only_when_resumed(clock, game, narrator_api):
    rested = make(game, "Inés")
    act(narrator_api, rested, "rested")
    schedule(narrator_api, game, "dawn", DAWN_AT)
    assert narrator_api.post(f"/api/events/{game.pk}/clock/", {"action": "pause"},
                             format="json").status_code == 200
    clock.advance(12 * 3600)                  # dawn came and went during the pause

    assert sweep_due_days() == 0
    assert run_due_days(game.pk) == 0
    assert coraje(narrator_api, rested) == 1
    assert days_of(narrator_api, game)["days"][0]["status"] == "due"

    assert narrator_api.post(f"/api/events/{game.pk}/clock/", {"action": "resume"},
                             format="json").status_code == 200
    assert run_due_days(game.pk) == 1         # the task the resume queued
    assert coraje(narrator_api, rested) == 2
    assert days_of(narrator_api, game)["days"][0]["status"] == "done"


def test_day_end_lists_the_untreated_wounds_for_the_narrators(clock, game, narrator_api):
    hurt, fine = make(game, "Pablo"), make(game, "Marta")
    assert act(narrator_api, hurt, "hit", location="left_arm").status_code == 200
    assert snapshot(narrator_api, hurt)["state"]["key"] == "wounded"
    schedule(narrator_api, game, "day_end", START + timedelta(hours=4))
    assert days_of(narrator_api, game)["untreated"] == []

    clock.advance(4 * 3600)
    sweep_due_days()

    untreated = client_for(get_user_model().objects.get(username="narrator"), lang="es") \
        .get(f"/api/events/{game.pk}/days/").json()["untreated"]
    assert [u["character"]["name"] for u in untreated] == ["Pablo"]
    assert untreated[0]["character"]["code"] == hurt.code
    assert untreated[0]["state"] == {"key": "wounded", "label": "Herido"}
    assert untreated[0]["wounds"]["limbs"] == [{"key": "left_arm", "label": "Brazo izquierdo",
                                                "status": "useless"}]
    assert [w["location"]["key"] for w in untreated[0]["wounds"]["damage"]] == ["left_arm"]
    assert snapshot(narrator_api, fine)["values"]["awaiting_narrator"] is False

    # The narrator decides: the wounds heal, and Pablo leaves the list.
    assert act(narrator_api, hurt, "wounds_healed").status_code == 200
    assert days_of(narrator_api, game)["untreated"] == []


def test_a_day_cut_between_batches_goes_on_where_it_stopped(clock, game, narrator_api):
    crowd = [make(game, f"Persona {n}") for n in range(5)]
    for character in crowd:
        act(narrator_api, character, "rested")
    schedule(narrator_api, game, "dawn", DAWN_AT)
    clock.advance(11 * 3600)

    assert days_run_due(event_id=game.pk, batch=2) == 5
    assert [coraje(narrator_api, c) for c in crowd] == [2] * 5
    assert JournalEntry.objects.filter(event=game, kind="action", what="dawn").count() == 5

    # A worker killed after its first batch: the next one takes only the others.
    schedule(narrator_api, game, "dawn", DAWN_AT + timedelta(hours=24))
    for character in crowd:
        act(narrator_api, character, "rested")
    clock.advance(24 * 3600)
    day = GameDay.objects.get(due_at=DAWN_AT + timedelta(hours=24))
    GameDay.objects.filter(pk=day.pk).update(reached_id=crowd[1].pk)   # two were done
    assert run_due_days(game.pk) == 3
    assert [coraje(narrator_api, c) for c in crowd] == [2, 2, 3, 3, 3]


def test_a_dawn_and_a_day_end_both_due_run_in_their_order(clock, game, narrator_api):
    hurt = make(game, "Pablo")
    act(narrator_api, hurt, "hit", location="right_leg")
    schedule(narrator_api, game, "dawn", START + timedelta(hours=2))
    schedule(narrator_api, game, "day_end", START + timedelta(hours=1))
    clock.advance(3 * 3600)
    sweep_due_days()
    kinds = list(JournalEntry.objects.filter(event=game, kind="day", what__in=["dawn", "day_end"])
                 .values_list("what", flat=True))
    assert kinds == ["day_end", "dawn"]


def test_cancel_a_day_before_it_runs(clock, game, narrator_api):
    rested = make(game, "Inés")
    act(narrator_api, rested, "rested")
    day_id = schedule(narrator_api, game, "dawn", DAWN_AT).json()["day"]["id"]

    response = narrator_api.delete(f"/api/events/{game.pk}/days/{day_id}/")

    assert response.status_code == 200, response.content
    assert days_of(narrator_api, game)["days"] == []
    clock.advance(12 * 3600)
    assert sweep_due_days() == 0
    assert coraje(narrator_api, rested) == 1
    assert JournalEntry.objects.filter(event=game, kind="day", what="dawn:cancelled").count() == 1


def test_a_day_that_ran_cannot_be_cancelled(clock, game, narrator_api):
    make(game, "Inés")
    day_id = schedule(narrator_api, game, "dawn", DAWN_AT).json()["day"]["id"]
    clock.advance(11 * 3600)
    run_due_days(game.pk)

    response = narrator_api.delete(f"/api/events/{game.pk}/days/{day_id}/")

    assert response.status_code == 409
    assert response.json()["error"] == "day_done"
    assert narrator_api.delete(f"/api/events/{game.pk}/days/999999/").status_code == 404


def test_scheduling_is_idempotent_and_refuses_the_same_instant_twice(clock, game, narrator_api):
    first = schedule(narrator_api, game, "dawn", DAWN_AT, key="dawn-sat")
    again = schedule(narrator_api, game, "dawn", DAWN_AT, key="dawn-sat")
    assert first.status_code == again.status_code == 201
    assert again["Idempotent-Replayed"] == "true"
    assert GameDay.objects.filter(event=game).count() == 1

    duplicate = schedule(narrator_api, game, "dawn", DAWN_AT)
    assert duplicate.status_code == 409
    assert duplicate.json()["error"] == "day_already_scheduled"
    assert GameDay.objects.filter(event=game).count() == 1


# --- who may, and bad input ----------------------------------------------------------------------

def test_a_player_cannot_schedule_cancel_or_read_days(clock, game, narrator_api):
    player = make(game, "Inés")
    day_id = schedule(narrator_api, game, "dawn", DAWN_AT).json()["day"]["id"]
    api = client_for(player.user)

    assert schedule(api, game, "day_end", DAWN_AT).status_code == 404
    assert api.get(f"/api/events/{game.pk}/days/").status_code == 404
    assert api.delete(f"/api/events/{game.pk}/days/{day_id}/").status_code == 404
    assert list(GameDay.objects.values_list("kind", flat=True)) == ["dawn"]


def test_a_narrator_of_another_event_gets_404(clock, game, narrator_api):
    day_id = schedule(narrator_api, game, "dawn", DAWN_AT).json()["day"]["id"]
    stranger = get_user_model().objects.create_user(username="narrator2", is_staff=True)
    own = event_create(name="Otro", ruleset="septenario_es", by=stranger, start_clock=True)
    api = client_for(stranger)

    assert schedule(api, game, "dawn", DAWN_AT + timedelta(hours=1)).status_code == 404
    assert api.get(f"/api/events/{game.pk}/days/").status_code == 404
    assert api.delete(f"/api/events/{game.pk}/days/{day_id}/").status_code == 404
    # Not through their own event either.
    assert api.delete(f"/api/events/{own.pk}/days/{day_id}/").status_code == 404
    assert GameDay.objects.filter(pk=day_id).exists()


@pytest.mark.parametrize("body,field", [
    ({"kind": "dawn"}, "due_at"),
    ({"kind": "dawn", "due_at": "saturday at seven"}, "due_at"),
    ({"kind": "dawn", "due_at": "2026-06-07T07:00:00"}, "due_at"),        # no offset
    ({"kind": "dawn", "due_at": None}, "due_at"),
    ({"kind": "noon", "due_at": "2026-06-07T07:00:00+00:00"}, "kind"),
    ({"due_at": "2026-06-07T07:00:00+00:00"}, "kind"),
])
def test_bad_input_names_the_field_and_changes_nothing(body, field, clock, game, narrator_api):
    journal = JournalEntry.objects.count()
    response = narrator_api.post(f"/api/events/{game.pk}/days/", body, format="json")
    assert response.status_code == 400, response.content
    assert response.json()["error"] == "bad_input"
    assert field in response.json()["fields"]
    assert field in response.json()["detail"]
    assert GameDay.objects.count() == 0
    assert JournalEntry.objects.count() == journal


def test_a_day_long_past_is_refused(clock, game, narrator_api):
    response = schedule(narrator_api, game, "dawn", START - timedelta(days=1))
    assert response.status_code == 400
    assert "due_at" in response.json()["detail"]
    assert GameDay.objects.count() == 0


def test_a_ruleset_without_days_refuses_scheduling(clock, event, narrator_user):
    api = client_for(narrator_user, lang="fr")
    response = schedule(api, event, "dawn", DAWN_AT)         # gn_fr has no days
    assert response.status_code == 400
    assert response.json()["error"] == "no_days"
    assert "aube" in response.json()["detail"]
    assert GameDay.objects.count() == 0


# --- the task at the instant -------------------------------------------------------------------

def queued_day_tasks(broker) -> list[dict]:
    return [json.loads(raw)["headers"] for raw in broker.lrange("celery", 0, -1)
            if json.loads(raw)["headers"]["task"] == "schedule.tasks.run_due_days"]


@pytest.mark.django_db(transaction=True)
def test_a_near_day_gets_a_task_at_its_instant_and_a_far_one_later(clock, game, narrator_api):
    broker = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    broker.delete("celery")
    soon = START + timedelta(seconds=60)
    schedule(narrator_api, game, "day_end", soon)
    schedule(narrator_api, game, "dawn", DAWN_AT)
    assert [t["eta"] for t in queued_day_tasks(broker)] == [soon.isoformat()]

    clock.advance(11 * 3600 - settings.DEADLINE_TASK_HORIZON_S + 1)
    broker.delete("celery")
    sweep_due_days()                          # runs the day end, queues the dawn
    assert [t["eta"] for t in queued_day_tasks(broker)] == [DAWN_AT.isoformat()]
    assert [t["argsrepr"] for t in queued_day_tasks(broker)] == [f"({game.pk},)"]


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_narrators_see_the_day_end_and_its_untreated_list_live(clock, game,
                                                                       narrator_api):
    from asgiref.sync import sync_to_async
    from fixtures import connect

    hurt = await sync_to_async(make)(game, "Pablo")
    await sync_to_async(act)(narrator_api, hurt, "hit", location="left_arm")
    await sync_to_async(schedule)(narrator_api, game, "day_end", START + timedelta(hours=4))
    narrators, connected, _ = await connect(narrator_api, f"event={game.pk}&lang=es")
    assert connected
    assert (await narrators.receive_json_from(timeout=5))["type"] == "event_snapshot"

    clock.advance(4 * 3600)
    await sync_to_async(sweep_due_days)()

    seen = []
    while not any(m["type"] == "day" for m in seen):
        seen.append(await narrators.receive_json_from(timeout=5))
    message = seen[-1]
    assert message["day"]["kind"] == "day_end"
    assert message["day"]["label"] == "fin del día"
    assert message["day"]["status"] == "done"
    assert [u["character"]["name"] for u in message["untreated"]] == ["Pablo"]
    assert message["untreated"][0]["state"]["label"] == "Herido"
    await narrators.disconnect()
