"""Bad input and refused actions: a clear 4xx naming the problem, in the caller's language,
and nothing changed (same snapshot version, same journal, no treatment, no kit used)."""
from __future__ import annotations

from contextlib import contextmanager

import pytest
from django.contrib.auth import get_user_model

from fixtures import act, client_for, snapshot, start_treatment
from health.models import Treatment
from effects.models import Effect
from players.models import Character, JournalEntry
from players.services import character_create, event_create

pytestmark = pytest.mark.django_db


@contextmanager
def nothing_changes(narrator_api, *characters):
    """Asserts that the block changed no character, no journal, no treatment, no kit."""
    event = characters[0].event
    versions = {c.pk: snapshot(narrator_api, c)["version"] for c in characters}
    states = {c.pk: snapshot(narrator_api, c)["state"]["key"] for c in characters}
    journal = JournalEntry.objects.filter(event=event).count()
    treatments = list(Treatment.objects.values_list("pk", "status"))
    kits = dict(Character.objects.filter(event=event).values_list("pk", "kits"))
    effects = Effect.objects.count()
    yield
    for c in characters:
        after = snapshot(narrator_api, c)
        assert after["version"] == versions[c.pk], f"{c.name} changed"
        assert after["state"]["key"] == states[c.pk]
    assert JournalEntry.objects.filter(event=event).count() == journal
    assert list(Treatment.objects.values_list("pk", "status")) == treatments
    assert dict(Character.objects.filter(event=event).values_list("pk", "kits")) == kits
    assert Effect.objects.count() == effects


def make_tired(api, character):
    for _ in range(2):  # combat_base 2: the second stun makes Alice Tired
        assert act(api, character, "hit_stunning").status_code == 200
    assert snapshot(api, character)["state"]["key"] == "tired"


# --- a treatment on a patient in the wrong state ------------------------------------------------

FIRST_AID_REFUSALS = [
    ("healthy", "en", "First aid applies to Wounded, In a coma; "
                      "it cannot be given to this character now."),
    ("tired", "en", "First aid applies to Wounded, In a coma; "
                    "it cannot be given to this character now."),
    ("healthy", "fr", "Premiers secours ne s'applique qu'à : Blessé, Dans le coma ; "
                      "impossible sur ce personnage maintenant."),
    ("healthy", "es", "Primeros auxilios solo se aplica a: Herido, En coma; "
                      "no se puede aplicar a este personaje ahora."),
]


@pytest.mark.parametrize("state,lang,message", FIRST_AID_REFUSALS)
def test_first_aid_on_a_patient_not_wounded_names_the_allowed_states_not_the_patients(
        state, lang, message, clock, player, medic, player_api, narrator_api):
    """The refusal tells the medic where First aid applies, never what the patient is:
    a Tired and a Healthy patient get the same answer."""
    if state == "tired":
        make_tired(player_api, player)
    medic_api = client_for(medic.user, lang)

    with nothing_changes(narrator_api, player, medic):
        response = start_treatment(medic_api, medic, player, "first_aid")

    assert response.status_code == 409, response.content
    assert response.json() == {"error": "not_applicable", "detail": message}


def test_surgery_on_a_healthy_patient_is_refused(clock, player, medic, medic_api, narrator_api):
    with nothing_changes(narrator_api, player, medic):
        response = start_treatment(medic_api, medic, player, "surgery", calm_place=True)
    assert response.status_code == 409
    assert response.json()["detail"] == ("Surgery applies to Wounded, In a coma; "
                                         "it cannot be given to this character now.")


# --- unknown actions and parameters --------------------------------------------------------------

def test_unknown_action_is_named(clock, player, player_api, narrator_api):
    with nothing_changes(narrator_api, player):
        response = act(player_api, player, "fly")
    assert response.status_code == 400
    body = response.json()
    assert body["error"] == "unknown_action"
    assert body["detail"].startswith("Unknown action 'fly'. Known actions: ")
    assert "hit_stunning" in body["detail"]


def test_unknown_action_in_french(clock, player, narrator_api):
    with nothing_changes(narrator_api, player):
        response = act(client_for(player.user, "fr"), player, "voler")
    assert response.status_code == 400
    assert response.json()["detail"].startswith("Action inconnue « voler ».")


