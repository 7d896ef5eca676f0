"""The edges of a replayed write (common/idempotency.py): a retry's body in another order or
carrying a file, a login link that must not rest in the table, the caller's language on
every refusal, keys scoped to their user, the exact age at which a crashed claim passes
on, and the personal-data services that forget or scrub stored answers."""
from __future__ import annotations

import json
from urllib.parse import urlsplit

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from common import idempotency
from common.models import IdempotencyRecord
from fixtures import act, client_for, snapshot
from players.models import Character, JournalEntry

pytestmark = pytest.mark.django_db


def pending_claim(user, key: str) -> IdempotencyRecord:
    """What a first attempt killed mid-work leaves behind."""
    return IdempotencyRecord.objects.create(user=user, key=key, request_hash="crashed",
                                            status_code=idempotency.PENDING, body={})


def test_a_retry_whose_fields_come_in_another_order_is_the_same_request(clock, event, player,
                                                                        narrator_api):
    url = f"/api/events/{event.pk}/effects/"
    first = narrator_api.post(url, {"text": "Effet : sommeil", "duration_s": 300,
                                    "character_ids": [player.pk]}, format="json",
                              HTTP_IDEMPOTENCY_KEY="push-1")
    again = narrator_api.post(url, {"character_ids": [player.pk], "duration_s": 300,
                                    "text": "Effet : sommeil"}, format="json",
                              HTTP_IDEMPOTENCY_KEY="push-1")
    assert (first.status_code, again.status_code) == (201, 201), again.content
    assert again["Idempotent-Replayed"] == "true"
    assert JournalEntry.objects.filter(event=event, kind="effect").count() == 1


def test_a_file_import_retried_with_its_key_imports_once(clock, event, narrator_api):
    def upload():
        return SimpleUploadedFile("roster.csv", b"name,team\nZo\xc3\xa9,Renfort\n", "text/csv")
    url = f"/api/events/{event.pk}/roster/"
    first = narrator_api.post(url, {"file": upload()}, format="multipart", HTTP_IDEMPOTENCY_KEY="r")
    again = narrator_api.post(url, {"file": upload()}, format="multipart", HTTP_IDEMPOTENCY_KEY="r")
    assert (first.status_code, again.status_code) == (201, 201), again.content
    assert again["Idempotent-Replayed"] == "true"
    assert Character.objects.filter(event=event, name="Zoé").count() == 1


def test_a_login_link_replayed_is_a_fresh_one_and_never_rests_in_the_table(
        clock, event, player, narrator_api, narrator_user):
    url = f"/api/characters/{player.pk}/login-link/"
    first = narrator_api.post(url, HTTP_IDEMPOTENCY_KEY="link-1")
    again = narrator_api.post(url, HTTP_IDEMPOTENCY_KEY="link-1")
    assert (first.status_code, again.status_code) == (201, 201), again.content
    assert again["Idempotent-Replayed"] == "true"
    assert set(again.json()) == set(first.json()) == {"character", "url", "server_time"}
    assert again.json()["character"] == player.pk
    assert again.json()["url"] != first.json()["url"]

    stored = IdempotencyRecord.objects.get(user=narrator_user, key="link-1")
    assert first.json()["url"] not in str(stored.body)
    assert again.json()["url"] not in str(stored.body)
    # The replay issued the link in the narrator's name, as the first answer did.
    issued = JournalEntry.objects.filter(event=event, kind="login", what="link_issued")
    assert [line.actor_id for line in issued.order_by("pk")] == [narrator_user.pk] * 2
    # Only the newest link opens the app.
    assert Client().post(urlsplit(first.json()["url"]).path).status_code >= 400
    assert Client().post(urlsplit(again.json()["url"]).path).status_code == 302


@pytest.mark.parametrize("lang, conflict", [
    ("en", "This idempotency key was already used for a different request."),
    ("es", "Esta clave de idempotencia ya se usó para otra petición."),
])
def test_a_conflict_on_a_stored_answer_is_told_in_the_caller_s_language(clock, player, lang, conflict):
    api = client_for(player.user, lang)
    assert act(api, player, "hit_stunning", key="k").status_code == 200
    response = act(api, player, "hit_firearm", key="k")
    assert (response.status_code, response.json()["detail"]) == (422, conflict)


