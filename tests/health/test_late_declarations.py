"""Offline truth: a declaration that waited in a phone's outbox carries the instant of the
tap (`tapped_at`, on the server's clock) and counts from it, at most
`late_declaration_max_s` back (30 min by default; older taps count from that bound); the
journal keeps the tap and the arrival; a deadline already past when it arrives applies at
once, at its own instant."""
from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from fixtures import client_for, snapshot
from health.declared_at import declared_instant
from players.models import JournalEntry
from players.services import character_create, event_create

pytestmark = pytest.mark.django_db


def declare(api, character, action, tapped_at: datetime | None, key=None, **params):
    body = {"action": action, "params": params}
    if tapped_at is not None:
        body["tapped_at"] = tapped_at.isoformat()
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    return api.post(f"/api/characters/{character.pk}/actions/", body, format="json", **headers)


def lines(character, *kinds):
    return list(JournalEntry.objects.filter(character=character,
                                            kind__in=kinds or ["action", "timer"])
                .order_by("id"))


def test_a_tap_ten_minutes_before_it_arrives_counts_from_the_tap(clock, event, player, player_api):
    clock.advance(120)
    tapped = clock.now
    game_at_tap = event.game_time(tapped)
    clock.advance(600)                         # ten minutes in a dead zone

    response = declare(player_api, player, "hit_wounding", tapped, key="dead-zone-1")

    assert response.status_code == 200, response.content
    snap = response.json()["snapshot"]
    assert snap["state"]["key"] == "wounded"
    # The fifteen minutes before the coma started at the tap: five are left, not fifteen.
    assert snap["next"]["remaining_s"] == 300
    assert snap["next"]["at"] == (tapped + timedelta(seconds=900)).isoformat()
    assert snapshot(player_api, player)["next"]["remaining_s"] == 300
    told = response.json()["events"][-1]
    assert told["kind"] == "declared_at" and told["clamped"] is False and told["text"] is None
    assert told["tapped_at"] == tapped.isoformat() == told["applied_at"]
    line, expired = lines(player)
    # Its minute on the ground (and the 10 min of lowered combat points) ended by the time
    # it arrived: applied at once.
    assert (expired.kind, set(expired.what.split(","))) == ("timer", {"inert", "combat_recovery"})
    assert expired.game_s == pytest.approx(game_at_tap + 600)
    assert line.at == clock.now                                   # when it arrived
    assert line.game_s == pytest.approx(game_at_tap)              # when it happened
    assert line.detail["tapped_at"] == tapped.isoformat()
    assert line.detail["received_at"] == clock.now.isoformat()
    assert line.detail["clamped"] is False
    history = player_api.get(f"/api/characters/{player.pk}/history/").json()["history"]
    [declared] = [row for row in history if row["kind"] == "action"]
    assert declared["tapped_at"] == tapped.isoformat() and declared["at"] == clock.now.isoformat()


def test_a_tap_whose_deadline_passed_before_it_arrived_advances_at_once(clock, event, player,
                                                                          player_api):
    tapped = clock.now
    clock.advance(20 * 60)

    response = declare(player_api, player, "hit_wounding", tapped)

    assert response.status_code == 200, response.content
    snap = response.json()["snapshot"]
    # Wounded at the tap, in a coma 15 min later (5 min ago): its 15 min run from then.
    assert snap["state"]["key"] == "coma"
    assert snap["next"]["remaining_s"] == 600
    action, timer = lines(player)
    assert (action.before["status"], action.after["status"]) == ("healthy", "wounded")
    assert (timer.before["status"], timer.after["status"]) == ("wounded", "coma")
    assert timer.actor_label == "system"
    assert action.game_s == pytest.approx(0) and timer.game_s == pytest.approx(900)
    assert action.at == timer.at == clock.now
    assert action.after == timer.before                           # no gap in the chain


def test_a_tap_older_than_the_bound_counts_from_the_bound(clock, event, player):
    api = client_for(player.user, "fr")
    clock.advance(3600)
    tapped = clock.now
    clock.advance(40 * 60)

    response = declare(api, player, "hit_wounding", tapped)

    assert response.status_code == 200, response.content
    bound = clock.now - timedelta(minutes=30)
    told = response.json()["events"][-1]
    assert told["clamped"] is True
    assert told["applied_at"] == bound.isoformat() and told["tapped_at"] == tapped.isoformat()
    assert told["text"] == ("Déclaré 40 min avant d'arriver au serveur : compté à partir de "
                            "30 min avant, le plus loin que permet ce jeu.")
    [action, *_] = lines(player)
    assert action.game_s == pytest.approx(event.game_time(bound))
    assert action.detail["clamped"] is True
    assert action.detail["applied_at"] == bound.isoformat()
    # Counted from 30 min ago: Wounded then, in a coma at -15 min, dead now.
    assert response.json()["snapshot"]["state"]["key"] == "dead"


def test_the_bound_is_the_events_option(clock, narrator_user):
    """late_declaration_max_s: the same tap, 15 min old, under a 10 min bound and the
    default 30 min."""
    short = event_create(name="Court", ruleset="gn_fr", by=narrator_user, start_clock=True,
                         options={"late_declaration_max_s": 600})
    default = event_create(name="Défaut", ruleset="gn_fr", by=narrator_user, start_clock=True)
    alice = character_create(event=short, name="Alice", sheet={"combat_base": 2})
    bruno = character_create(event=default, name="Bruno", sheet={"combat_base": 2})
    tapped = clock.now
    clock.advance(15 * 60)

    bounded = declare(client_for(alice.user), alice, "hit_wounding", tapped).json()
    counted = declare(client_for(bruno.user), bruno, "hit_wounding", tapped).json()

    assert bounded["snapshot"]["state"]["key"] == "wounded"
    assert bounded["snapshot"]["next"]["remaining_s"] == 300      # from 10 min ago
    assert bounded["events"][-1]["clamped"] is True
    assert counted["snapshot"]["state"]["key"] == "coma"           # from the tap, 15 min ago
    assert counted["events"][-1]["clamped"] is False