def test_unknown_treatment_is_named(clock, player, medic, medic_api, narrator_api):
    act(narrator_api, player, "hit_wounding")
    with nothing_changes(narrator_api, player, medic):
        response = start_treatment(medic_api, medic, player, "magic_potion")
    assert response.status_code == 400
    assert "'magic_potion'" in response.json()["detail"]


def test_a_hit_is_not_a_treatment(clock, player, medic, medic_api, narrator_api):
    with nothing_changes(narrator_api, player, medic):
        response = start_treatment(medic_api, medic, player, "hit_wounding")
    assert response.status_code == 403
    assert response.json()["error"] == "not_declarable"


def test_unknown_parameter_is_named(clock, player, player_api, narrator_api):
    with nothing_changes(narrator_api, player):
        response = act(player_api, player, "hit_stunning", strength=3)
    assert response.status_code == 400
    assert response.json() == {"error": "bad_input",
                               "detail": "Invalid request: unknown parameter 'strength'"}


@pytest.mark.parametrize("params,named", [
    ({"state": "zombie"}, "'zombie' is not a state of this game"),
    ({"state": 3}, "'3' is not a state of this game"),
    ({}, "parameter 'state' is required"),
    ({"state": "dead", "why": "oops"}, "unknown parameter 'why'"),
])
def test_set_state_with_a_bad_state_is_refused(params, named, clock, player, narrator_api):
    with nothing_changes(narrator_api, player):
        response = act(narrator_api, player, "set_state", **params)
    assert response.status_code == 400, response.content
    assert response.json()["error"] == "bad_input"
    assert named in response.json()["detail"]


def test_surgery_param_of_the_wrong_type_is_refused(clock, player, medic, medic_api,
                                                    narrator_api):
    act(narrator_api, player, "hit_wounding")
    with nothing_changes(narrator_api, player, medic):
        response = start_treatment(medic_api, medic, player, "surgery", calm_place="yes")
    assert response.status_code == 400
    assert "parameter 'calm_place' must be a bool" in response.json()["detail"]


# --- malformed requests ------------------------------------------------------------------------------

def test_malformed_json_is_refused(clock, player, player_api, narrator_api):
    with nothing_changes(narrator_api, player):
        response = player_api.post(f"/api/characters/{player.pk}/actions/",
                                   data='{"action": "hit_stunning",', content_type="application/json")
    assert response.status_code == 400
    assert "JSON" in response.json()["detail"]


@pytest.mark.parametrize("body,named", [
    ({}, "action"),
    ({"action": "hit_stunning", "params": "loud"}, "params"),
    ({"action": ""}, "action"),
])
def test_an_incomplete_action_body_names_the_field(body, named, clock, player, player_api,
                                                   narrator_api):
    with nothing_changes(narrator_api, player):
        response = player_api.post(f"/api/characters/{player.pk}/actions/", body, format="json")
    assert response.status_code == 400
    assert response.json()["error"] == "bad_input"
    assert named in response.json()["fields"]
    assert response.json()["detail"].startswith(f"Invalid request: {named}: ")


def test_a_form_encoded_body_is_refused(clock, player, player_api, narrator_api):
    with nothing_changes(narrator_api, player):
        response = player_api.post(f"/api/characters/{player.pk}/actions/",
                                   data="action=hit_stunning",
                                   content_type="application/x-www-form-urlencoded")
    assert response.status_code == 415


# --- patients, skills and kits ------------------------------------------------------------------------

def test_unknown_patient_code_is_named(clock, player, medic, medic_api, narrator_api):
    lookup = medic_api.get(f"/api/characters/{medic.pk}/patients/ZZZZ99/")
    assert lookup.status_code == 404
    assert lookup.json() == {"error": "unknown_code",
                             "detail": "No character of this event has the code 'ZZZZ99'."}
    with nothing_changes(narrator_api, player, medic):
        response = medic_api.post(f"/api/characters/{medic.pk}/treatments/",
                                  {"patient_code": "ZZZZ99", "action": "first_aid"},
                                  format="json")
    assert response.status_code == 404
    assert "'ZZZZ99'" in response.json()["detail"]


def test_unknown_patient_code_in_spanish(clock, medic):
    response = client_for(medic.user, "es").get(f"/api/characters/{medic.pk}/patients/ABCDEF/")
    assert response.status_code == 404
    assert response.json()["detail"] == "Ningún personaje de este evento tiene el código «ABCDEF»."


