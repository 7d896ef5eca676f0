"""Bare-hand duels: a challenge, a confirmation, an outcome told to each side alone."""
from __future__ import annotations

import pytest

from fixtures import act, snapshot
from players.models import JournalEntry

pytestmark = pytest.mark.django_db


def challenge(api, challenger, opponent, key=None):
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    return api.post(f"/api/characters/{challenger.pk}/duels/", {"opponent_code": opponent.code},
                    format="json", **headers)


def answer(api, duel_id, accept=True, weapon="none"):
    return api.post(f"/api/duels/{duel_id}/answer/", {"accept": accept, "weapon_in_hand": weapon},
                    format="json")


DUEL_VIEW_KEYS = {"kind", "id", "role", "other", "status", "result", "reason", "can_answer", "ends"}


def duel_of(snap) -> dict:
    found = [f for f in snap["fights"] if f["kind"] == "duel"]
    assert len(found) == 1, snap["fights"]
    return found[0]


def combat_score(snap) -> int:
    return next(p["value"] for p in snap["points"] if p["key"] == "combat_score")


def test_the_higher_score_wins_and_each_side_learns_only_its_result(
        clock, event, player, other_player, player_api, denis_api):
    started = challenge(player_api, player, other_player)           # Alice 2 vs Denis 3
    assert started.status_code == 201, started.content
    duel = started.json()["duel"]
    waiting = duel_of(snapshot(denis_api, other_player))
    assert (waiting["can_answer"], waiting["other"], waiting["status"]) == (True, "Alice", "proposed")

    answered = answer(denis_api, duel)
    assert answered.status_code == 200, answered.content

    alice, denis = snapshot(player_api, player), snapshot(denis_api, other_player)
    assert (duel_of(alice)["result"], duel_of(denis)["result"]) == ("lost", "won")
    assert alice["state"]["key"] == "tired"                          # G01
    assert denis["state"]["key"] == "healthy"                        # G02: stays healthy...
    assert combat_score(denis) == 2                                  # ...and loses a point
    recovery = next(p for p in denis["points"] if p["key"] == "combat_score")["recovers"]
    assert recovery["remaining_s"] == 600                            # back in 10 minutes
    # Neither phone ever holds the other side's score: a duel shows only who and the result.
    for api, character, other_base in ((player_api, player, 3), (denis_api, other_player, 2)):
        snap = snapshot(api, character)
        assert set(duel_of(snap)) == DUEL_VIEW_KEYS
        assert f'"base": {other_base}' not in api.get(f"/api/characters/{character.pk}/").content.decode()
        assert "scores" not in api.get(f"/api/characters/{character.pk}/history/").content.decode()


def test_a_tie_makes_both_lose(clock, event, player, fighter, player_api):
    bea, bea_api = fighter("Béa", 2)
    duel = challenge(player_api, player, bea).json()["duel"]
    answer(bea_api, duel)
    for api, character in ((player_api, player), (bea_api, bea)):
        snap = snapshot(api, character)
        assert duel_of(snap)["result"] == "tie"
        assert snap["state"]["key"] == "tired"
        assert combat_score(snap) == 0                               # 0 while Tired (L17)


def test_wins_cost_a_point_each_and_all_come_back_ten_minutes_after_the_last_fight(
        clock, event, fighter):
    champion, champion_api = fighter("Chloé", 5)
    for n in range(3):
        rival, rival_api = fighter(f"Rival {n}", 1)
        answer(rival_api, challenge(champion_api, champion, rival).json()["duel"])
        clock.advance(120)
    assert combat_score(snapshot(champion_api, champion)) == 2       # 5 - 3, cumulative
    clock.advance(600 - 120 - 1)
    assert combat_score(snapshot(champion_api, champion)) == 2
    clock.advance(1)
    assert combat_score(snapshot(champion_api, champion)) == 5


