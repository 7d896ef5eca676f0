"""Narrators push effects ("Effet : ...") to one character, a team or everyone; the
player sees them with their countdown until they end or are removed."""
from __future__ import annotations

import pytest

from fixtures import act, client_for, snapshot
from effects.models import Effect
from players.models import Character, JournalEntry
from players.services import character_create

pytestmark = pytest.mark.django_db


def push(api, event, **body):
    response = api.post(f"/api/events/{event.pk}/effects/", body, format="json")
    assert response.status_code == 201, response.content
    return response.json()


def texts(api, character) -> list[str]:
    return [e["text"] for e in snapshot(api, character)["effects"]]


def test_effect_to_one_character(clock, event, player, other_player, narrator_api, player_api):
    answer = push(narrator_api, event, text="Effet : vous avez peur du noir", duration_s=300,
                  character_ids=[player.pk])

    assert answer["characters"] == [player.pk]
    effects = snapshot(player_api, player)["effects"]
    assert len(effects) == 1
    assert effects[0]["text"] == "Effet : vous avez peur du noir"
    assert effects[0]["duration_s"] == 300
    assert effects[0]["remaining_s"] == 300
    assert texts(client_for(other_player.user), other_player) == []


def test_effect_to_a_team(clock, event, player, other_player, medic, narrator_api, player_api):
    answer = push(narrator_api, event, text="Effet : les Invités ont faim", team="Invités")

    assert answer["characters"] == [player.pk]
    assert texts(player_api, player) == ["Effet : les Invités ont faim"]
    assert texts(narrator_api, other_player) == []
    assert texts(narrator_api, medic) == []


def test_effect_to_everyone(clock, event, player, other_player, medic, narrator_api):
    answer = push(narrator_api, event, text="Effet : tremblement de terre", everyone=True,
                  duration_s=60)

    assert answer["everyone"] is True
    for character in (player, other_player, medic):
        assert texts(client_for(character.user), character) == ["Effet : tremblement de terre"]
    # One row for the whole event, which also reaches a character created afterwards.
    assert Effect.objects.filter(push_id=answer["push_id"]).count() == 1
    late = character_create(event=event, name="Zoé", sheet={"combat_base": 2}, by=None)
    assert texts(narrator_api, late) == ["Effet : tremblement de terre"]


def test_effect_counts_down_and_disappears_after_its_duration(clock, event, player, narrator_api,
                                                              player_api):
    push(narrator_api, event, text="Effet : sommeil", duration_s=300, character_ids=[player.pk])

    clock.advance(120)
    effect = snapshot(player_api, player)["effects"][0]
    assert effect["remaining_s"] == 180
    assert effect["ends_game_s"] == 300

    clock.advance(179)
    assert snapshot(player_api, player)["effects"][0]["remaining_s"] == 1

    clock.advance(1)
    assert snapshot(player_api, player)["effects"] == []
    assert narrator_api.get(f"/api/events/{event.pk}/characters/").json()[
        "characters"][0]["effects"] == []


def test_effect_countdown_freezes_while_the_game_is_paused(clock, event, player, narrator_api,
                                                          player_api):
    push(narrator_api, event, text="Effet : sommeil", duration_s=300, character_ids=[player.pk])
    clock.advance(100)
    narrator_api.post(f"/api/events/{event.pk}/clock/", {"action": "pause"}, format="json")
    clock.advance(1000)
    assert snapshot(player_api, player)["effects"][0]["remaining_s"] == 200
    narrator_api.post(f"/api/events/{event.pk}/clock/", {"action": "resume"}, format="json")
    clock.advance(150)
    assert snapshot(player_api, player)["effects"][0]["remaining_s"] == 50


def test_effect_without_duration_stays(clock, event, player, narrator_api, player_api):
    push(narrator_api, event, text="Effet : vous êtes amoureux", character_ids=[player.pk])

    clock.advance(3 * 24 * 3600)
    effects = snapshot(player_api, player)["effects"]
    assert [e["text"] for e in effects] == ["Effet : vous êtes amoureux"]
    assert effects[0]["remaining_s"] is None
    assert effects[0]["duration_s"] is None


