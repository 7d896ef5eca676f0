"""Airsoft medic mode at le Terrier (rulebook §2; spec C4, C5, P04-P11, B1, B2, B5-B8):
a teammate heals a downed player in place while the player counts 11 to 20, or drags
them away first (extraction). What each phone shows, and what a referee would check."""
from __future__ import annotations

import pytest

from combat.models import Heal
from combat.services.schedule import fights_sweep
from combat.tasks import end_fight
from fixtures import act, client_for, snapshot
from players.models import JournalEntry
from players.services import character_create, event_create, team_get_or_create
from schedule.services.clock import clock_pause, clock_resume

pytestmark = pytest.mark.django_db


def airsoft(narrator_user, **options):
    return event_create(name="Partie au Terrier", ruleset="airsoft_rats", language="fr",
                        options=options, by=narrator_user, start_clock=True)


@pytest.fixture
def game(clock, narrator_user):
    return airsoft(narrator_user, medic_mode=True)


@pytest.fixture
def player_in(narrator_user):
    """player_in(game, "Name", "team") -> (character, its phone), in play."""
    def make(game, name, team, **sheet):
        character = character_create(event=game, name=name, sheet=sheet, by=narrator_user,
                                     team=team_get_or_create(event=game, name=team))
        phone = client_for(character.user)
        assert act(phone, character, "respawn").status_code == 200   # from the spawn
        return character, phone
    return make


@pytest.fixture
def squad(game, player_in):
    """Karim and Léa (rouge), Yann (bleu)."""
    return player_in(game, "Karim", "rouge"), player_in(game, "Léa", "rouge"), \
        player_in(game, "Yann", "bleu")


def down(clock, phone, character):
    """Hit in medic mode: count to 10, then wait for a medic (P02, P03)."""
    assert act(phone, character, "hit").status_code == 200
    clock.advance(10)
    assert state(phone, character) == "down_awaiting"


def heal(phone, medic, patient, kind="heal", key=None):
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    return phone.post(f"/api/characters/{medic.pk}/heals/",
                      {"patient_code": patient.code, "kind": kind}, format="json", **headers)


def stop(phone, heal_id, reason="hands_off"):
    return phone.post(f"/api/heals/{heal_id}/stop/", {"reason": reason}, format="json")


def state(phone, character) -> str:
    return snapshot(phone, character)["state"]["key"]


def shown(phone, character) -> dict:
    heals = [f for f in snapshot(phone, character)["fights"] if f["kind"] == "heal"]
    assert len(heals) == 1, heals
    return heals[0]


def journal(game, what) -> list[JournalEntry]:
    return list(JournalEntry.objects.filter(event=game, kind="heal", what=what).order_by("id"))


def test_the_medic_mode_timeline(clock, game, squad):
    (karim, karim_phone), (lea, lea_phone), _ = squad
    assert act(karim_phone, karim, "hit").status_code == 200
    assert state(karim_phone, karim) == "hit_counting"
    clock.advance(10)
    assert state(karim_phone, karim) == "down_awaiting"

    started = heal(lea_phone, lea, karim)
    assert started.status_code == 201, started.content
    healing = shown(lea_phone, lea)
    assert (healing["role"], healing["other"], healing["type"]["key"]) == ("medic", "Karim", "heal")
    assert healing["ends"]["remaining_s"] == 10
    assert healing["can_shoot"] is False and [c["key"] for c in healing["cannot"]] == ["shoot"]
    patient = shown(karim_phone, karim)
    assert (patient["role"], patient["other"]) == ("patient", "Léa")
    assert patient["count"] == {"from": 11, "to": 20}
    assert patient["ends"]["at"] == healing["ends"]["at"]             # one instant, both phones
    assert snapshot(karim_phone, karim)["state"]["label"] == "Being healed — count 11 to 20"

    clock.advance(3)
    assert shown(lea_phone, lea)["ends"]["remaining_s"] == 7          # "0:07 left"
    clock.advance(7)
    assert end_fight("heal", started.json()["heal"]) is True
    after = snapshot(karim_phone, karim)
    assert after["state"]["key"] == "healed_pending_call"
    assert after["state"]["label"] == "Healed — shout \"retour en jeu\""
    assert "shoot" in [c["key"] for c in after["state"]["cannot"]]   # nothing counts yet (P13)
    assert shown(lea_phone, lea)["status"] == "completed"
    assert "can_shoot" not in shown(lea_phone, lea)                  # hands free again

    assert act(karim_phone, karim, "retour_en_jeu").status_code == 200
    assert state(karim_phone, karim) == "in_play"
    assert [(e.character.name, e.game_s) for e in journal(game, "started")] == [("Léa", 10), ("Karim", 10)]
    assert [(e.character.name, e.game_s) for e in journal(game, "completed")] == [("Léa", 20), ("Karim", 20)]