def test_a_conflict_on_a_pending_key_is_told_in_the_caller_s_language(clock, player):
    pending_claim(player.user, "k")
    response = act(client_for(player.user, "en"), player, "hit_stunning", key="k")
    assert response.json() == {"error": "idempotency_conflict",
                               "detail": "This idempotency key was already used for a different request."}


def test_a_key_still_in_progress_is_told_in_the_caller_s_language(clock, player, monkeypatch):
    monkeypatch.setattr(idempotency, "WAIT_S", 0.2)
    pending_claim(player.user, "k")
    monkeypatch.setattr(idempotency, "_digest", lambda request: "crashed")   # the same request
    response = act(client_for(player.user, "en"), player, "hit_stunning", key="k")
    assert response.status_code == 409
    assert response.json()["detail"].startswith("A request with this idempotency key is still")


def test_a_refusal_with_a_key_is_told_in_the_caller_s_language(clock, player):
    api = client_for(player.user, "en")
    response = act(api, player, "no_such_action", key="k")
    assert response.status_code == 400, response.content
    assert "action" in response.json()["detail"].lower()
    assert act(api, player, "no_such_action", key="k").json() == response.json()


def test_a_key_answers_only_its_own_user(clock, event, player, other_player, player_api):
    other_api = client_for(other_player.user)
    assert act(other_api, other_player, "hit_stunning", key="k").status_code == 200
    assert act(player_api, player, "hit_stunning", key="earlier").status_code == 200
    first = act(player_api, player, "hit_stunning", key="k")

    again = act(player_api, player, "hit_stunning", key="k")

    assert (again.status_code, again["Idempotent-Replayed"]) == (200, "true"), again.content
    assert again.json() == first.json()
    assert snapshot(player_api, player)["values"]["combat_loss"] == 2


def test_a_key_of_100_characters_is_taken_and_101_refused_with_the_reason(clock, player, player_api):
    assert act(player_api, player, "hit_stunning", key="k" * 100).status_code == 200
    refused = act(player_api, player, "hit_stunning", key="k" * 101)
    assert refused.status_code == 400
    assert refused.json()["detail"] == ("Invalid request: Idempotency-Key must be at most 100 "
                                        "printable characters")


def test_a_claim_exactly_as_old_as_the_limit_passes_to_the_retry_and_no_other(
        clock, event, player, other_player, player_api):
    mine = pending_claim(player.user, "k")
    theirs = pending_claim(other_player.user, "k")     # the same instant, another user
    clock.advance(idempotency.STALE_AFTER.total_seconds())

    retry = act(player_api, player, "hit_stunning", key="k")

    assert retry.status_code == 200, retry.content
    assert snapshot(player_api, player)["values"]["combat_loss"] == 1
    theirs_now = IdempotencyRecord.objects.get(pk=theirs.pk)
    assert (theirs_now.request_hash, theirs_now.created_at) == ("crashed", theirs.created_at)
    assert IdempotencyRecord.objects.get(pk=mine.pk).status_code == 200


def test_a_copy_arriving_while_the_retry_that_took_over_works_waits(clock, event, player,
                                                                    player_api, monkeypatch):
    """The retry that took a crashed claim over holds it as new: a copy arriving during
    its work is told to wait, it does not take the claim over a second time."""
    from health import services

    monkeypatch.setattr(idempotency, "WAIT_S", 0.2)
    pending_claim(player.user, "k")
    clock.advance(idempotency.STALE_AFTER.total_seconds() + 1)
    real, copies = services.character_act, []

    def act_with_a_copy_arriving(**kwargs):
        if not copies:
            copies.append(act(client_for(player.user), player, "hit_stunning", key="k"))
        return real(**kwargs)
    monkeypatch.setattr(services, "character_act", act_with_a_copy_arriving)

    assert act(player_api, player, "hit_stunning", key="k").status_code == 200
    assert copies[0].status_code == 409, copies[0].content
    assert copies[0].json()["error"] == "idempotency_in_progress"
    assert snapshot(player_api, player)["values"]["combat_loss"] == 1