def test_a_tap_in_the_future_is_refused_beyond_a_few_seconds(clock, event, player):
    api = client_for(player.user, "es")
    refused = declare(api, player, "hit_wounding", clock.now + timedelta(seconds=60))
    assert refused.status_code == 400
    assert refused.json()["error"] == "tap_in_future"
    assert "reloj" in refused.json()["detail"]
    assert lines(player) == []

    slightly = declare(api, player, "hit_wounding", clock.now + timedelta(seconds=3))
    assert slightly.status_code == 200, slightly.content
    assert slightly.json()["snapshot"]["next"]["remaining_s"] == 900   # counted from arrival
    assert "tapped_at" not in lines(player)[0].detail


def test_a_pause_since_the_tap_does_not_shift_it(clock, event, player, player_api, narrator_api):
    """The game clock at the tap is what it read then: ten minutes of arrêt de jeu between
    the tap and its arrival neither count in the wound's fifteen minutes nor move the tap."""
    clock.advance(60)
    tapped = clock.now
    clock.advance(5 * 60)
    assert narrator_api.post(f"/api/events/{event.pk}/clock/", {"action": "pause"},
                             format="json").status_code == 200
    clock.advance(10 * 60)
    assert narrator_api.post(f"/api/events/{event.pk}/clock/", {"action": "resume"},
                             format="json").status_code == 200
    clock.advance(5 * 60)

    response = declare(player_api, player, "hit_wounding", tapped)

    assert response.status_code == 200, response.content
    assert response.json()["snapshot"]["next"]["remaining_s"] == 900 - 10 * 60  # played since
    [action] = lines(player, "action")
    assert action.game_s == pytest.approx(60)


def test_a_tap_during_a_pause_is_refused_one_before_a_pause_still_counts(clock, event, player,
                                                                         narrator_api):
    api = client_for(player.user, "fr")
    narrator_api.post(f"/api/events/{event.pk}/clock/", {"action": "pause"}, format="json")
    clock.advance(60)
    during = clock.now
    clock.advance(60)
    narrator_api.post(f"/api/events/{event.pk}/clock/", {"action": "resume"}, format="json")
    clock.advance(60)

    refused = declare(api, player, "hit_wounding", during)

    assert refused.status_code == 409
    assert refused.json()["error"] == "tap_while_paused"
    assert "était arrêté" in refused.json()["detail"]
    assert lines(player) == []

    # Tapped while the game ran, arriving during an Emergencia: it counts, frozen with the rest.
    before_pause = clock.now
    clock.advance(120)
    assert api.post(f"/api/events/{event.pk}/emergency/", {}, format="json").status_code == 200
    clock.advance(300)
    response = declare(api, player, "hit_wounding", before_pause)
    assert response.status_code == 200, response.content
    snap = response.json()["snapshot"]
    assert snap["clock"]["running"] is False
    assert snap["next"]["remaining_s"] == 900 - 120


def test_a_late_tap_sent_twice_applies_once(clock, event, player, player_api):
    tapped = clock.now
    clock.advance(300)
    first = declare(player_api, player, "hit_stunning", tapped, key="same-tap")
    second = declare(player_api, player, "hit_stunning", tapped, key="same-tap")
    assert first.status_code == second.status_code == 200
    assert second["Idempotent-Replayed"] == "true"
    assert len(lines(player)) == 1


def test_without_the_tap_nothing_changes(clock, event, player, player_api):
    clock.advance(600)
    response = declare(player_api, player, "hit_wounding", None)
    assert response.json()["snapshot"]["next"]["remaining_s"] == 900
    assert "declared_at" not in [e["kind"] for e in response.json()["events"]]
    assert "tapped_at" not in lines(player)[0].detail


def test_a_narrator_may_correct_as_of_an_instant_of_a_pause(clock, event, player, narrator_api):
    narrator_api.post(f"/api/events/{event.pk}/clock/", {"action": "pause"}, format="json")
    clock.advance(60)
    tapped = clock.now
    clock.advance(60)
    response = declare(narrator_api, player, "hit_wounding", tapped)
    assert response.status_code == 200, response.content


def test_the_zombie_race_counts_declarations_when_they_arrive(clock, narrator_user):
    """A ruleset without the late_declarations feature: the tap is not read."""
    race = event_create(name="Course", ruleset="zombie_race", by=narrator_user, start_clock=True)
    assert not race.rules().has("late_declarations")
    declared = declared_instant(event=race, tapped_at=clock.now - timedelta(minutes=5),
                                now=clock.now, as_narrator=False)
    assert not declared.late and declared.applied_at == clock.now


def test_a_bad_instant_is_a_clear_400(clock, event, player):
    api = client_for(player.user, "en")
    response = api.post(f"/api/characters/{player.pk}/actions/",
                        {"action": "hit_wounding", "tapped_at": "yesterday"}, format="json")
    assert response.status_code == 400
    assert response.json()["error"] == "bad_input"
    assert "tapped_at" in response.json()["detail"]


def test_another_player_cannot_declare_for_someone(clock, event, player, other_player):
    response = declare(client_for(other_player.user), player, "hit_wounding", clock.now)
    assert response.status_code == 404