def test_a_heal_stopped_at_six_seconds_starts_again_from_eleven(clock, game, squad):
    (karim, karim_phone), (lea, lea_phone), _ = squad
    down(clock, karim_phone, karim)
    first = heal(lea_phone, lea, karim).json()["heal"]
    clock.advance(6)
    stopped = stop(lea_phone, first, "hands_off")
    assert stopped.status_code == 200 and stopped.json()["status_of_heal"] == "stopped"
    assert state(karim_phone, karim) == "down_awaiting"                # P07
    assert shown(karim_phone, karim)["reason"] == "the medic took their hands off"
    assert stop(lea_phone, first).status_code == 409                  # already over

    again = heal(lea_phone, lea, karim)
    assert again.status_code == 201
    fresh = next(f for f in snapshot(karim_phone, karim)["fights"] if f["id"] == again.json()["heal"])
    assert fresh["ends"]["remaining_s"] == 10                         # from 11 again
    clock.advance(9)
    assert fights_sweep() == 0 and state(karim_phone, karim) == "being_healed"
    clock.advance(1)
    assert fights_sweep() == 1 and state(karim_phone, karim) == "healed_pending_call"


def test_a_medic_who_fires_aborts_the_heal_and_the_shot_does_not_count(clock, game, squad):
    (karim, karim_phone), (lea, lea_phone), _ = squad
    down(clock, karim_phone, karim)
    started = heal(lea_phone, lea, karim).json()["heal"]
    clock.advance(4)
    assert stop(lea_phone, started, "fired").json()["status_of_heal"] == "stopped"   # P08, B6
    assert state(karim_phone, karim) == "down_awaiting"
    assert shown(karim_phone, karim)["reason"] == "the medic fired (the shot does not count)"
    assert journal(game, "stopped")[0].detail["reason"] == "fired"


@pytest.mark.parametrize("how", ["hit", "sanction_out", "removed"])
def test_a_medic_taken_out_mid_heal_aborts_it(how, clock, game, squad, narrator_api):
    (karim, karim_phone), (lea, lea_phone), _ = squad
    down(clock, karim_phone, karim)
    heal_id = heal(lea_phone, lea, karim).json()["heal"]
    clock.advance(4)
    if how == "hit":   # P09: the medic declares it from their phone
        assert act(lea_phone, lea, "hit").status_code == 200
    else:              # P15, P22: a referee's sanction
        assert act(narrator_api, lea, how).status_code == 200
    assert state(lea_phone, lea) == {"hit": "hit_counting", "sanction_out": "out_returning",
                                     "removed": "removed"}[how]
    assert state(karim_phone, karim) == "down_awaiting"                # progress lost (B5)
    view = shown(karim_phone, karim)
    assert (view["status"], view["reason"]) == ("aborted", "the medic was hit or taken out")
    assert Heal.objects.get(pk=heal_id).status == Heal.ABORTED
    clock.advance(10)
    assert fights_sweep() == 0 and state(karim_phone, karim) == "down_awaiting"
    assert [e.character.name for e in journal(game, "aborted")] == ["Léa", "Karim"]


def test_the_patient_hit_again_is_ignored(clock, game, squad):
    (karim, karim_phone), (lea, lea_phone), _ = squad
    down(clock, karim_phone, karim)
    heal_id = heal(lea_phone, lea, karim).json()["heal"]
    clock.advance(5)
    assert act(karim_phone, karim, "hit").status_code == 200          # P23, B5
    assert state(karim_phone, karim) == "being_healed"
    clock.advance(5)
    assert end_fight("heal", heal_id) is True
    assert state(karim_phone, karim) == "healed_pending_call"


def test_a_referee_moving_the_patient_ends_the_heal(clock, game, squad, narrator_api):
    (karim, karim_phone), (lea, lea_phone), _ = squad
    down(clock, karim_phone, karim)
    heal_id = heal(lea_phone, lea, karim).json()["heal"]
    assert act(narrator_api, karim, "sanction_out").status_code == 200
    assert state(karim_phone, karim) == "out_returning"
    assert shown(lea_phone, lea)["status"] == "aborted"
    clock.advance(10)
    assert end_fight("heal", heal_id) is False
    assert state(karim_phone, karim) == "out_returning"
    # Léa is free to heal someone else.
    assert Heal.objects.filter(medic=lea, status=Heal.RUNNING).count() == 0


