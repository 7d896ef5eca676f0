"""How a notification travels (push/services.py): how long the push service may keep it
(a "1 minute" warning is worthless a minute later), a push service that never answers, what
a failure leaves on the subscription, and the notifications that must not be sent."""
from __future__ import annotations

import logging
import socket
import threading

import pytest

from health.models import HealthState
from players.privacy import Person
from push import services
from push.models import PushSubscription
from push.services import push_to_user, state_alert_kind
from push.tasks import notify_state, warn_deadline
from pushkit import Browser, queued, wound

pytestmark = pytest.mark.django_db


def test_a_warning_lives_as_long_as_the_minute_it_announces(clock, event, player, service):
    browser = Browser()
    browser.subscribe(player.user, service.url("/alice"))
    wound(player)                                      # the coma at 15:00
    clock.advance(14 * 60 - services.WARN_EARLY_S)     # its earliest moment
    assert warn_deadline(player.pk, "deadline", 900) == 1
    [request] = service.received
    assert request.headers["ttl"] == "62"              # 61 s left, and the second begun
    assert browser.read(request)["body"] == "Alice : vous serez dans le coma dans 1 minute"


def test_a_state_notification_lives_a_quarter_of_an_hour(clock, event, player, service):
    Browser().subscribe(player.user, service.url("/alice"))
    wound(player)
    health = HealthState.objects.get(pk=player.pk)
    assert notify_state(player.pk, health.version, health.status) == 1
    assert service.received[0].headers["ttl"] == str(15 * 60)


def test_any_other_notification_lives_ten_minutes_and_is_a_state_s(player, service):
    browser = Browser()
    browser.subscribe(player.user, service.url("/alice"))
    assert push_to_user(user=player.user, title="t", body="b", tag="x", url="/") == 1
    assert service.received[0].headers["ttl"] == "600"
    assert browser.read(service.received[0])["kind"] == "state"


@pytest.mark.django_db(transaction=True)     # sent from another thread
def test_a_push_service_that_never_answers_costs_a_bounded_wait(player, monkeypatch):
    monkeypatch.setattr(services, "SEND_TIMEOUT_S", 0.5)
    with socket.socket() as silent:                   # accepts, reads, never answers
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        Browser().subscribe(player.user, f"http://127.0.0.1:{silent.getsockname()[1]}/stuck")
        sent = []
        sending = threading.Thread(target=lambda: sent.append(
            push_to_user(user=player.user, title="t", body="b", tag="x", url="/")), daemon=True)
        sending.start()
        sending.join(timeout=10)
        assert not sending.is_alive(), "the push waited for ever"
    assert sent == [0]
    assert "Timeout" in PushSubscription.objects.get().last_error


def test_a_failure_is_logged_and_kept_with_its_instant_and_kind_at_most_1000_long(
        clock, player, service, caplog):
    Browser().subscribe(player.user, service.url("/busy"))
    subscription = PushSubscription.objects.get()
    service.status, service.answer = 500, b"x" * 5000
    with caplog.at_level(logging.WARNING, logger="push.services"):
        assert push_to_user(user=player.user, title="t", body="b", tag="x", url="/") == 0
    error = PushSubscription.objects.get().last_error
    assert len(error) == 1000
    assert error.startswith(f"{clock.now.isoformat()} WebPushException: WebPushException: "
                            "Push failed: 500 Internal Server Error")
    [logged] = caplog.records
    assert logged.getMessage().startswith(
        f"push to subscription {subscription.pk} failed: WebPushException: Push failed: 500")


def test_a_character_without_an_account_is_sent_nothing(clock, event, player, service):
    Browser().subscribe(player.user, service.url("/alice"))
    wound(player)
    health = HealthState.objects.get(pk=player.pk)
    player.user = None
    player.save(update_fields=["user"])
    assert notify_state(player.pk, health.version, health.status) == 0
    assert service.received == []


def test_notifications_about_no_one_or_no_state_send_nothing(clock, event, player, service):
    Browser().subscribe(player.user, service.url("/alice"))
    wound(player)
    health = HealthState.objects.get(pk=player.pk)
    assert notify_state(player.pk + 1000, health.version, health.status) == 0
    assert warn_deadline(player.pk + 1000, "deadline", 900) == 0
    assert notify_state(player.pk, health.version, "no_such_state") == 0
    assert service.received == []


@pytest.mark.django_db(transaction=True)
def test_a_state_left_before_its_notification_went_out_is_not_announced(
        clock, event, player, service, broker):
    from health.undo import character_action_undo
    from players.models import JournalEntry

    Browser().subscribe(player.user, service.url("/alice"))
    wound(player)
    [task] = queued(broker, "notify_state", player.pk)
    character_action_undo(entry=JournalEntry.objects.get(character=player, kind="action"),
                          by=player.user)               # healthy again, before the push
    assert HealthState.objects.get(pk=player.pk).status == "healthy"
    assert notify_state(*task.args) == 0
    assert warn_deadline(player.pk, "deadline", 900) == 0     # that deadline is gone too
    assert service.received == []


def test_a_warning_for_another_instant_sends_nothing(clock, event, player, service):
    Browser().subscribe(player.user, service.url("/alice"))
    wound(player)
    clock.advance(14 * 60)
    assert warn_deadline(player.pk, "deadline", 900.5) == 0
    assert service.received == []


@pytest.mark.parametrize("state, kind", [
    ({"inert": True, "severity": 3}, "grave"),
    ({"inert": True, "severity": 2}, "state"),
    ({"inert": True}, "state"),
    ({"inert": False, "severity": 4}, "state"),
    ({"severity": 4}, "state"),
])
def test_only_a_grave_lying_state_has_the_grave_buzz(state, kind):
    assert state_alert_kind(state) == kind


def test_an_erased_account_s_browsers_are_forgotten_a_kept_one_s_kept(player, other_player,
                                                                     service):
    Browser().subscribe(player.user, service.url("/alice"))
    Browser().subscribe(other_player.user, service.url("/denis"))
    services.push_person_erase(person=Person(user=player.user, account_erased=True), scrub=None)
    services.push_person_erase(person=Person(user=other_player.user), scrub=None)
    assert list(PushSubscription.objects.values_list("endpoint", flat=True)) == [service.url("/denis")]
