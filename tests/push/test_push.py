"""Web Push, end to end but for the browser: a local HTTP server plays the push service,
a browser-like key pair decrypts what it received, and the tasks run with the arguments
the services queued in the real broker. Time is travelled, never waited for."""
from __future__ import annotations

import socket
from datetime import timedelta

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.core.exceptions import ImproperlyConfigured

from health.models import HealthState
from health.services import character_advance, characters_sweep
from health.treatments import treatment_complete, treatment_start
from players.services import event_create
from schedule.services.clock import clock_pause, clock_resume
from push import keys
from push.models import PushSubscription, SentWarning
from push.services import push_to_user
from push.tasks import notify_state, warn_deadline
from rest_framework.test import APIClient
from fixtures import client_for
from pushkit import Browser, queued, vapid_claims, wound


@pytest.mark.django_db
def test_the_key_endpoint_serves_the_applicationServerKey(player, tmp_path):
    api = client_for(player.user)
    key = api.get("/api/push/key/").json()["public_key"]
    point = keys.b64url_decode(key)
    assert len(point) == 65 and point[0] == 4           # uncompressed P-256 point
    assert (tmp_path / "vapid_private.pem").exists()    # generated once, on first use
    assert api.get("/api/push/key/").json()["public_key"] == key
    assert APIClient().get("/api/push/key/").status_code == 403   # signed-in users only


def test_keys_from_the_environment(monkeypatch):
    secret = ec.generate_private_key(ec.SECP256R1())
    raw = keys.b64url(secret.private_numbers().private_value.to_bytes(32, "big"))
    pem = secret.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                               serialization.NoEncryption()).decode()
    expected = keys.b64url(secret.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint))
    for value in (raw, pem, pem.replace("\n", "\\n")):
        monkeypatch.setenv("VAPID_PRIVATE_KEY", value)
        assert keys.public_key() == expected
    monkeypatch.setenv("VAPID_PUBLIC_KEY", Browser().p256dh)
    with pytest.raises(ImproperlyConfigured):
        keys.public_key()


@pytest.mark.django_db
def test_subscribing_is_idempotent_per_endpoint_and_follows_the_login(player, other_player,
                                                                      settings):
    browser = Browser()
    endpoint = "https://push.example.net/send/abc"
    assert browser.subscribe(player.user, endpoint).json()["created"] is True
    assert browser.subscribe(player.user, endpoint).json()["created"] is False
    assert PushSubscription.objects.get().user == player.user
    browser.subscribe(other_player.user, endpoint)      # the phone now logs in as Denis
    assert PushSubscription.objects.get().user == other_player.user

    api = client_for(player.user)
    bad = browser.subscription(endpoint)
    bad["keys"]["p256dh"] = keys.b64url(b"\x04" + b"0" * 10)
    response = api.post("/api/push/subscriptions/", bad, format="json")
    assert response.status_code == 400 and response.json()["error"] == "bad_input"
    assert api.post("/api/push/subscriptions/", {"endpoint": endpoint},
                    format="json").status_code == 400
    settings.PUSH_ALLOW_HTTP_ENDPOINTS = False
    response = api.post("/api/push/subscriptions/",
                        browser.subscription("http://127.0.0.1:9/x"), format="json")
    assert response.status_code == 400 and "https" in response.json()["detail"]


@pytest.mark.django_db
def test_unsubscribing_removes_only_ones_own_subscription(player, other_player):
    endpoint = "https://push.example.net/send/abc"
    Browser().subscribe(player.user, endpoint)
    denis = client_for(other_player.user)
    assert denis.delete("/api/push/subscriptions/", {"endpoint": endpoint},
                        format="json").status_code == 204
    assert PushSubscription.objects.count() == 1       # not Denis's to remove
    alice = client_for(player.user)
    assert alice.delete("/api/push/subscriptions/", {"endpoint": endpoint},
                        format="json").status_code == 204
    assert PushSubscription.objects.count() == 0