def test_extraction_then_heal(clock, game, squad):
    (karim, karim_phone), (lea, lea_phone), _ = squad
    down(clock, karim_phone, karim)
    dragged = heal(lea_phone, lea, karim, kind="extraction")
    assert dragged.status_code == 201, dragged.content
    assert state(karim_phone, karim) == "under_extraction"            # P05
    extracting = shown(lea_phone, lea)
    assert (extracting["type"]["key"], extracting["can_shoot"], extracting["ends"]) == \
        ("extraction", True, None)                                    # may shoot, no end
    clock.advance(30)
    assert fights_sweep() == 0 and state(karim_phone, karim) == "under_extraction"

    healing = heal(lea_phone, lea, karim)                             # P06: stopped, hands on
    assert healing.status_code == 201, healing.content
    assert state(karim_phone, karim) == "being_healed"
    fights = {f["type"]["key"]: f for f in snapshot(karim_phone, karim)["fights"]}
    assert (fights["extraction"]["status"], fights["extraction"]["reason"]) == \
        ("stopped", "the heal started")
    assert fights["heal"]["ends"]["remaining_s"] == 10
    clock.advance(10)
    assert fights_sweep() == 1 and state(karim_phone, karim) == "healed_pending_call"


def test_an_extraction_released_leaves_the_player_waiting(clock, game, squad):
    (karim, karim_phone), (lea, lea_phone), _ = squad
    down(clock, karim_phone, karim)
    dragged = heal(lea_phone, lea, karim, kind="extraction").json()["heal"]
    assert stop(lea_phone, dragged).json()["status_of_heal"] == "stopped"   # P10
    assert state(karim_phone, karim) == "down_awaiting"


def test_a_medic_hit_while_extracting_leaves_the_player_waiting(clock, game, squad):
    """P09 for an extraction: the medic may shoot, and so may be hit; the patient is
    dropped where they are and waits again (B5)."""
    (karim, karim_phone), (lea, lea_phone), _ = squad
    down(clock, karim_phone, karim)
    dragged = heal(lea_phone, lea, karim, kind="extraction").json()["heal"]
    clock.advance(5)
    assert act(lea_phone, lea, "hit").status_code == 200
    assert state(lea_phone, lea) == "hit_counting"
    assert state(karim_phone, karim) == "down_awaiting"
    view = shown(karim_phone, karim)
    assert (view["status"], view["reason"]) == ("aborted", "the medic was hit or taken out")
    assert Heal.objects.get(pk=dragged).status == Heal.ABORTED


def test_medic_mode_off_is_refused_and_changes_nothing(clock, narrator_user, player_in):
    game = airsoft(narrator_user)                                      # the default: off
    karim, karim_phone = player_in(game, "Karim", "rouge")
    lea, lea_phone = player_in(game, "Léa", "rouge")
    assert act(karim_phone, karim, "hit").status_code == 200
    assert state(karim_phone, karim) == "out_returning"               # P01: back to spawn
    lines = JournalEntry.objects.filter(event=game).count()
    refused = heal(lea_phone, lea, karim)
    assert refused.status_code == 409
    assert refused.json() == {"error": "interaction_off", "detail":
                              "Teammate heal is off in this game (the scenario's option medic_mode)."}
    assert JournalEntry.objects.filter(event=game).count() == lines
    assert not Heal.objects.exists()


def test_only_a_teammate_may_heal(clock, game, squad, player_in):
    (karim, karim_phone), _, (yann, yann_phone) = squad
    down(clock, karim_phone, karim)
    refused = heal(yann_phone, yann, karim)
    assert refused.status_code == 409
    assert refused.json()["detail"] == \
        "Teammate heal: Karim is not in your team; only a teammate can do this."
    loner = character_create(event=game, name="Solo", by=None)       # no team at all
    assert act(client_for(loner.user), loner, "respawn").status_code == 200
    assert heal(client_for(loner.user), loner, karim).json()["error"] == "not_teammate"
    assert state(karim_phone, karim) == "down_awaiting" and not Heal.objects.exists()


def test_roster_mode_needs_the_medic_skill(clock, narrator_user, player_in):
    game = airsoft(narrator_user, medic_mode=True, medics="roster")    # B1
    karim, karim_phone = player_in(game, "Karim", "rouge")
    lea, lea_phone = player_in(game, "Léa", "rouge")
    sam, sam_phone = player_in(game, "Sam", "rouge", skills={"medic": True})
    down(clock, karim_phone, karim)
    refused = heal(lea_phone, lea, karim)
    assert refused.status_code == 403 and refused.json()["error"] == "missing_skill"
    assert "Medic (scenario roster)" in refused.json()["detail"]
    assert heal(sam_phone, sam, karim).status_code == 201


