"""A late tap is bounded by what the server already knows (health/declared_at.py): it is
never judged earlier than the character's latest recorded change (a declaration, a
treatment, a narrator's correction), its creation, or the last contact of the phone that
proves its outbox held nothing older. Older taps are refused (`tap_before_recorded`),
never silently clamped. A treatment confirmed offline is judged at its tap, on the
patient's state as it stood then."""
from __future__ import annotations

from datetime import timedelta

import pytest

from fixtures import act, client_for, personaje, septenario_event, snapshot, start_treatment
from health.services import characters_sweep
from players.models import JournalEntry
from players.services import character_create

pytestmark = pytest.mark.django_db

NOTHING_WAITING = {"HTTP_X_OUTBOX_OLDEST": "none"}


def declare(api, character, action, tapped_at, key=None, **params):
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    return api.post(f"/api/characters/{character.pk}/actions/",
                    {"action": action, "params": params, "tapped_at": tapped_at.isoformat()},
                    format="json", **headers)


def confirm(api, treatment_id, tapped_at=None):
    body = {"tapped_at": tapped_at.isoformat()} if tapped_at else {}
    return api.post(f"/api/treatments/{treatment_id}/complete/", body, format="json")


def journal(character):
    return list(JournalEntry.objects.filter(character=character).values_list("id", flat=True))


def refused_unchanged(response, api, character, before, lines):
    assert response.status_code == 409, response.content
    assert response.json()["error"] == "tap_before_recorded"
    after = snapshot(api, character)
    assert (after["state"], after["values"], after["timers"]) == \
        (before["state"], before["values"], before["timers"])
    assert journal(character) == lines


def test_a_stun_tapped_before_two_recorded_hits_is_refused(clock, event, player, player_api):
    """(a) The recorded hits' recovery is never replaced by an older tap's: the character
    does not come out of it healthy with a full combat score."""
    clock.advance(4 * 60)
    tapped = clock.now                     # 11 minutes before it arrives
    clock.advance(6 * 60)
    assert act(player_api, player, "hit_stunning").status_code == 200
    clock.advance(3 * 60)
    assert act(player_api, player, "hit_stunning").status_code == 200
    clock.advance(2 * 60)
    before = snapshot(player_api, player)
    assert before["values"]["combat_loss"] == 2
    lines = journal(player)

    response = declare(client_for(player.user, "fr"), player, "hit_stunning", tapped)

    refused_unchanged(response, player_api, player, before, lines)
    detail = response.json()["detail"]
    assert "20:04" in detail and "20:13" in detail          # the tap and the recorded change
    # The two honest hits' ten minutes still run from the second one.
    assert before["timers"][0]["remaining_s"] == 8 * 60


def test_a_tap_dated_before_the_character_existed_is_refused(clock, event, narrator_user):
    """(b)"""
    clock.advance(5 * 60)
    tapped = clock.now
    clock.advance(5 * 60)
    late = character_create(event=event, name="Zoé", sheet={"combat_base": 2}, by=narrator_user)
    clock.advance(2 * 60)
    api = client_for(late.user, "es")
    before = snapshot(api, late)

    response = declare(api, late, "hit_wounding", tapped)

    refused_unchanged(response, api, late, before, journal(late))
    assert "creado" in response.json()["detail"]


def test_a_tap_dated_before_a_narrators_correction_is_refused(clock, event, player, player_api,
                                                             narrator_api):
    """(c) The narrator put Alice back on her feet at 20:10: a wound tapped at 20:05 does not
    undo that."""
    assert act(player_api, player, "hit_wounding").status_code == 200
    clock.advance(5 * 60)
    tapped = clock.now
    clock.advance(5 * 60)
    assert act(narrator_api, player, "set_state", state="healthy").status_code == 200
    clock.advance(60)
    before = snapshot(player_api, player)
    lines = journal(player)

    response = declare(player_api, player, "hit_wounding", tapped)

    refused_unchanged(response, player_api, player, before, lines)
    assert before["state"]["key"] == "healthy"


