"""The character sheet (skills, kits, psychological traits), hors-jeu, searching an inert
character, and the event's options shown to narrators."""
from __future__ import annotations

import pytest

from fixtures import MEDIC_SHEET, act, snapshot
from players.models import JournalEntry

pytestmark = pytest.mark.django_db


def search(api, searcher, target, location="les bottes", strip=False):
    return api.post(f"/api/characters/{searcher.pk}/search/",
                    {"target_code": target.code, "location": location, "strip": strip},
                    format="json")


def action_keys(snap) -> list[str]:
    return [a["key"] for a in snap["actions"]]


def test_only_an_inert_character_can_be_searched(clock, event, player, player_api, other_player,
                                                 denis_api, narrator_api):
    refused = search(player_api, player, other_player)
    assert refused.status_code == 409 and "Denis" in refused.json()["detail"]
    act(narrator_api, other_player, "hit_wounding")                 # inert for a minute
    assert search(player_api, player, other_player).status_code == 200
    history = denis_api.get(f"/api/characters/{other_player.pk}/history/").json()["history"]
    assert history[0]["what"] == "Searched"
    assert snapshot(denis_api, other_player)["values"]["naked"] is False


def test_stripped_of_everything_the_character_is_naked_until_dressed(
        clock, event, player, player_api, other_player, denis_api, narrator_api):
    act(narrator_api, other_player, "set_state", state="coma")
    search(player_api, player, other_player, location="tout, même le costume", strip=True)
    snap = snapshot(denis_api, other_player)
    assert snap["values"]["naked"] is True
    assert "dressed" in action_keys(snap)
    act(denis_api, other_player, "dressed")
    assert snapshot(denis_api, other_player)["values"]["naked"] is False


def test_searching_a_corpse_restarts_its_ten_minutes(clock, event, player, player_api,
                                                     other_player, denis_api, narrator_api):
    """G20 (A15): using the corpse keeps it in place ten more minutes."""
    act(narrator_api, other_player, "set_state", state="dead")
    clock.advance(540)
    search(player_api, player, other_player, location="les poches")
    corpse = next(t for t in snapshot(denis_api, other_player)["timers"] if t["key"] == "corpse")
    assert corpse["remaining_s"] == 600


def test_hors_jeu_is_a_flag_the_player_raises_and_lowers_and_timers_keep_running(
        clock, event, player, player_api):
    act(player_api, player, "hit_wounding")
    assert "back_in_game" not in action_keys(snapshot(player_api, player))
    assert act(player_api, player, "out_of_game").status_code == 200
    snap = snapshot(player_api, player)
    assert snap["values"]["out_of_game"] is True
    assert [f["key"] for f in snap["flags"]] == ["out_of_game"]       # shown on the screen
    assert "out_of_game" not in action_keys(snap) and "back_in_game" in action_keys(snap)
    again = act(player_api, player, "out_of_game")
    assert again.status_code == 409                                 # already out
    clock.advance(900)                                              # A18: the deadline runs
    assert snapshot(player_api, player)["state"]["key"] == "coma"
    act(player_api, player, "back_in_game")
    assert snapshot(player_api, player)["values"]["out_of_game"] is False


def test_the_sheet_shows_skills_kits_and_psychological_traits(clock, event, medic, narrator_api,
                                                              medic_api):
    answer = narrator_api.post(f"/api/characters/{medic.pk}/psych/",
                               {"psych": {"humeur": 3, "activite": 2, "empathie": 4, "assurance": 1}},
                               format="json")
    assert answer.status_code == 200, answer.content
    sheet = snapshot(medic_api, medic)["sheet"]
    assert sheet["psych"] == {"humeur": 3, "activite": 2, "empathie": 4, "assurance": 1}
    assert {s["key"]: s["level"] for s in sheet["skills"]} == MEDIC_SHEET["skills"]
    assert {k["key"]: k["count"] for k in sheet["kits"]} == {"kps": 2, "koc": 1}
    line = JournalEntry.objects.get(kind="sheet", character=medic)
    assert line.detail["after"]["empathie"] == 4


def test_only_narrators_change_the_traits_and_only_known_ones(clock, event, medic, medic_api,
                                                              narrator_api):
    mine = medic_api.post(f"/api/characters/{medic.pk}/psych/", {"psych": {"humeur": 5}},
                          format="json")
    assert mine.status_code == 404
    unknown = narrator_api.post(f"/api/characters/{medic.pk}/psych/", {"psych": {"charisme": 5}},
                                format="json")
    assert unknown.status_code == 400 and "charisme" in unknown.json()["detail"]
    not_a_number = narrator_api.post(f"/api/characters/{medic.pk}/psych/",
                                     {"psych": {"humeur": "beaucoup"}}, format="json")
    assert not_a_number.status_code == 400
    assert snapshot(medic_api, medic)["sheet"]["psych"] == {}


def test_every_default_of_the_spec_is_an_option_narrators_see(clock, event, narrator_api,
                                                              player_api):
    options = narrator_api.get(f"/api/events/{event.pk}/options/").json()["options"]
    by_key = {o["key"]: o for o in options}
    for key, default in {"tired_recovery_from": "entry", "wounded_entry_inert_s": 60,
                         "never_improve": True, "rewound_deadline_policy": "min",
                         "union_ratio": 3, "union_window_s": 3, "acharnement_s": 300,
                         "acharnement_defers_recovery": True, "barehand_blocked_by": ["stunning"],
                         "firearm_max_range_m": 10, "duel_winner_zero_becomes_tired": False,
                         }.items():
        assert by_key[key]["value"] == by_key[key]["default"] == default, key
    # Defaults no code applies are not offered (docs/rules/gn_fr-coverage.md, Options).
    for key in ("metabolic_reveals", "pause_timers_when_out_of_game", "psych_traits_enabled"):
        assert key not in by_key
    assert by_key["tired_recovery_from"]["choices"] == ["entry", "inert_end"]
    assert player_api.get(f"/api/events/{event.pk}/options/").status_code in (403, 404)