def test_a_patient_of_another_event_is_unknown(clock, player, medic, medic_api, narrator_user):
    elsewhere = event_create(name="Other GN", ruleset="gn_fr", by=narrator_user, start_clock=True)
    stranger = character_create(event=elsewhere, name="Zoé", by=narrator_user)
    response = medic_api.get(f"/api/characters/{medic.pk}/patients/{stranger.code}/")
    assert response.status_code == 404
    assert "Zoé" not in response.content.decode()


def test_a_medic_without_the_skill_is_refused(clock, player, other_player, narrator_api):
    act(narrator_api, player, "hit_wounding")
    not_a_medic = client_for(other_player.user)
    with nothing_changes(narrator_api, player, other_player):
        response = start_treatment(not_a_medic, other_player, player, "first_aid")
    assert response.status_code == 403
    assert response.json() == {
        "error": "missing_skill",
        "detail": "First aid needs the skill First aid on your character sheet."}


def test_missing_skill_in_french(clock, player, other_player, narrator_api):
    act(narrator_api, player, "hit_wounding")
    response = start_treatment(client_for(other_player.user, "fr"), other_player, player,
                               "surgery", calm_place=True)
    assert response.status_code == 403
    assert response.json()["detail"] == ("Chirurgie demande la compétence Chirurgie "
                                         "sur votre fiche de personnage.")


@pytest.fixture
def novice(event, narrator_user):
    return character_create(event=event, name="Noé",
                            sheet={"combat_base": 2, "skills": {"first_aid": "novice",
                                                                "surgery": "novice"}},
                            kits={"kps": 0, "koc": 1}, by=narrator_user)


def test_no_kit_left_is_refused(clock, player, novice, narrator_api):
    act(narrator_api, player, "hit_wounding")
    with nothing_changes(narrator_api, player, novice):
        response = start_treatment(client_for(novice.user), novice, player, "first_aid")
    assert response.status_code == 409
    assert response.json() == {"error": "no_kit",
                               "detail": "You have no KPS (white band) left; ask the organisers "
                                         "for one."}


def test_the_last_kit_used_elsewhere_refuses_the_completion(clock, player, other_player, medic,
                                                           medic_api, narrator_api):
    Character.objects.filter(pk=medic.pk).update(kits={"kps": 1, "koc": 1})
    act(narrator_api, player, "hit_wounding")
    act(narrator_api, other_player, "hit_wounding")
    first = start_treatment(medic_api, medic, player, "first_aid").json()
    second = start_treatment(medic_api, medic, other_player, "first_aid").json()
    clock.advance(60)
    assert medic_api.post(f"/api/treatments/{first['id']}/complete/").status_code == 200

    with nothing_changes(narrator_api, other_player, medic):
        response = medic_api.post(f"/api/treatments/{second['id']}/complete/")

    assert response.status_code == 409
    assert response.json()["error"] == "no_kit"
    assert Treatment.objects.get(pk=second["id"]).status == Treatment.RUNNING


@pytest.mark.parametrize("params", [{}, {"calm_place": False}])
def test_novice_surgery_outside_a_calm_place_is_refused(params, clock, player, novice,
                                                        narrator_api):
    act(narrator_api, player, "hit_wounding")
    with nothing_changes(narrator_api, player, novice):
        response = start_treatment(client_for(novice.user), novice, player, "surgery", **params)
    assert response.status_code == 409, response.content
    assert response.json() == {
        "error": "calm_place_required",
        "detail": "Surgery at this level needs the patient comfortably installed in a calm place."}


def test_novice_surgery_in_a_calm_place_starts(clock, player, novice, narrator_api):
    act(narrator_api, player, "hit_wounding")
    response = start_treatment(client_for(novice.user), novice, player, "surgery",
                               calm_place=True)
    assert response.status_code == 201, response.content
    assert response.json()["duration_s"] == 600


# --- completing too early, or twice -------------------------------------------------------------

@pytest.fixture
def treatment(clock, player, medic, medic_api, narrator_api):
    act(narrator_api, player, "hit_wounding")
    started = start_treatment(medic_api, medic, player, "first_aid")
    assert started.status_code == 201, started.content
    return started.json()