def test_effect_that_makes_the_player_tired(clock, event, player, narrator_api, player_api):
    clock.advance(30)
    push(narrator_api, event, text="Effet : épuisement", set_state="tired",
         character_ids=[player.pk])

    state = snapshot(player_api, player)
    assert state["state"]["key"] == "tired"
    assert state["state"]["label"] == "Tired"
    assert state["state"]["inert"] is True
    timers = {t["key"]: t for t in state["timers"]}
    assert timers["inert"]["remaining_s"] == 60
    assert state["next"]["key"] == "recover"
    assert state["next"]["leads_to"]["key"] == "healthy"
    assert state["next"]["remaining_s"] == 600
    assert [p["value"] for p in state["points"]] == [0]  # no combat while Tired
    assert state["effects"][0]["text"] == "Effet : épuisement"

    clock.advance(59)
    assert snapshot(player_api, player)["state"]["inert"] is True
    clock.advance(2)
    state = snapshot(player_api, player)
    assert state["state"]["inert"] is False
    assert state["state"]["key"] == "tired"

    clock.advance(600 - 61)
    assert snapshot(player_api, player)["state"]["key"] == "healthy"


def test_effect_that_states_a_health_level_reaches_a_whole_team(clock, event, player,
                                                                 narrator_user, narrator_api):
    from players.services import character_create, team_get_or_create

    team = team_get_or_create(event=event, name="Invités")
    guest = character_create(event=event, name="Eve", sheet={"combat_base": 1}, team=team,
                             by=narrator_user)
    push(narrator_api, event, text="Effet : poison", set_state="wounded", team="Invités")
    for character in (player, guest):
        state = snapshot(narrator_api, character)
        assert state["state"]["key"] == "wounded"
        assert state["next"]["leads_to"]["key"] == "coma"
        assert state["next"]["remaining_s"] == 900


def test_narrator_removes_an_effect(clock, event, player, narrator_api, player_api):
    push(narrator_api, event, text="Effet : cécité", duration_s=600, character_ids=[player.pk])
    push(narrator_api, event, text="Effet : surdité", character_ids=[player.pk])
    blind, deaf = snapshot(player_api, player)["effects"]

    response = narrator_api.delete(f"/api/effects/{blind['id']}/")

    assert response.status_code == 200, response.content
    assert response.json()["removed"] == blind["id"]
    assert texts(player_api, player) == ["Effet : surdité"]
    removed = JournalEntry.objects.get(event=event, kind="effect", what="removed")
    assert removed.character_id == player.pk
    assert removed.actor_label == "narrator"
    assert removed.detail["text"] == "Effet : cécité"


def test_removing_an_effect_twice_is_refused_and_changes_nothing(clock, event, player,
                                                                 narrator_user, narrator_api,
                                                                 player_api):
    push(narrator_api, event, text="Effet : cécité", character_ids=[player.pk])
    blind = snapshot(player_api, player)["effects"][0]
    assert narrator_api.delete(f"/api/effects/{blind['id']}/").status_code == 200
    version = snapshot(player_api, player)["version"]
    journal = JournalEntry.objects.filter(event=event).count()

    again = client_for(narrator_user, "fr").delete(f"/api/effects/{blind['id']}/")

    assert again.status_code == 409, again.content
    assert again.json() == {"error": "effect_already_removed", "detail":
                            "Cet effet a déjà été retiré : il n'y a plus rien à retirer."}
    assert JournalEntry.objects.filter(event=event).count() == journal
    assert JournalEntry.objects.filter(event=event, what="removed").count() == 1
    assert snapshot(player_api, player)["version"] == version
    assert snapshot(player_api, player)["effects"] == []


def test_removing_an_unknown_effect_is_404(clock, narrator_api):
    assert narrator_api.delete("/api/effects/999999/").status_code == 404


