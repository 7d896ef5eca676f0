"""Twenty copies of one write arrive at once with one Idempotency-Key (a phone retrying
through a flaky network, its outbox replayed twice): the work happens once and every copy
gets the first answer."""
from __future__ import annotations

import json
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection

from common import idempotency
from common.models import IdempotencyRecord
from effects.models import Item
from fixtures import act, client_for, create_item, snapshot
from players.models import JournalEntry

COPIES = 20


def all_at_once(send) -> list:
    """`send(i)` from COPIES threads released together, each with its own connection."""
    ready = threading.Barrier(COPIES)

    def one(i):
        ready.wait()
        try:
            response = send(i)
            return response.status_code, response.json(), response.get("Idempotent-Replayed")
        finally:
            connection.close()

    with ThreadPoolExecutor(COPIES) as pool:
        return list(pool.map(one, range(COPIES)))


def assert_one_answer(answers: list, status: int) -> dict:
    # Compared as JSON with sorted keys: PostgreSQL's jsonb keeps a stored body's keys in
    # its own order.
    seen = {(code, json.dumps(body, sort_keys=True)) for code, body, _ in answers}
    assert seen == {(status, json.dumps(answers[0][1], sort_keys=True))}
    # One copy did the work; the nineteen others replayed its answer.
    assert sorted(replayed or "" for _, _, replayed in answers) == [""] + ["true"] * (COPIES - 1)
    return answers[0][1]


@pytest.mark.django_db(transaction=True)
def test_twenty_clock_pauses_with_one_key_pause_once_and_answer_alike(clock, event,
                                                                       narrator_user):
    phones = [client_for(narrator_user) for _ in range(COPIES)]
    url = f"/api/events/{event.pk}/clock/"

    answers = all_at_once(lambda i: phones[i].post(url, {"action": "pause"}, format="json",
                                                   HTTP_IDEMPOTENCY_KEY="pause-1"))

    body = assert_one_answer(answers, 200)  # never 409 game_already_paused
    assert "error" not in body
    assert JournalEntry.objects.filter(event=event, kind="clock").count() == 1


@pytest.mark.django_db(transaction=True)
def test_twenty_uses_of_a_potion_with_one_key_use_it_once(clock, event, player,
                                                          narrator_user):
    potion = create_item(client_for(narrator_user), event, name="Fiole bleue", kind="medicine",
                         tag_text="Effet : lire le verso", secret_text="Effet : vous dormez",
                         effect_duration_s=300)
    phones = [client_for(player.user) for _ in range(COPIES)]
    journal = JournalEntry.objects.filter(event=event).count()
    url = f"/api/characters/{player.pk}/items/{potion['code']}/use/"

    answers = all_at_once(lambda i: phones[i].post(url, {}, format="json",
                                                   HTTP_IDEMPOTENCY_KEY="drink-1"))

    assert_one_answer(answers, 200)  # never 409 item_used
    assert Item.objects.get(code=potion["code"]).used_by_id == player.pk
    assert [e["text"] for e in snapshot(phones[0], player)["effects"]] == ["Effet : vous dormez"]
    added = JournalEntry.objects.filter(event=event).order_by("pk")[journal:]
    assert len({(line.kind, line.what) for line in added}) == len(added)  # nothing twice


@pytest.mark.django_db(transaction=True)
def test_twenty_refused_copies_all_get_the_one_refusal(clock, event, player, narrator_user):
    phones = [client_for(player.user) for _ in range(COPIES)]
    journal = JournalEntry.objects.filter(event=event).count()

    answers = all_at_once(lambda i: act(phones[i], player, "set_state", key="bad-1",
                                        state="dead"))

    assert assert_one_answer(answers, 403)["error"] == "not_declarable"
    assert JournalEntry.objects.filter(event=event).count() == journal