@pytest.mark.django_db(transaction=True)
def test_a_wound_warns_once_a_minute_before_the_coma(clock, event, player, service, broker):
    browser = Browser()
    browser.subscribe(player.user, service.url("/alice"))
    wound(player)
    [task] = queued(broker, "warn_deadline", player.pk)
    assert task.args == [player.pk, "deadline", 900]
    assert task.eta == (clock.now + timedelta(minutes=14)).isoformat()

    clock.advance(14 * 60 - 5)
    assert warn_deadline(*task.args) == 0               # not yet
    clock.advance(5)
    assert warn_deadline(*task.args) == 1
    assert warn_deadline(*task.args) == 0               # a redelivered task sends nothing
    [request] = service.received
    assert browser.read(request) == {"title": "Test GN", "tag": f"health-{player.pk}", "url": "/",
                                     "body": "Alice : vous serez dans le coma dans 1 minute",
                                     "kind": "minute"}      # its own buzz (haptics.js)
    assert request.headers["content-encoding"] == "aes128gcm"
    assert request.headers["urgency"] == "high"
    claims = vapid_claims(request)
    assert claims["aud"] == service.url("")
    assert claims["sub"] == keys.DEFAULT_SUBJECT
    assert SentWarning.objects.filter(character=player, timer="deadline").count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_transition_is_announced_and_warns_of_the_next(clock, event, player, service, broker):
    browser = Browser()
    browser.subscribe(player.user, service.url("/alice"))
    wound(player)
    [task] = queued(broker, "notify_state", player.pk)
    assert notify_state(*task.args) == 1
    assert browser.read(service.received[-1])["body"] == "Alice : vous êtes maintenant Blessé"
    assert browser.read(service.received[-1])["kind"] == "state"

    broker.delete("celery")
    clock.advance(15 * 60)
    characters_sweep()                                   # the coma, at 15:00
    [task] = queued(broker, "notify_state", player.pk)
    assert notify_state(*task.args) == 1
    assert browser.read(service.received[-1])["body"] == "Alice : vous êtes maintenant Dans le coma"
    assert browser.read(service.received[-1])["kind"] == "grave"       # the coma's own buzz
    [warning] = queued(broker, "warn_deadline", player.pk)
    assert warning.eta == (clock.now + timedelta(minutes=14)).isoformat()
    clock.advance(14 * 60)
    assert warn_deadline(*warning.args) == 1
    assert browser.read(service.received[-1])["body"] == "Alice : vous serez mort dans 1 minute"


@pytest.mark.parametrize("language, soon, now", [
    ("en", "Alice: you will be in a coma in 1 minute", "Alice: you are now In a coma"),
    ("es", "Alice: estarás en coma en 1 minuto", "Alice: ahora estás En coma"),
])
@pytest.mark.django_db
def test_the_texts_follow_the_events_language(clock, narrator_user, service, language, soon, now):
    from players.services import character_create
    event = event_create(name="Game", ruleset="gn_fr", language=language, by=narrator_user,
                         start_clock=True)
    alice = character_create(event=event, name="Alice", sheet={"combat_base": 2})
    browser = Browser()
    browser.subscribe(alice.user, service.url("/alice"))
    wound(alice)
    clock.advance(14 * 60)
    assert warn_deadline(alice.pk, "deadline", 900) == 1
    clock.advance(60)
    character_advance(character_id=alice.pk)
    health = HealthState.objects.get(pk=alice.pk)
    assert notify_state(alice.pk, health.version, health.status) == 1
    assert [browser.read(r)["body"] for r in service.received] == [soon, now]


@pytest.mark.django_db(transaction=True)
def test_first_aid_moves_the_deadline_and_the_old_warning_sends_nothing(
        clock, event, player, medic, service, broker):
    browser = Browser()
    browser.subscribe(player.user, service.url("/alice"))
    wound(player)
    [old] = queued(broker, "warn_deadline", player.pk)
    clock.advance(5 * 60)
    treatment = treatment_start(medic=medic, patient=player, action="first_aid", params={},
                                by=medic.user)
    clock.advance(60)
    treatment_complete(treatment=treatment, by=medic.user)     # held for an hour from 6:00
    new = [t for t in queued(broker, "warn_deadline", player.pk) if t.args != old.args]
    assert [t.args for t in new] == [[player.pk, "deadline", 6 * 60 + 3600]]

    clock.advance(8 * 60)                                     # 14:00, the old warning's time
    assert warn_deadline(*old.args) == 0
    assert service.received == []
    clock.advance(3600 - 60 - 8 * 60)                         # 1:05:00, a minute before
    assert warn_deadline(*new[0].args) == 1
    assert len(service.received) == 1