def test_completing_before_the_duration_is_refused(clock, player, medic, medic_api,
                                                   narrator_api, treatment):
    clock.advance(30)
    with nothing_changes(narrator_api, player, medic):
        response = medic_api.post(f"/api/treatments/{treatment['id']}/complete/")
    assert response.status_code == 409
    assert response.json() == {"error": "not_ready",
                               "detail": "First aid is not finished: 30 s left."}
    assert Treatment.objects.get(pk=treatment["id"]).status == Treatment.RUNNING


def test_not_finished_in_french(clock, medic, treatment):
    clock.advance(59.5)
    response = client_for(medic.user, "fr").post(f"/api/treatments/{treatment['id']}/complete/")
    assert response.status_code == 409
    assert response.json()["detail"] == "Premiers secours n'est pas terminé : encore 1 s."


def test_completing_an_aborted_treatment_is_refused(clock, player, medic, medic_api,
                                                    narrator_api, treatment):
    aborted = medic_api.post(f"/api/treatments/{treatment['id']}/abort/")
    assert aborted.status_code == 200
    assert aborted.json()["status"] == "aborted"
    clock.advance(60)

    with nothing_changes(narrator_api, player, medic):
        response = medic_api.post(f"/api/treatments/{treatment['id']}/complete/")
        again = medic_api.post(f"/api/treatments/{treatment['id']}/abort/")

    assert response.status_code == 409
    assert response.json() == {"error": "treatment_closed",
                               "detail": "This treatment is already aborted."}
    assert again.status_code == 409
    medic.refresh_from_db()
    assert medic.kits["kps"] == 2


def test_aborting_a_completed_treatment_is_refused(clock, player, medic, medic_api,
                                                   narrator_api, treatment):
    clock.advance(60)
    assert medic_api.post(f"/api/treatments/{treatment['id']}/complete/").status_code == 200
    with nothing_changes(narrator_api, player, medic):
        response = client_for(medic.user, "es").post(f"/api/treatments/{treatment['id']}/abort/")
    assert response.status_code == 409
    assert response.json()["detail"] == "Este tratamiento ya está completado."


# --- effects -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("targets,named", [
    ({}, "choose exactly one of character_ids, team, everyone"),
    ({"character_ids": [], "everyone": False}, "choose exactly one of character_ids, team, "
                                               "everyone"),
    ({"team": ""}, "team: This field may not be blank."),
    ({"team": "Invités", "everyone": True}, "choose exactly one"),
    ({"character_ids": ["{player}"], "team": "Invités"}, "choose exactly one"),
    ({"character_ids": ["{player}"], "everyone": True}, "choose exactly one"),
    ({"character_ids": [999999]}, "no character [999999] in this event"),
    ({"team": "Nobody"}, "no team 'Nobody'"),
])
def test_effect_push_needs_exactly_one_kind_of_target(targets, named, clock, event, player,
                                                      narrator_api):
    targets = {k: [player.pk if x == "{player}" else x for x in v] if isinstance(v, list) else v
               for k, v in targets.items()}
    with nothing_changes(narrator_api, player):
        response = narrator_api.post(f"/api/events/{event.pk}/effects/",
                                     {"text": "Effet : sommeil", **targets}, format="json")
    assert response.status_code == 400, response.content
    assert response.json()["error"] == "bad_input"
    assert named in response.json()["detail"]


def test_effect_push_to_a_character_of_another_event_is_refused(clock, event, player,
                                                                narrator_user, narrator_api):
    elsewhere = event_create(name="Other GN", ruleset="gn_fr", by=narrator_user, start_clock=True)
    stranger = character_create(event=elsewhere, name="Zoé", by=narrator_user)
    with nothing_changes(narrator_api, player, stranger):
        response = narrator_api.post(f"/api/events/{event.pk}/effects/",
                                     {"text": "Effet", "character_ids": [player.pk, stranger.pk]},
                                     format="json")
    assert response.status_code == 400
    assert str(stranger.pk) in response.json()["detail"]


@pytest.mark.parametrize("duration", [-60, 0, "soon"])
def test_effect_duration_must_be_positive(duration, clock, event, player, narrator_api):
    with nothing_changes(narrator_api, player):
        response = narrator_api.post(f"/api/events/{event.pk}/effects/",
                                     {"text": "Effet : sommeil", "duration_s": duration,
                                      "character_ids": [player.pk]}, format="json")
    assert response.status_code == 400
    assert "duration_s" in response.json()["fields"]
    assert "duration_s" in response.json()["detail"]