def test_each_push_is_journalled_per_character(clock, event, player, other_player, medic,
                                               narrator_api):
    clock.advance(42)
    answer = push(narrator_api, event, text="Effet : brouillard", character_ids=[player.pk, medic.pk],
                  duration_s=90)

    lines = list(JournalEntry.objects.filter(event=event, kind="effect", what="pushed"))
    assert sorted(line.character_id for line in lines) == sorted([player.pk, medic.pk])
    for line in lines:
        assert line.actor_label == "narrator"
        assert line.detail["text"] == "Effet : brouillard"
        assert line.detail["push"] == answer["push_id"]
        assert line.detail["duration_s"] == 90
        assert line.at == clock.now
        assert line.game_s == 42


def test_a_push_to_everyone_is_one_journal_line_seen_in_each_history(clock, event, player,
                                                                     other_player, narrator_api,
                                                                     player_api):
    answer = push(narrator_api, event, text="Effet : brouillard", everyone=True)

    line = JournalEntry.objects.get(event=event, kind="effect", what="pushed")
    assert (line.character_id, line.detail["everyone"], line.detail["push"]) == (
        None, True, answer["push_id"])
    history = player_api.get(f"/api/characters/{player.pk}/history/").json()["history"]
    assert [row["what"] for row in history] == ["Effet : brouillard"]
    journal = narrator_api.get(f"/api/events/{event.pk}/journal/?character={other_player.pk}").json()
    assert [row["detail"]["text"] for row in journal["entries"]
            if row["kind"] == "effect"] == ["Effet : brouillard"]


def test_removing_an_effect_for_everyone_removes_it_from_every_phone(clock, event, player,
                                                                     other_player, narrator_api):
    push(narrator_api, event, text="Effet : brouillard", everyone=True)
    effect = Effect.objects.get(character=None)
    assert narrator_api.delete(f"/api/effects/{effect.pk}/").status_code == 200
    assert texts(narrator_api, player) == texts(narrator_api, other_player) == []


def test_a_push_with_a_state_journals_the_state_change_too(clock, event, player, narrator_api):
    push(narrator_api, event, text="Effet : coma", set_state="coma", character_ids=[player.pk])
    change = JournalEntry.objects.get(event=event, kind="action", character=player)
    assert change.what == "set_state"
    assert change.before["status"] == "healthy"
    assert change.after["status"] == "coma"
    assert change.detail["as_narrator"] is True


def test_a_hit_while_under_an_effect_keeps_the_effect(clock, event, player, narrator_api,
                                                      player_api):
    push(narrator_api, event, text="Effet : rage", duration_s=600, character_ids=[player.pk])
    response = act(player_api, player, "hit_wounding")
    assert [e["text"] for e in response.json()["snapshot"]["effects"]] == ["Effet : rage"]


@pytest.mark.django_db
def test_an_effect_moves_the_snapshot_sequence_number(clock, event, player, narrator_api,
                                                      player_api):
    """The heartbeat finds a missed message by comparing `version`s: an effect is a change too."""
    before = snapshot(player_api, player)["version"]
    narrator_api.post(f"/api/events/{event.pk}/effects/",
                      {"text": "Effet : tu as froid", "character_ids": [player.pk]}, format="json")
    assert snapshot(player_api, player)["version"] == before + 1


# --- Septenario: an effect lasts one Conflict unless stated (spec S1) -----------------------

@pytest.fixture
def septenario(clock, narrator_user):
    from fixtures import personaje, septenario_event
    game = septenario_event(narrator_user)
    return game, personaje(game, narrator_user), personaje(game, narrator_user, "Mateo")


def test_a_septenario_effect_without_duration_lasts_one_conflict(clock, septenario,
                                                                 narrator_api):
    game, lucia, _ = septenario
    clock.advance(10)
    answer = push(narrator_api, game, text="Efecto: estás aturdido", character_ids=[lucia.pk])

    assert answer["durations_s"] == {str(lucia.pk): 120}
    effect, = snapshot(narrator_api, lucia)["effects"]
    assert (effect["duration_s"], effect["remaining_s"], effect["ends_game_s"]) == (120, 120, 130)
    pushed = JournalEntry.objects.get(event=game, kind="effect", what="pushed")
    assert (pushed.detail["duration_s"], pushed.detail["until_removed"]) == (120, False)
    clock.advance(119)
    assert texts(narrator_api, lucia) == ["Efecto: estás aturdido"]
    clock.advance(1)
    assert texts(narrator_api, lucia) == []


