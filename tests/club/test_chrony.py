"""The chrony station: each replica measured against the club's limits (1.2 J, 6 mm, no
full-auto), a printable pass label only for a replica that passed, and a failed control
during the games of a replica that passed at check-in recorded as proven cheating (a
second one is a grave fault, rule B13)."""
from __future__ import annotations

from types import SimpleNamespace

import pytest
from rest_framework.test import APIClient

from fixtures import game, member, referee_api, referee_user  # noqa: F401
from club.selectors import chrony_limits
from club.models import ChronyCheck, Replica
from fixtures import client_for
from players.models import JournalEntry
from club.models import Sanction
from players.services import character_create
from rulesets import Rules, get_ruleset

pytestmark = pytest.mark.django_db


def register(api, game, member, **body):
    body = {"member": member.pk, "label": "M4 CQB", "type": "rifle", "calibre_mm": 6, **body}
    response = api.post(f"/api/events/{game.pk}/replicas/", body, format="json")
    assert response.status_code == 201, response.content
    return response.json()["replica"]


def measure(api, replica, kind="check_in", key=None, **body):
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    return api.post(f"/api/replicas/{replica['id']}/checks/",
                    {"kind": kind, "bb_weight_g": 0.20, **body}, format="json", **headers)


@pytest.fixture
def replica(game, member, narrator_api):
    return register(narrator_api, game, member)


def test_a_replica_over_1_2_joule_fails(replica, narrator_user, narrator_api):
    response = measure(narrator_api, replica, speed_mps=110)

    assert response.status_code == 201, response.content
    check = response.json()["check"]
    assert check["energy_j"] == 1.21
    assert response.json()["passed"] is False
    assert check["reasons"] == ["1.21 J > 1.2 J"]
    french = measure(client_for(narrator_user, "fr"), replica, speed_mps=110)
    assert french.json()["check"]["reasons"] == ["1,21 J > 1,2 J"]


def test_a_replica_at_1_joule_passes(replica, narrator_api):
    response = measure(narrator_api, replica, speed_mps=100)
    assert response.json()["check"]["energy_j"] == 1.0
    assert response.json()["passed"] is True
    assert response.json()["check"]["reasons"] == []
    assert response.json()["sanction"] is None


def test_an_energy_read_off_the_chrony_is_taken_as_is(replica, narrator_api):
    assert measure(narrator_api, replica, energy_j=1.19).json()["passed"] is True
    assert measure(narrator_api, replica, energy_j=1.3).json()["check"]["reasons"] == ["1.3 J > 1.2 J"]
    both = measure(narrator_api, replica, energy_j=1.0, speed_mps=100)
    neither = measure(narrator_api, replica)
    assert both.status_code == neither.status_code == 400
    assert both.json()["error"] == "chrony_speed_or_energy"
    assert ChronyCheck.objects.count() == 2


def test_8_mm_fails(game, member, narrator_api):
    replica = register(narrator_api, game, member, label="Fusil à pompe", type="shotgun",
                       calibre_mm=8)
    response = measure(narrator_api, replica, speed_mps=90)
    assert response.json()["passed"] is False
    assert response.json()["check"]["reasons"] == ["calibre 8 mm: only 6 mm is allowed"]


def test_full_auto_fails(replica, narrator_api):
    response = measure(narrator_api, replica, speed_mps=95, full_auto_used=True)
    assert response.json()["passed"] is False
    assert response.json()["check"]["reasons"] == ["full-auto used: full-auto is forbidden"]


def _event_of(ruleset: str, **options):
    rs = get_ruleset(ruleset)
    return SimpleNamespace(rules=lambda: Rules(rs, rs.merged_options(options)))


def test_limits_come_from_the_events_options_when_it_has_them():
    club = {"max_power_joule": 1.2, "calibre_mm": 6, "full_auto": "forbidden"}
    assert chrony_limits(None) == club
    assert chrony_limits(_event_of("gn_fr")) == club      # a LARP names no limits
    airsoft = _event_of("airsoft_rats", max_power_joule=1.5, full_auto="allowed")
    assert chrony_limits(airsoft) == {"max_power_joule": 1.5, "calibre_mm": 6,
                                      "full_auto": "allowed"}