def test_effect_with_an_unknown_state_is_refused(clock, event, player, narrator_api):
    with nothing_changes(narrator_api, player):
        response = narrator_api.post(f"/api/events/{event.pk}/effects/",
                                     {"text": "Effet : zombie", "set_state": "zombie",
                                      "character_ids": [player.pk]}, format="json")
    assert response.status_code == 400
    assert "'zombie' is not a state of this game" in response.json()["detail"]


def test_effect_without_text_is_refused(clock, event, player, narrator_api):
    with nothing_changes(narrator_api, player):
        response = narrator_api.post(f"/api/events/{event.pk}/effects/",
                                     {"everyone": True}, format="json")
    assert response.status_code == 400
    assert "text" in response.json()["fields"]


# --- the journal, the clock, characters ----------------------------------------------------------------

@pytest.mark.parametrize("query,named", [("after=abc", "'after' must be a whole number, got 'abc'"),
                                         ("after=-1", "'after'"),
                                         ("character=x", "'character' must be a whole number"),
                                         # longer than int() converts, or than an id holds
                                         pytest.param("after=" + "9" * 5000, "'after' must be a whole number",
                                                      id="after-5000-digits"),
                                         pytest.param("character=" + "9" * 5000, "'character' must be a whole number",
                                                      id="character-5000-digits"),
                                         ("after=99999999999999999999", "'after' must be a whole number")])
def test_journal_query_must_be_whole_numbers(query, named, clock, event, narrator_api):
    response = narrator_api.get(f"/api/events/{event.pk}/journal/?{query}")
    assert response.status_code == 400
    assert response.json()["error"] == "bad_input"
    assert named in response.json()["detail"]


def test_clock_paused_twice_is_refused(clock, event, player, narrator_api):
    url = f"/api/events/{event.pk}/clock/"
    assert narrator_api.post(url, {"action": "pause"}, format="json").status_code == 200
    with nothing_changes(narrator_api, player):
        again = narrator_api.post(url, {"action": "pause"}, format="json")
        bad = narrator_api.post(url, {"action": "stop"}, format="json")
    assert again.status_code == 409
    assert again.json()["detail"] == "The game is already paused."
    assert bad.status_code == 400
    assert "action" in bad.json()["fields"]


def test_player_cannot_act_while_the_game_is_paused(clock, event, player, player_api,
                                                    narrator_api):
    narrator_api.post(f"/api/events/{event.pk}/clock/", {"action": "pause"}, format="json")
    with nothing_changes(narrator_api, player):
        response = act(player_api, player, "hit_wounding")
    assert response.status_code == 409
    assert response.json()["detail"] == ("The game is paused (game stop); only organisers "
                                         "can act.")


def test_character_with_combat_base_out_of_range_is_refused(clock, event, player,
                                                            narrator_api):
    characters = Character.objects.count()
    users = get_user_model().objects.count()
    response = narrator_api.post(f"/api/events/{event.pk}/characters/",
                                 {"name": "Hercule", "sheet": {"combat_base": 9}}, format="json")
    assert response.status_code == 400
    assert response.json()["detail"] == "combat_base must be a whole number from 0 to 5, not '9'."
    assert Character.objects.count() == characters
    assert get_user_model().objects.count() == users


def test_event_with_an_unknown_ruleset_is_refused(narrator_api):
    response = narrator_api.post("/api/events/", {"name": "X", "ruleset": "chess"},
                                 format="json")
    assert response.status_code == 400
    assert "ruleset" in response.json()["fields"]


# --- a player declaring what only narrators may declare ------------------------------------------------

@pytest.mark.parametrize("lang,message", [
    ("en", "You cannot declare Set the health state yourself."),
    ("fr", "Vous ne pouvez pas déclarer vous-même : Changer l'état de santé."),
])
def test_player_cannot_declare_a_narrator_only_action(lang, message, clock, player,
                                                      narrator_api):
    with nothing_changes(narrator_api, player):
        response = act(client_for(player.user, lang), player, "set_state", state="healthy")
    assert response.status_code == 403
    assert response.json() == {"error": "not_declarable", "detail": message}


def test_player_cannot_declare_a_medics_action_on_themselves(clock, player, player_api,
                                                             narrator_api):
    act(narrator_api, player, "hit_wounding")
    with nothing_changes(narrator_api, player):
        response = act(player_api, player, "first_aid")
    assert response.status_code == 403
    assert response.json()["detail"] == "You cannot declare First aid yourself."