def test_a_septenario_effect_in_a_conflict_lasts_until_the_conflict_ends(clock, septenario,
                                                                         narrator_api):
    from health.models import HealthState
    game, lucia, mateo = septenario
    lucia_api = client_for(lucia.user, "es")
    assert act(lucia_api, lucia, "hit", location="left_arm").status_code == 200
    conflict_until = snapshot(lucia_api, lucia)["values"]["conflict_until"]
    assert conflict_until == 120                       # two minutes after the last blow
    # A Conflict that ends later than two minutes from now (a long fight, by hand).
    HealthState.objects.filter(pk=lucia.pk).update(values={
        **HealthState.objects.get(pk=lucia.pk).values, "conflict_until": 300})
    clock.advance(30)

    answer = push(narrator_api, game, text="Efecto: sangras", character_ids=[lucia.pk, mateo.pk])

    assert answer["durations_s"] == {str(lucia.pk): 270, str(mateo.pk): 120}
    assert snapshot(lucia_api, lucia)["effects"][0]["ends_game_s"] == 300
    assert snapshot(narrator_api, mateo)["effects"][0]["ends_game_s"] == 150
    clock.advance(120)
    assert texts(narrator_api, mateo) == []
    assert texts(lucia_api, lucia) == ["Efecto: sangras"]
    clock.advance(150)
    assert texts(lucia_api, lucia) == []


def test_a_septenario_effect_in_a_conflict_lasts_at_least_two_minutes(clock, septenario,
                                                                      narrator_api):
    game, lucia, _ = septenario
    act(client_for(lucia.user), lucia, "hit", location="left_arm")    # Conflict until 120
    clock.advance(90)
    push(narrator_api, game, text="Efecto: miedo", character_ids=[lucia.pk])
    assert snapshot(narrator_api, lucia)["effects"][0]["ends_game_s"] == 210


def test_a_septenario_effect_for_everyone_lasts_one_conflict(clock, septenario, narrator_api):
    game, lucia, mateo = septenario
    answer = push(narrator_api, game, text="Efecto: terremoto", everyone=True)
    assert answer["durations_s"] == {"everyone": 120}
    clock.advance(120)
    assert texts(narrator_api, lucia) == texts(narrator_api, mateo) == []


def test_a_septenario_effect_until_removed_or_with_a_duration_says_so(clock, septenario,
                                                                      narrator_api):
    game, lucia, _ = septenario
    push(narrator_api, game, text="Efecto: enamorado", until_removed=True,
         character_ids=[lucia.pk])
    push(narrator_api, game, text="Efecto: sueño", duration_s=600, character_ids=[lucia.pk])
    clock.advance(599)
    assert texts(narrator_api, lucia) == ["Efecto: enamorado", "Efecto: sueño"]
    clock.advance(3 * 24 * 3600)
    assert texts(narrator_api, lucia) == ["Efecto: enamorado"]


def test_gn_fr_effects_without_duration_still_last_until_removed(clock, event, player,
                                                                 narrator_api, player_api):
    answer = push(narrator_api, event, text="Effet : vous avez faim", character_ids=[player.pk])
    push(narrator_api, event, text="Effet : vous êtes amoureux", until_removed=True,
         everyone=True)
    assert answer["durations_s"] == {str(player.pk): None}
    clock.advance(3 * 24 * 3600)
    assert texts(player_api, player) == ["Effet : vous avez faim", "Effet : vous êtes amoureux"]


def test_a_duration_and_until_removed_exclude_each_other(clock, event, player, narrator_api):
    response = narrator_api.post(f"/api/events/{event.pk}/effects/",
                                 {"text": "Effet : froid", "duration_s": 60,
                                  "until_removed": True, "character_ids": [player.pk]},
                                 format="json")
    assert response.status_code == 400
    assert "give duration_s or until_removed, not both" in response.json()["detail"]
    assert Effect.objects.count() == 0