def pending_claim(user, key: str) -> IdempotencyRecord:
    """What a first attempt killed mid-work leaves behind."""
    return IdempotencyRecord.objects.create(user=user, key=key, request_hash="crashed",
                                            status_code=idempotency.PENDING, body={})


def test_a_crashed_first_attempt_does_not_block_its_key_for_ever(clock, db, event, player,
                                                                 player_api):
    pending_claim(player.user, "stun-1")
    clock.advance(idempotency.STALE_AFTER.total_seconds() + 1)

    retry = act(player_api, player, "hit_stunning", key="stun-1")

    assert retry.status_code == 200, retry.content
    assert "Idempotent-Replayed" not in retry
    assert snapshot(player_api, player)["values"]["combat_loss"] == 1
    again = act(player_api, player, "hit_stunning", key="stun-1")
    assert (again.status_code, again["Idempotent-Replayed"]) == (200, "true")
    assert snapshot(player_api, player)["values"]["combat_loss"] == 1


def test_a_copy_waits_a_bounded_time_then_is_told_to_retry(clock, db, event, player,
                                                           player_api, monkeypatch):
    monkeypatch.setattr(idempotency, "WAIT_S", 0.2)
    pending_claim(player.user, "stun-2")
    # The same request as the one still being worked on.
    monkeypatch.setattr(idempotency, "_digest", lambda request: "crashed")

    late = act(client_for(player.user, "fr"), player, "hit_stunning", key="stun-2")

    assert late.status_code == 409, late.content
    assert late.json() == {"error": "idempotency_in_progress", "detail": (
        "Une requête avec cette clé d'idempotence est encore en cours : réessayez dans "
        "un instant.")}
    assert late["Retry-After"] == "1"
    assert snapshot(player_api, player)["values"]["combat_loss"] == 0  # nothing done twice


def test_a_different_body_on_a_pending_key_is_a_conflict_at_once(clock, db, event, player,
                                                                 player_api):
    pending_claim(player.user, "stun-3")
    response = act(player_api, player, "hit_stunning", key="stun-3")
    assert response.status_code == 422
    assert response.json()["error"] == "idempotency_conflict"
    assert snapshot(player_api, player)["values"]["combat_loss"] == 0


def test_a_first_attempt_that_crashed_frees_its_key_for_the_retry_at_once(
        clock, db, event, player, player_api, monkeypatch):
    """The worker's database connection drops in the middle of the write: nothing was
    applied, so the phone's retry (the same key, a second later) does the work instead of
    being told for 30 s that it is still in progress."""
    from django.db import OperationalError

    from health import services

    monkeypatch.setattr(idempotency, "WAIT_S", 0.2)   # a blocked key answers fast, and fails
    real = services.character_act

    def crash(**kwargs):
        raise OperationalError("server closed the connection unexpectedly")
    monkeypatch.setattr(services, "character_act", crash)
    with pytest.raises(OperationalError):
        act(player_api, player, "hit_stunning", key="stun-4")
    monkeypatch.setattr(services, "character_act", real)
    clock.advance(1)

    retry = act(player_api, player, "hit_stunning", key="stun-4")

    assert retry.status_code == 200, retry.content
    assert "Idempotent-Replayed" not in retry
    assert snapshot(player_api, player)["values"]["combat_loss"] == 1


@pytest.mark.django_db(transaction=True)
def test_twenty_copies_of_a_write_whose_first_attempt_crashed_do_it_once(clock, event, player):
    """The first attempt died holding the key; its twenty retries arrive together once the
    claim is stale: one takes it over and does the work, the others get its answer (none
    is told that its own request is another one)."""
    pending_claim(player.user, "stun-9")
    clock.advance(idempotency.STALE_AFTER.total_seconds() + 1)
    phones = [client_for(player.user) for _ in range(COPIES)]

    answers = all_at_once(lambda i: act(phones[i], player, "hit_stunning", key="stun-9"))

    assert_one_answer(answers, 200)
    assert snapshot(phones[0], player)["values"]["combat_loss"] == 1