def test_a_tap_after_the_recorded_changes_still_counts_from_the_tap(clock, event, player,
                                                                    player_api):
    """The bound refuses only what is older: two stuns in a dead zone, three minutes apart,
    arriving together twelve minutes after the first. Both count from their taps: the
    first one's ten minutes of recovery, recorded as over when it arrived, are counted
    again from the second, which restarted them (as it would have online)."""
    first = clock.now
    clock.advance(3 * 60)
    second = clock.now
    clock.advance(9 * 60)
    assert declare(player_api, player, "hit_stunning", first, key="a").status_code == 200

    response = declare(player_api, player, "hit_stunning", second, key="b")

    assert response.status_code == 200, response.content
    snap = response.json()["snapshot"]
    assert snap["values"]["combat_loss"] == 2
    recovery = [t for t in snap["timers"] if t["key"] == "combat_recovery"][0]
    assert recovery["remaining_s"] == 10 * 60 - 9 * 60      # from the second tap
    [line] = JournalEntry.objects.filter(character=player, kind="action", what="hit_stunning",
                                         detail__tapped_at=second.isoformat())
    assert len(line.detail["recounted_timers"]) == 1


def test_a_septenario_trap_tapped_six_minutes_late_while_the_phone_was_connected(clock,
                                                                                 narrator_user):
    """(d) The phone was in contact one minute ago with nothing waiting in its outbox: a
    trap it claims was tapped six minutes ago cannot have waited in it. Refused: counted
    from the tap its five minutes of paralysis would already be over (the trap would
    never paralyse), and counted from its arrival it would be a silent clamp. The player
    declares it again, and is paralysed for five minutes from then."""
    event = septenario_event(narrator_user)
    lucia = personaje(event, narrator_user)
    api = client_for(lucia.user, "es")
    clock.advance(60)
    tapped = clock.now
    clock.advance(5 * 60)
    before = api.get(f"/api/characters/{lucia.pk}/", **NOTHING_WAITING).json()
    clock.advance(60)

    response = declare(api, lucia, "trap_simple", tapped, leaves="paralysed")

    refused_unchanged(response, api, lucia, before, journal(lucia))
    assert response.json()["detail"] == (
        "Pulsado a las 20:01:00 UTC, antes de la última conexión de este teléfono sin nada "
        "pendiente de enviar (20:06:00 UTC): el servidor no puede contarlo antes. No se ha "
        "aplicado nada; decláralo de nuevo si sigue valiendo.")
    again = act(api, lucia, "trap_simple", leaves="paralysed")
    assert again.json()["snapshot"]["values"]["paralysed"] is True


def test_a_phone_that_was_out_of_contact_counts_its_trap_from_the_tap(clock, narrator_user):
    """The same trap from a phone whose last contact (nothing waiting) was before the tap:
    the server has nothing that contradicts it, so it counts from the tap."""
    event = septenario_event(narrator_user)
    lucia = personaje(event, narrator_user)
    api = client_for(lucia.user, "es")
    api.get(f"/api/characters/{lucia.pk}/", **NOTHING_WAITING)
    clock.advance(60)
    tapped = clock.now
    clock.advance(4 * 60)

    response = declare(api, lucia, "trap_simple", tapped, leaves="paralysed")

    assert response.status_code == 200, response.content
    snap = response.json()["snapshot"]
    assert snap["values"]["paralysed"] is True
    assert snap["timers"][0]["remaining_s"] == 60            # 5 min from the tap


def test_a_contact_with_a_write_still_waiting_does_not_refuse_it(clock, narrator_user):
    """A phone back in range reads before its outbox is sent: its contact says the oldest
    write waiting dates from the tap, so the tap is not refused."""
    event = septenario_event(narrator_user)
    lucia = personaje(event, narrator_user)
    api = client_for(lucia.user, "es")
    clock.advance(60)
    tapped = clock.now
    clock.advance(5 * 60)
    api.get(f"/api/characters/{lucia.pk}/", HTTP_X_OUTBOX_OLDEST=tapped.isoformat())
    clock.advance(10)

    response = declare(api, lucia, "trap_simple", tapped, leaves="paralysed")

    assert response.status_code == 200, response.content


def wounded_with_first_aid_running(clock, player, player_api, medic_api, medic):
    """Alice wounded at 20:00 (coma at 20:15); first aid started at 20:13, ready at 20:14."""
    assert act(player_api, player, "hit_wounding").status_code == 200
    clock.advance(13 * 60)
    started = start_treatment(medic_api, medic, player, "first_aid")
    assert started.status_code == 201, started.content
    clock.advance(60)
    return started.json()["id"]