def test_the_pass_label_is_printed_only_for_a_passing_replica(replica, narrator_api, member):
    url = f"/replicas/{replica['id']}/label/"
    unchecked = narrator_api.get(url)
    assert unchecked.status_code == 409
    assert "pas encore passée au chrony" in unchecked.content.decode()

    measure(narrator_api, replica, speed_mps=100)
    label = narrator_api.get(url)
    assert label.status_code == 200
    html = label.content.decode()
    assert "CHRONY VALIDÉ" in html                          # the game is in French
    assert replica["code"] in html and "<svg" in html
    assert "Karim Benali" in html and "M4 CQB" in html and "1 J" in html
    assert "2026-06-06 20:00" in html

    measure(narrator_api, replica, kind="recheck", speed_mps=120)
    refused = narrator_api.get(url)
    assert refused.status_code == 409
    assert "1,44 J &gt; 1,2 J" in refused.content.decode()
    assert "<svg" not in refused.content.decode()


def test_only_the_events_staff_print_a_label(game, replica, narrator_api, referee_api):
    measure(narrator_api, replica, speed_mps=100)
    url = f"/replicas/{replica['id']}/label/"
    assert referee_api.get(url).status_code == 200
    player = character_create(event=game, name="Joueur")
    assert client_for(player.user).get(url).status_code == 404
    assert APIClient().get(url).status_code == 302


def test_a_failed_recheck_is_proven_cheating_and_a_second_one_is_grave(game, member, replica,
                                                                     narrator_api, referee_api):
    assert measure(narrator_api, replica, speed_mps=100).json()["passed"] is True

    first = measure(referee_api, replica, kind="recheck", speed_mps=116)

    assert first.status_code == 201, first.content
    assert first.json()["passed"] is False
    sanction = first.json()["sanction"]
    assert sanction["cheating"] is True
    assert (sanction["level"], sanction["kind"]) == ("light", "sanction_out")
    assert first.json()["escalated"] is False
    assert "Tricherie avérée" in sanction["reason"] and replica["code"] in sanction["reason"]
    assert JournalEntry.objects.filter(event=game, kind="chrony", what="proven_cheat").count() == 1

    second = measure(referee_api, replica, kind="recheck", speed_mps=118)

    assert second.json()["escalated"] is True
    escalated = second.json()["sanction"]
    assert (escalated["level"], escalated["kind"]) == ("grave", "removed_from_game")
    assert escalated["escalation"]["because_of"] == sanction["id"]
    assert [s.kind for s in Sanction.objects.filter(member=member).order_by("id")] == [
        "sanction_out", "removed_from_game"]


def test_a_failed_recheck_without_a_passed_check_in_is_no_cheat(replica, narrator_api):
    assert measure(narrator_api, replica, speed_mps=120).json()["passed"] is False
    recheck = measure(narrator_api, replica, kind="recheck", speed_mps=120)
    assert recheck.json()["passed"] is False and recheck.json()["sanction"] is None
    assert Sanction.objects.count() == 0


def test_the_list_shows_each_replica_with_its_latest_check(game, member, replica, narrator_api,
                                                          referee_api):
    other = register(narrator_api, game, member, label="Glock", type="pistol")
    measure(narrator_api, replica, speed_mps=120)
    measure(narrator_api, replica, speed_mps=100)

    listed = referee_api.get(f"/api/events/{game.pk}/replicas/")

    assert listed.status_code == 200
    rows = {r["label"]: r for r in listed.json()["replicas"]}
    assert rows["M4 CQB"]["passed"] is True and rows["M4 CQB"]["latest_check"]["energy_j"] == 1.0
    assert rows["Glock"]["passed"] is None and rows["Glock"]["latest_check"] is None
    assert rows["Glock"]["code"] == other["code"]


def test_a_player_cannot_register_or_measure(game, member, replica):
    player = client_for(character_create(event=game, name="Joueur").user)
    journal = JournalEntry.objects.count()
    assert player.post(f"/api/events/{game.pk}/replicas/",
                       {"member": member.pk, "label": "X", "type": "rifle", "calibre_mm": 6},
                       format="json").status_code == 404
    assert measure(player, replica, speed_mps=100).status_code == 404
    assert Replica.objects.count() == 1 and ChronyCheck.objects.count() == 0
    assert JournalEntry.objects.count() == journal
