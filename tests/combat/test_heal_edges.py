"""Airsoft medic mode at le Terrier, the edges (spec C4, C5, P04-P11, B1, B7): what the
narrator reads in the journal when a heal is disputed, what the medic's phone is told
when they stop, the exact words of a refusal, who counts as a medic in a roster
scenario, and a heal whose start an organiser took back."""
from __future__ import annotations

import pytest

from combat.models import Heal
from combat.tasks import end_fight
from fixtures import snapshot
from players.models import JournalEntry, Membership
from players.services import membership_grant
from rulesets import get_ruleset
from test_heals import (  # noqa: F401 (fixtures)
    airsoft, down, game, heal, player_in, shown, squad, state, stop)

pytestmark = pytest.mark.django_db


def narrator_reads(narrator_api, game, **wanted) -> list[dict]:
    """The journal as the narrator's screen lists it, only the lines matching `wanted`."""
    rows = narrator_api.get(f"/api/events/{game.pk}/journal/").json()["entries"]
    return [r for r in rows if all(r[k] == v for k, v in wanted.items())]


# -- the journal a narrator reads -------------------------------------------------------

def test_the_journal_tells_the_narrator_who_healed_whom_and_when_the_count_ran(
        clock, game, squad, narrator_api):
    (karim, karim_phone), (lea, lea_phone), _ = squad
    down(clock, karim_phone, karim)
    heal_id = heal(lea_phone, lea, karim).json()["heal"]
    clock.advance(10)
    assert end_fight("heal", heal_id) is True

    expected = {"heal": heal_id, "kind": "heal", "medic": "Léa", "patient": "Karim",
                "reason": "", "started_game_s": 10, "ends_game_s": 20}
    started = narrator_reads(narrator_api, game, kind="heal", what="started")
    assert [(r["character"], r["who"], r["game_s"]) for r in started] == \
        [("Léa", "Léa", 10), ("Karim", "Léa", 10)]
    assert [r["detail"] for r in started] == [expected, expected]
    completed = narrator_reads(narrator_api, game, kind="heal", what="completed")
    assert [(r["character"], r["who"], r["game_s"]) for r in completed] == \
        [("Léa", "system", 20), ("Karim", "system", 20)]
    assert [r["detail"] for r in completed] == [expected, expected]


def test_an_extraction_in_the_journal_has_no_end(clock, game, squad, narrator_api):
    (karim, karim_phone), (lea, lea_phone), _ = squad
    down(clock, karim_phone, karim)
    dragged = heal(lea_phone, lea, karim, kind="extraction").json()["heal"]
    clock.advance(7)
    stop(lea_phone, dragged)
    stopped = narrator_reads(narrator_api, game, kind="heal", what="stopped", character="Karim")
    assert [(r["who"], r["game_s"], r["detail"]) for r in stopped] == [
        ("Léa", 17, {"heal": dragged, "kind": "extraction", "medic": "Léa", "patient": "Karim",
                     "reason": "hands_off", "started_game_s": 10, "ends_game_s": None})]


@pytest.mark.parametrize("reason", ["hands_off", "fired", "hit"])
def test_the_patients_own_line_says_why_the_medic_stopped(reason, clock, game, squad,
                                                          narrator_api):
    """P07-P09: the narrator settling "he shot while healing me" reads it on the patient's
    line, where the state went back to waiting."""
    (karim, karim_phone), (lea, lea_phone), _ = squad
    down(clock, karim_phone, karim)
    heal_id = heal(lea_phone, lea, karim).json()["heal"]
    clock.advance(4)
    stop(lea_phone, heal_id, reason)
    [line] = narrator_reads(narrator_api, game, kind="action", what="heal_stopped")
    assert (line["character"], line["who"]) == ("Karim", "Léa")
    assert (line["before"]["status"], line["after"]["status"]) == ("being_healed", "down_awaiting")
    assert line["detail"]["heal"] == heal_id and line["detail"]["reason"] == reason


# -- the medic's phone -------------------------------------------------------------------

@pytest.mark.parametrize("kind", ["heal", "extraction"])
def test_the_medics_phone_is_told_when_they_stop(kind, clock, game, squad):
    """Stopping changes nothing in the medic's own state, only the fight they were in: the
    snapshot's sequence number moves all the same, so that a phone that missed the push
    knows on its next heartbeat that its heal is over."""
    (karim, karim_phone), (lea, lea_phone), _ = squad
    down(clock, karim_phone, karim)
    heal_id = heal(lea_phone, lea, karim, kind=kind).json()["heal"]
    clock.advance(4)
    before = snapshot(lea_phone, lea)["version"]
    assert stop(lea_phone, heal_id).json()["status_of_heal"] == "stopped"
    after = snapshot(lea_phone, lea)
    assert after["version"] > before
    assert shown(lea_phone, lea)["status"] == "stopped"


# -- the words of a refusal --------------------------------------------------------------

def test_a_refused_heal_or_extraction_names_the_states_each_applies_to(clock, game, squad):
    """A heal applies to a player down or being extracted (P04, P06), an extraction only to
    a player down (P05); neither refusal names the patient's own state."""
    (karim, _), (lea, lea_phone), _ = squad                             # Karim in play
    healing = heal(lea_phone, lea, karim)
    assert (healing.status_code, healing.json()["error"]) == (409, "not_applicable")
    assert healing.json()["detail"] == (
        "Teammate heal applies to Down — waiting for a medic, Being extracted; it cannot be "
        "given to this character now.")
    dragging = heal(lea_phone, lea, karim, kind="extraction")
    assert (dragging.status_code, dragging.json()["error"]) == (409, "not_applicable")
    assert dragging.json()["detail"] == (
        "Extraction applies to Down — waiting for a medic; it cannot be given to this "
        "character now.")
    assert not Heal.objects.exists()