def test_a_winner_at_zero_stays_healthy(clock, event, fighter):
    """A4: winning to 0 does not tire; the next duel is lost (or tied at 0)."""
    ace, ace_api = fighter("Ace", 1)
    rookie, rookie_api = fighter("Rookie", 0)
    answer(rookie_api, challenge(ace_api, ace, rookie).json()["duel"])
    snap = snapshot(ace_api, ace)
    assert (snap["state"]["key"], combat_score(snap)) == ("healthy", 0)


def test_a_lost_duel_never_heals_a_wounded_character(clock, event, player, fighter, player_api):
    """A3: a Wounded loser stays Wounded (never improve), still a combat event."""
    act(player_api, player, "hit_wounding")
    clock.advance(61)                                                # past the inert minute
    bruiser, bruiser_api = fighter("Bruiser", 3)
    answer(player_api, challenge(bruiser_api, bruiser, player).json()["duel"])
    snap = snapshot(player_api, player)
    assert snap["state"]["key"] == "wounded"
    assert duel_of(snap)["result"] == "lost"


@pytest.mark.parametrize("setup, who", [
    ("inert", "defender"), ("coma", "defender"), ("dead", "challenger"), ("inert", "challenger")])
def test_refused_when_a_side_is_inert_in_coma_or_dead(setup, who, clock, event, player,
                                                     other_player, player_api, denis_api,
                                                     narrator_api):
    target = other_player if who == "defender" else player
    if setup == "inert":
        act(narrator_api, target, "hit_wounding")                    # falls inert for 60 s
    else:
        act(narrator_api, target, "set_state", state=setup)
    lines = JournalEntry.objects.count()
    refused = challenge(player_api, player, other_player)
    assert refused.status_code == 409, refused.content
    detail = refused.json()["detail"]
    if who == "defender":   # named, never their state: that is the rules' secret
        assert target.name in detail and "oma" not in detail and "inert" not in detail
    else:                   # the challenger is told their own state
        assert detail.startswith("Bare-hand duel: you cannot do that while ")
    assert JournalEntry.objects.count() == lines                     # nothing changed


def test_the_defender_holding_a_stunning_weapon_refuses_it(clock, event, player, other_player,
                                                           player_api, denis_api):
    duel = challenge(player_api, player, other_player).json()["duel"]
    assert answer(denis_api, duel, weapon="stunning").status_code == 200
    alice, denis = snapshot(player_api, player), snapshot(denis_api, other_player)
    assert duel_of(alice)["status"] == "refused"
    assert duel_of(alice)["reason"] == "the defender holds a weapon"
    assert alice["state"]["key"] == denis["state"]["key"] == "healthy"


def test_a_wounding_weapon_in_hand_does_not_block_bare_hands(clock, event, player, other_player,
                                                            player_api, denis_api):
    """A13: only a stunning (blunt) weapon, as written."""
    duel = challenge(player_api, player, other_player).json()["duel"]
    answer(denis_api, duel, weapon="wounding")
    assert duel_of(snapshot(player_api, player))["result"] == "lost"


def test_a_hit_on_a_participant_cancels_the_duel(clock, event, player, other_player, player_api,
                                                 denis_api):
    """G25: nobody wins or loses; the struck one gets the hit's normal effect."""
    duel = challenge(player_api, player, other_player).json()["duel"]
    act(denis_api, other_player, "hit_stunning")
    alice, denis = snapshot(player_api, player), snapshot(denis_api, other_player)
    assert duel_of(alice)["status"] == "cancelled"
    assert duel_of(alice)["reason"] == "stopped by a weapon hit"
    assert combat_score(denis) == 2 and denis["state"]["key"] == "healthy"   # the stun's effect
    assert alice["state"]["key"] == "healthy" and combat_score(alice) == 2
    closed = answer(denis_api, duel)
    assert closed.status_code == 409