def test_first_aid_confirmed_offline_in_time_beats_the_coma(clock, event, player, medic,
                                                            player_api, medic_api):
    """(e) Confirmed at 20:14:30 in a dead zone, it reaches the server 28 s after the coma
    was recorded at 20:15: judged at its tap, the patient was still Wounded, and the hour
    of first aid counts from the tap."""
    treatment = wounded_with_first_aid_running(clock, player, player_api, medic_api, medic)
    clock.advance(30)
    tapped = clock.now
    clock.advance(30)
    characters_sweep()                                     # 20:15: the coma is recorded
    assert snapshot(player_api, player)["state"]["key"] == "coma"
    clock.advance(28)

    done = confirm(medic_api, treatment, tapped)

    assert done.status_code == 200, done.content
    assert done.json()["status"] == "completed"
    state = snapshot(player_api, player)
    assert state["state"]["key"] == "wounded"
    assert state["next"]["remaining_s"] == 3600 - 58       # from the tap
    [line] = JournalEntry.objects.filter(character=player, what="first_aid:completed")
    assert line.detail["tapped_at"] == tapped.isoformat()
    assert (line.before["status"], line.after["status"]) == ("coma", "wounded")


def test_first_aid_confirmed_offline_after_the_deadline_does_not(clock, event, player, medic,
                                                                  player_api, medic_api):
    """(f) Tapped at 20:15:10, after the coma began: judged at its tap, the patient was in
    a coma already; first aid holds the coma, it does not undo it."""
    treatment = wounded_with_first_aid_running(clock, player, player_api, medic_api, medic)
    clock.advance(70)
    tapped = clock.now
    characters_sweep()
    clock.advance(28)

    done = confirm(medic_api, treatment, tapped)

    assert done.status_code == 200, done.content
    state = snapshot(player_api, player)
    assert state["state"]["key"] == "coma"
    assert state["next"]["remaining_s"] == 3600 - 28       # the coma held from the tap


def test_a_confirmation_tapped_before_the_treatment_was_ready_is_refused(clock, event, player,
                                                                         medic, player_api,
                                                                         medic_api):
    treatment = wounded_with_first_aid_running(clock, player, player_api, medic_api, medic)
    tapped = clock.now - timedelta(seconds=30)
    clock.advance(60)
    done = confirm(medic_api, treatment, tapped)
    assert done.status_code == 409
    assert done.json()["error"] == "not_ready"


def test_a_confirmation_tapped_before_a_recorded_change_is_refused(clock, event, player, medic,
                                                                   player_api, medic_api,
                                                                   narrator_api):
    treatment = wounded_with_first_aid_running(clock, player, player_api, medic_api, medic)
    tapped = clock.now
    clock.advance(20)
    assert act(narrator_api, player, "set_state", state="coma").status_code == 200
    clock.advance(20)
    done = confirm(medic_api, treatment, tapped)
    assert done.status_code == 409, done.content
    assert done.json()["error"] == "tap_before_recorded"
    assert snapshot(player_api, player)["state"]["key"] == "coma"


def test_another_phone_of_the_same_character_is_not_bound_by_this_ones_contact(clock,
                                                                              narrator_user):
    """The proof belongs to the phone that gave it (its session): the player's second phone,
    out of range since before the tap, still sends its trap late."""
    event = septenario_event(narrator_user)
    lucia = personaje(event, narrator_user)
    online, offline = client_for(lucia.user, "es"), client_for(lucia.user, "es")
    offline.get(f"/api/characters/{lucia.pk}/", **NOTHING_WAITING)
    clock.advance(60)
    tapped = clock.now
    clock.advance(5 * 60)
    online.get(f"/api/characters/{lucia.pk}/", **NOTHING_WAITING)
    clock.advance(60)

    assert declare(online, lucia, "trap_simple", tapped, leaves="paralysed").status_code == 409
    response = declare(offline, lucia, "trap_simple", tapped, leaves="paralysed")
    assert response.status_code == 200, response.content


@pytest.mark.parametrize("header", [{}, {"HTTP_X_OUTBOX_OLDEST": "yesterday"},
                                    {"HTTP_X_OUTBOX_OLDEST": "2026-06-06T20:00:00"}])
def test_a_request_that_does_not_say_what_waits_proves_nothing(clock, narrator_user, header):
    """No header (a script), an unreadable one, or an instant without its timezone."""
    event = septenario_event(narrator_user)
    lucia = personaje(event, narrator_user)
    api = client_for(lucia.user, "es")
    clock.advance(60)
    tapped = clock.now
    clock.advance(5 * 60)
    assert api.get(f"/api/characters/{lucia.pk}/", **header).status_code == 200
    clock.advance(60)
    response = declare(api, lucia, "trap_simple", tapped, leaves="paralysed")
    assert response.status_code == 200, response.content
