"""A fault's category on the club's register, so that a repeat of the same kind is
recognised (rulebook [L47]: "Tout fautif sera sorti de l'aire de jeu pour la journée. En
cas de récidive l'exclusion sera plus sévère")."""
from __future__ import annotations

import pytest

from fixtures import game, member, referee_api, referee_user, same_club, sanction  # noqa: F401
from players.models import JournalEntry
from players.services import event_create

pytestmark = pytest.mark.django_db

DAY = 24 * 3600


def test_L47_a_second_alcohol_fault_is_recorded_as_a_repeat_of_the_first(
        clock, game, member, narrator_user, narrator_api):
    first = sanction(narrator_api, game, member.pk, kind="expelled_rest_of_day",
                     category="alcohol_drugs", reason="bière sur le terrain").json()["sanction"]
    assert first["category"] == "alcohol_drugs" and first["repeat_of"] is None
    other_game = event_create(name="Partie suivante", ruleset="airsoft_rats", by=narrator_user)
    same_club(other_game, as_event=game, by=narrator_user)
    clock.advance(14 * DAY)

    again = sanction(narrator_api, other_game, member.pk, kind="removed_from_game",
                     category="alcohol_drugs", reason="encore de l'alcool")

    assert again.status_code == 201, again.content
    repeat = again.json()["sanction"]["repeat_of"]
    assert repeat["id"] == first["id"] and repeat["kind"] == "expelled_rest_of_day"
    assert repeat["event"] == game.pk
    line = JournalEntry.objects.get(event=other_game, kind="sanction", what="removed_from_game")
    assert line.detail["category"] == "alcohol_drugs" and line.detail["repeat_of"] == first["id"]
    history = narrator_api.get(f"/api/members/{member.pk}/sanctions/").json()["sanctions"]
    assert [s["repeat_of"] and s["repeat_of"]["id"] for s in history] == [repeat["id"], None]


def test_a_fault_of_another_category_or_none_is_no_repeat(game, member, narrator_api,
                                                         referee_api):
    sanction(referee_api, game, member.pk, kind="warning", category="info_while_out")
    other = sanction(referee_api, game, member.pk, kind="warning", category="no_out_call")
    unsaid = sanction(referee_api, game, member.pk, kind="warning")
    assert other.json()["sanction"]["repeat_of"] is None
    assert unsaid.json()["sanction"]["category"] is None
    assert unsaid.json()["sanction"]["repeat_of"] is None


def test_a_revoked_sanction_is_no_earlier_fault(game, member, narrator_api, referee_api):
    first = sanction(referee_api, game, member.pk, kind="warning",
                     category="engagement_distance").json()["sanction"]
    narrator_api.post(f"/api/sanctions/{first['id']}/revoke/", {"reason": "erreur"},
                      format="json")
    again = sanction(referee_api, game, member.pk, kind="warning", category="engagement_distance")
    assert again.json()["sanction"]["repeat_of"] is None


def test_the_latest_earlier_fault_is_the_one_repeated(game, member, referee_api):
    sanction(referee_api, game, member.pk, kind="warning", category="bbs_left")
    second = sanction(referee_api, game, member.pk, kind="warning", category="bbs_left").json()
    third = sanction(referee_api, game, member.pk, kind="sanction_out", category="bbs_left").json()
    assert third["sanction"]["repeat_of"]["id"] == second["sanction"]["id"]


def test_an_unknown_category_is_refused_and_records_nothing(game, member, referee_api):
    refused = sanction(referee_api, game, member.pk, kind="warning", category="mauvaise_humeur")
    assert refused.status_code == 400
    assert "category" in str(refused.json())
    assert referee_api.get(f"/api/events/{game.pk}/sanctions/").json()["sanctions"] == []