def test_an_extraction_before_the_call_for_a_medic_is_refused_in_full_words(
        clock, narrator_user, player_in):
    game = airsoft(narrator_user, medic_mode=True, extraction_requires_request=True)   # B7
    karim, karim_phone = player_in(game, "Karim", "rouge")
    lea, lea_phone = player_in(game, "Léa", "rouge")
    down(clock, karim_phone, karim)
    refused = heal(lea_phone, lea, karim, kind="extraction")
    assert refused.json() == {
        "error": "extraction_needs_request",
        "detail": "Extraction: Karim has not asked for a medic; this scenario allows it only "
                  "after the request."}


# -- who is a medic in a roster scenario (B1) --------------------------------------------

def test_roster_mode_refuses_a_teammate_whose_sheet_lists_other_abilities(
        clock, narrator_user, player_in):
    """A sheet imported with abilities the airsoft rules do not know (a roster from another
    game) gives no medic skill: a plain refusal, not a server error."""
    game = airsoft(narrator_user, medic_mode=True, medics="roster")
    karim, karim_phone = player_in(game, "Karim", "rouge")
    lea, lea_phone = player_in(game, "Léa", "rouge", abilities=["tirador"])
    down(clock, karim_phone, karim)
    refused = heal(lea_phone, lea, karim)
    assert refused.status_code == 403
    assert refused.json() == {"error": "missing_skill", "detail":
                              "Teammate heal needs the skill Medic (scenario roster) on your "
                              "character sheet."}
    assert state(karim_phone, karim) == "down_awaiting" and not Heal.objects.exists()


def test_roster_mode_accepts_an_ability_that_grants_the_medic_skill(
        clock, narrator_user, player_in, monkeypatch):
    """An ability that grants the roster's skill counts as the skill itself (as a
    Septenario Rasgo grants first aid): the shipped airsoft rules list no abilities, so
    the scenario here gives one, "combat lifesaver"."""
    ruleset = get_ruleset("airsoft_rats")
    monkeypatch.setitem(ruleset.abilities, "combat_lifesaver",
                        {"labels": {"fr": "Secouriste", "es": "Socorrista", "en": "Combat lifesaver"},
                         "explains": {"fr": "Soigne comme un médecin de la liste.",
                                      "es": "Cura como un médico de la lista.",
                                      "en": "Heals as a medic of the roster."},
                         "skill": "medic"})
    game = airsoft(narrator_user, medic_mode=True, medics="roster")
    karim, karim_phone = player_in(game, "Karim", "rouge")
    lea, lea_phone = player_in(game, "Léa", "rouge", abilities=["combat_lifesaver"])
    sam, sam_phone = player_in(game, "Sam", "rouge", abilities=["sniper"])
    down(clock, karim_phone, karim)
    assert heal(sam_phone, sam, karim).json()["error"] == "missing_skill"
    started = heal(lea_phone, lea, karim)
    assert started.status_code == 201, started.content
    assert state(karim_phone, karim) == "being_healed"


# -- a heal whose start was taken back ----------------------------------------------------

def test_a_heal_whose_start_the_organiser_undid_ends_at_its_count_without_healing(
        clock, narrator_user, player_in, narrator_api):
    """An organiser who plays the medic undoes their own tap on the patient (the 10 s
    undo): the patient is back to waiting, which no hook sees. At the count's end the heal
    closes as "the patient is no longer waiting", and the patient is not healed: their
    wait for a medic (B3) still runs."""
    game = airsoft(narrator_user, medic_mode=True, max_wait_for_medic_s=600)
    karim, karim_phone = player_in(game, "Karim", "rouge")
    lea, lea_phone = player_in(game, "Léa", "rouge")
    membership_grant(event=game, user=lea.user, role=Membership.NARRATOR)
    down(clock, karim_phone, karim)
    heal_id = heal(lea_phone, lea, karim).json()["heal"]
    assert state(karim_phone, karim) == "being_healed"
    tap = JournalEntry.objects.get(event=game, character=karim, kind="action", what="heal_started")
    clock.advance(3)
    undone = lea_phone.post(f"/api/journal/{tap.pk}/undo/")
    assert undone.status_code == 200, undone.content
    assert state(karim_phone, karim) == "down_awaiting"

    clock.advance(7)
    assert end_fight("heal", heal_id) is True
    closed = Heal.objects.get(pk=heal_id)
    assert (closed.status, closed.reason, closed.closed_game_s) == (Heal.ABORTED, "patient_out", 20)
    for phone, character in ((karim_phone, karim), (lea_phone, lea)):
        view = shown(phone, character)
        assert (view["status"], view["reason"]) == \
            ("aborted", "the patient is no longer waiting for a heal")
    after = snapshot(karim_phone, karim)
    assert after["state"]["key"] == "down_awaiting"
    assert [t["key"] for t in after["timers"]] == ["medic_wait"]
    aborted = narrator_reads(narrator_api, game, kind="heal", what="aborted")
    assert [(r["character"], r["who"], r["game_s"]) for r in aborted] == \
        [("Léa", "system", 20), ("Karim", "system", 20)]
    assert not JournalEntry.objects.filter(event=game, what="healed").exists()
    assert end_fight("heal", heal_id) is False