def test_a_crash_frees_its_own_claim_and_no_other(clock, event, player, other_player,
                                                  player_api, monkeypatch):
    from django.db import OperationalError

    from health import services

    theirs = pending_claim(other_player.user, "theirs")

    def crash(**kwargs):
        raise OperationalError("server closed the connection unexpectedly")
    monkeypatch.setattr(services, "character_act", crash)
    with pytest.raises(OperationalError):
        act(player_api, player, "hit_stunning", key="mine")

    assert not IdempotencyRecord.objects.filter(user=player.user, key="mine").exists()
    assert IdempotencyRecord.objects.filter(pk=theirs.pk).exists()


# -- personal data ---------------------------------------------------------------------------

def test_an_erased_account_s_stored_answers_are_forgotten_and_no_one_else_s(
        clock, player, other_player, player_api):
    act(player_api, player, "hit_stunning", key="a")
    act(player_api, player, "hit_stunning", key="b")
    act(client_for(other_player.user), other_player, "hit_stunning", key="a")

    assert idempotency.records_forget(user=player.user) == 2

    assert not IdempotencyRecord.objects.filter(user=player.user).exists()
    assert IdempotencyRecord.objects.filter(user=other_player.user).count() == 1


def test_stored_answers_naming_someone_erased_are_scrubbed_the_others_kept(clock, narrator_user,
                                                                          player):
    def stored(key: str, body) -> IdempotencyRecord:
        return IdempotencyRecord.objects.create(user=narrator_user, key=key, request_hash="h",
                                                status_code=200, body=body)
    by_name = stored("1", {"name": "Zoé Ñúñez", "team": "Renfort"})
    # Only as JSON text escapes it can this one be found: "la \"Rouge\"".
    by_nickname = stored("2", {"rows": [{"name": 'la "Rouge"', "line": 3}]})
    other = stored("3", {"name": "Alice"})

    def scrub(body):
        text = json.dumps(body, ensure_ascii=False)
        return json.loads(text.replace("Zoé", "—").replace('la \\"Rouge\\"', "—"))

    assert idempotency.records_scrub(words=["Zoé", 'la "Rouge"', ""], scrub=scrub) == 2
    assert IdempotencyRecord.objects.get(pk=by_name.pk).body == {"name": "— Ñúñez", "team": "Renfort"}
    assert IdempotencyRecord.objects.get(pk=by_nickname.pk).body == {"rows": [{"name": "—", "line": 3}]}
    assert IdempotencyRecord.objects.get(pk=other.pk).body == {"name": "Alice"}
    assert idempotency.records_scrub(words=[""], scrub=scrub) == 0
    assert idempotency.records_scrub(words=["Nobody"], scrub=scrub) == 0


def test_a_first_attempt_that_answers_as_its_retry_takes_the_claim_over_is_not_run_twice(
        clock, event, player, player_api, monkeypatch):
    """Not dead, only slow: the first attempt stores its answer after the retry read its
    claim as stale and before the retry takes it over. The retry gets that answer."""
    first = act(player_api, player, "hit_stunning", key="k")
    record = IdempotencyRecord.objects.get(user=player.user, key="k")
    answer, status = record.body, record.status_code
    IdempotencyRecord.objects.filter(pk=record.pk).update(status_code=idempotency.PENDING, body={})
    clock.advance(idempotency.STALE_AFTER.total_seconds() + 1)
    real = idempotency._is_stale

    def read_stale_then_answered(claim):
        stale = real(claim)
        IdempotencyRecord.objects.filter(pk=claim.pk).update(status_code=status, body=answer)
        return stale
    monkeypatch.setattr(idempotency, "_is_stale", read_stale_then_answered)

    retry = act(player_api, player, "hit_stunning", key="k")

    assert (retry.status_code, retry["Idempotent-Replayed"]) == (200, "true"), retry.content
    assert retry.json() == first.json()
    assert snapshot(player_api, player)["values"]["combat_loss"] == 1