def test_refusals_name_the_problem_without_telling_the_patients_state(clock, game, squad,
                                                                       player_in):
    (karim, karim_phone), (lea, lea_phone), _ = squad
    sam, sam_phone = player_in(game, "Sam", "rouge")
    not_yet = heal(lea_phone, lea, karim)                              # in play
    assert not_yet.status_code == 409 and not_yet.json()["error"] == "not_applicable"
    assert act(karim_phone, karim, "hit").status_code == 200
    counting = heal(lea_phone, lea, karim)                             # still counting to 10
    assert counting.json() == not_yet.json()                          # the same words for both
    assert "Down — waiting for a medic" in counting.json()["detail"]
    assert "count to 10" not in counting.json()["detail"] and "In play" not in counting.json()["detail"]
    clock.advance(10)

    assert heal(lea_phone, lea, lea).status_code == 400               # yourself
    assert heal(lea_phone, lea, karim, kind="surgery").status_code == 400
    started = heal(lea_phone, lea, karim)
    assert started.status_code == 201
    taken = heal(sam_phone, sam, karim)
    assert (taken.status_code, taken.json()["error"]) == (409, "patient_taken")
    busy = heal(lea_phone, lea, karim, kind="extraction")
    assert busy.json()["detail"] == "You are already looking after Karim (Teammate heal); stop that first."
    assert act(sam_phone, sam, "hit").status_code == 200              # a medic who is down
    clock.advance(10)
    stop(lea_phone, started.json()["heal"])
    cannot = heal(sam_phone, sam, karim)
    assert cannot.json()["error"] == "actor_cannot"                   # their own state, told
    assert Heal.objects.filter(status=Heal.RUNNING).count() == 0


def test_a_capped_scenario_refuses_another_heal(clock, narrator_user, player_in):
    game = airsoft(narrator_user, medic_mode=True, max_heals_per_player=1)   # B8
    karim, karim_phone = player_in(game, "Karim", "rouge")
    lea, lea_phone = player_in(game, "Léa", "rouge")
    down(clock, karim_phone, karim)
    heal(lea_phone, lea, karim)
    clock.advance(10)
    fights_sweep()
    act(karim_phone, karim, "retour_en_jeu")
    down(clock, karim_phone, karim)
    refused = heal(lea_phone, lea, karim)
    assert (refused.status_code, refused.json()["error"]) == (409, "heal_not_taken")
    assert state(karim_phone, karim) == "down_awaiting"
    assert Heal.objects.filter(status=Heal.RUNNING).count() == 0


def test_an_extraction_may_wait_for_the_call_for_a_medic(clock, narrator_user, player_in):
    game = airsoft(narrator_user, medic_mode=True, extraction_requires_request=True)   # B7
    karim, karim_phone = player_in(game, "Karim", "rouge")
    lea, lea_phone = player_in(game, "Léa", "rouge")
    down(clock, karim_phone, karim)
    refused = heal(lea_phone, lea, karim, kind="extraction")
    assert (refused.status_code, refused.json()["error"]) == (409, "extraction_needs_request")
    assert "Karim has not asked for a medic" in refused.json()["detail"]
    asked = act(karim_phone, karim, "request_medic", zone="dangerous")
    assert asked.status_code == 200, asked.content
    assert heal(lea_phone, lea, karim, kind="extraction").status_code == 201
    assert state(karim_phone, karim) == "under_extraction"


def test_a_game_stop_freezes_the_count(clock, game, squad, narrator_user):
    (karim, karim_phone), (lea, lea_phone), _ = squad
    down(clock, karim_phone, karim)
    heal_id = heal(lea_phone, lea, karim).json()["heal"]
    ends = Heal.objects.get(pk=heal_id).ends_game_s
    clock.advance(4)
    clock_pause(event=game, by=narrator_user)                          # P24, B14
    clock.advance(120)
    assert end_fight("heal", heal_id) is False and fights_sweep() == 0
    view = shown(karim_phone, karim)
    assert (view["ends"]["remaining_s"], view["ends"]["at"]) == (6, None)
    assert stop(lea_phone, heal_id).json()["error"] == "game_paused"
    clock_resume(event=game, by=narrator_user)                         # P25
    clock.advance(5)
    assert fights_sweep() == 0 and state(karim_phone, karim) == "being_healed"
    clock.advance(1)
    assert fights_sweep() == 1 and state(karim_phone, karim) == "healed_pending_call"
    assert Heal.objects.get(pk=heal_id).ends_game_s == ends == 20