def test_only_the_challenged_side_answers(clock, event, player, other_player, player_api,
                                          denis_api, fighter):
    duel = challenge(player_api, player, other_player).json()["duel"]
    assert answer(player_api, duel).status_code == 404               # Denis's to answer
    _, stranger_api = fighter("Stranger")
    assert answer(stranger_api, duel).status_code in (403, 404)
    assert duel_of(snapshot(player_api, player))["status"] == "proposed"


def test_a_challenge_lapses_if_not_confirmed_in_time(clock, event, player, other_player,
                                                     player_api, denis_api):
    duel = challenge(player_api, player, other_player).json()["duel"]
    clock.advance(61)
    lapsed = answer(denis_api, duel)
    assert lapsed.status_code == 409
    assert "60 s" in lapsed.json()["detail"]
    assert snapshot(player_api, player)["state"]["key"] == "healthy"


def test_declining_changes_nobody(clock, event, player, other_player, player_api, denis_api):
    duel = challenge(player_api, player, other_player).json()["duel"]
    answer(denis_api, duel, accept=False)
    assert duel_of(snapshot(player_api, player))["status"] == "declined"
    assert snapshot(denis_api, other_player)["state"]["key"] == "healthy"


def test_bad_challenges_name_the_problem(clock, event, player, other_player, player_api):
    unknown = challenge(player_api, player, type("X", (), {"code": "NOPE42"})())
    assert unknown.status_code in (400, 404) and "NOPE42" in unknown.json()["detail"]
    itself = challenge(player_api, player, player)
    assert itself.status_code in (400, 409) and "yourself" in itself.json()["detail"]
    challenge(player_api, player, other_player)
    again = challenge(player_api, player, other_player)
    assert again.status_code == 409 and "already" in again.json()["detail"]


def test_a_retried_challenge_is_applied_once(clock, event, player, other_player, player_api):
    first = challenge(player_api, player, other_player, key="duel-1")
    second = challenge(player_api, player, other_player, key="duel-1")
    assert first.json()["duel"] == second.json()["duel"]
    assert second["Idempotent-Replayed"] == "true"


def test_the_duel_is_journalled_with_the_scores_for_narrators(clock, event, player, other_player,
                                                              player_api, denis_api, narrator_api):
    answer(denis_api, challenge(player_api, player, other_player).json()["duel"])
    rows = narrator_api.get(f"/api/events/{event.pk}/journal/").json()["entries"]
    resolved = [r for r in rows if r["kind"] == "duel" and r["what"] == "resolved"]
    assert {r["character"] for r in resolved} == {"Alice", "Denis"}
    assert resolved[0]["detail"]["scores"] == {"challenger": 2, "defender": 3}


def test_L58_a_character_out_of_game_is_not_challenged_to_a_duel(
        clock, event, player, other_player, player_api, denis_api, narrator_api):
    """"mettez simplement un bras en l'air avec le poing fermé. Les autres personnages vous
    ignoreront mais pas les organisateurs !": while Denis is hors-jeu nobody duels him
    (and he duels nobody); back in game, he may be challenged again."""
    assert act(denis_api, other_player, "out_of_game").status_code == 200
    refused = challenge(player_api, player, other_player)
    assert (refused.status_code, refused.json()["error"]) == (409, "character_out_of_game")
    assert "Denis" in refused.json()["detail"]
    refused = challenge(denis_api, other_player, player)
    assert (refused.status_code, refused.json()["error"]) == (409, "character_out_of_game")
    for api, character in ((player_api, player), (denis_api, other_player)):
        snap = snapshot(api, character)
        assert (snap["state"]["key"], snap["fights"]) == ("healthy", [])

    # The organisers are not among those who ignore him.
    hit = act(narrator_api, other_player, "hit_stunning")
    assert hit.status_code == 200, hit.content
    assert act(denis_api, other_player, "back_in_game").status_code == 200
    assert challenge(player_api, player, other_player).status_code == 201