@pytest.mark.django_db(transaction=True)
def test_a_pause_delays_the_warning_and_the_resume_requeues_it(
        clock, event, player, narrator_user, service, broker):
    Browser().subscribe(player.user, service.url("/alice"))
    wound(player)
    [before] = queued(broker, "warn_deadline", player.pk)
    clock.advance(5 * 60)
    clock_pause(event=event, by=narrator_user)
    clock.advance(10 * 60)                                    # 14:00 on the wall, 5:00 in game
    assert warn_deadline(*before.args) == 0                   # paused
    broker.delete("celery")
    clock_resume(event=event, by=narrator_user)
    [after] = queued(broker, "warn_deadline", player.pk)
    assert after.args == before.args
    assert after.eta == (clock.now + timedelta(minutes=9)).isoformat()
    clock.advance(60)
    assert warn_deadline(*before.args) == 0                   # the old task wakes too early
    clock.advance(8 * 60)
    assert warn_deadline(*after.args) == 1


@pytest.mark.django_db(transaction=True)
def test_a_deadline_closer_than_a_minute_gets_no_warning(clock, event, player, narrator_user,
                                                         broker):
    wound(player)
    clock.advance(14 * 60 + 30)
    clock_pause(event=event, by=narrator_user)
    broker.delete("celery")
    clock_resume(event=event, by=narrator_user)
    assert queued(broker, "warn_deadline", player.pk) == []


@pytest.mark.django_db(transaction=True)
def test_a_player_never_receives_another_characters_notifications(
        clock, event, player, other_player, service, broker):
    alice, denis = Browser(), Browser()
    alice.subscribe(player.user, service.url("/alice"))
    denis.subscribe(other_player.user, service.url("/denis"))
    wound(player)
    clock.advance(14 * 60)
    for name, run in (("notify_state", notify_state), ("warn_deadline", warn_deadline)):
        for task in queued(broker, name, player.pk):
            run(*task.args)
    assert queued(broker, "notify_state", other_player.pk) == []
    assert len(service.at("/alice")) == 2
    assert service.at("/denis") == []


@pytest.mark.parametrize("status", [404, 410])
@pytest.mark.django_db
def test_a_gone_subscription_is_deleted(player, service, status):
    Browser().subscribe(player.user, service.url("/gone"))
    service.status = status
    assert push_to_user(user=player.user, title="t", body="b", tag="x", url="/") == 0
    assert len(service.received) == 1
    assert not PushSubscription.objects.exists()


@pytest.mark.django_db
def test_other_failures_are_kept_on_the_subscription_and_never_raise(player, service):
    Browser().subscribe(player.user, service.url("/busy"))
    with socket.socket() as s:                           # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        closed = f"http://127.0.0.1:{s.getsockname()[1]}/down"
    Browser().subscribe(player.user, closed)
    service.status = 500
    assert push_to_user(user=player.user, title="t", body="b", tag="x", url="/") == 0
    errors = dict(PushSubscription.objects.values_list("endpoint", "last_error"))
    assert "500" in errors[service.url("/busy")]
    assert "ConnectionError" in errors[closed]
    service.status = 201
    assert push_to_user(user=player.user, title="t", body="b", tag="x", url="/") == 1
    assert PushSubscription.objects.get(endpoint=service.url("/busy")).last_error == ""


@pytest.mark.django_db(transaction=True)
def test_a_state_entered_is_announced_even_when_a_later_change_left_it_the_same(
        clock, event, player, medic, service, broker):
    """Wounded, then a medic starts a first aid before the push went out: the snapshot
    moved on (version) but the state is still Wounded, so "vous êtes maintenant Blessé"
    is still true and is sent."""
    browser = Browser()
    browser.subscribe(player.user, service.url("/alice"))
    wound(player)
    [task] = queued(broker, "notify_state", player.pk)
    treatment_start(medic=medic, patient=player, action="first_aid", params={}, by=medic.user)
    assert HealthState.objects.get(pk=player.pk).version > task.args[1]

    assert notify_state(*task.args) == 1
    assert browser.read(service.received[-1])["body"] == "Alice : vous êtes maintenant Blessé"
    assert browser.read(service.received[-1])["kind"] == "state"