def test_the_task_completes_on_time_once(clock, game, squad):
    (karim, karim_phone), (lea, lea_phone), _ = squad
    down(clock, karim_phone, karim)
    heal_id = heal(lea_phone, lea, karim).json()["heal"]
    clock.advance(9.5)
    assert end_fight("heal", heal_id) is False                            # early: nothing
    clock.advance(0.5)
    assert end_fight("heal", heal_id) is True
    assert end_fight("heal", heal_id) is False                            # a second delivery
    assert len(journal(game, "completed")) == 2                       # medic and patient
    assert JournalEntry.objects.filter(event=game, what="healed").count() == 1


def test_the_sweeper_completes_a_heal_whose_task_was_lost(clock, game, squad):
    (karim, karim_phone), (lea, lea_phone), _ = squad
    down(clock, karim_phone, karim)
    heal_id = heal(lea_phone, lea, karim).json()["heal"]
    clock.advance(45)
    assert fights_sweep() == 1
    assert state(karim_phone, karim) == "healed_pending_call"
    assert Heal.objects.get(pk=heal_id).closed_game_s == 20           # when the count ended


def test_stopping_after_the_end_completes(clock, game, squad):
    (karim, karim_phone), (lea, lea_phone), _ = squad
    down(clock, karim_phone, karim)
    heal_id = heal(lea_phone, lea, karim).json()["heal"]
    clock.advance(10)
    assert stop(lea_phone, heal_id).json()["status_of_heal"] == "completed"
    assert state(karim_phone, karim) == "healed_pending_call"


def test_only_the_medic_stops_their_heal(clock, game, squad, player_in, narrator_api):
    (karim, karim_phone), (lea, lea_phone), (yann, yann_phone) = squad
    sam, sam_phone = player_in(game, "Sam", "rouge")
    down(clock, karim_phone, karim)
    heal_id = heal(lea_phone, lea, karim).json()["heal"]
    version = snapshot(narrator_api, karim)["version"]
    for phone in (karim_phone, yann_phone, sam_phone):
        refused = stop(phone, heal_id)
        assert refused.status_code == 404 and "Léa" not in refused.content.decode()
    assert stop(narrator_api, heal_id).status_code == 403              # not in the medic's name
    assert Heal.objects.get(pk=heal_id).status == Heal.RUNNING
    assert snapshot(narrator_api, karim)["version"] == version
    assert stop(lea_phone, 999999).status_code == 404


def test_starting_twice_with_one_idempotency_key_starts_once(clock, game, squad):
    (karim, karim_phone), (lea, lea_phone), _ = squad
    down(clock, karim_phone, karim)
    first = heal(lea_phone, lea, karim, key="heal-karim-1")
    again = heal(lea_phone, lea, karim, key="heal-karim-1")
    assert first.status_code == again.status_code == 201
    assert again.json()["heal"] == first.json()["heal"]
    assert again["Idempotent-Replayed"] == "true"
    assert Heal.objects.count() == 1 and len(journal(game, "started")) == 2


def test_a_bad_stop_reason_is_named(clock, game, squad):
    (karim, karim_phone), (lea, lea_phone), _ = squad
    down(clock, karim_phone, karim)
    heal_id = heal(lea_phone, lea, karim).json()["heal"]
    refused = stop(lea_phone, heal_id, "tired")
    assert refused.status_code == 400 and "reason" in refused.json()["detail"]
    assert state(karim_phone, karim) == "being_healed"


def test_the_snapshot_costs_the_same_queries_however_many_heals(clock, game, squad, narrator_api):
    """Heals are one query for both sides (combat.selectors), read only for characters
    that have been in one, and an airsoft game does not pay for the duels, unions and
    beatings its rules do not have."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from django.utils import timezone
    from live.snapshots import character_for_snapshot, character_snapshot

    (karim, karim_phone), (lea, lea_phone), _ = squad

    def queries(character) -> int:
        with CaptureQueriesContext(connection) as captured:
            now = timezone.now()
            character_snapshot(character_for_snapshot(character.pk, now), now)
        return len(captured)

    fresh = queries(karim), queries(lea)
    down(clock, karim_phone, karim)
    for _ in range(4):
        stop(lea_phone, heal(lea_phone, lea, karim).json()["heal"])
    heal(lea_phone, lea, karim, kind="extraction")
    assert len(snapshot(karim_phone, karim)["fights"]) == 5
    assert fresh == (2, 2)
    assert (queries(karim), queries(lea)) == (3, 3)
