"""An airsoft day at the Terrier: one event, its games played one after another. The
organisers announce the next game (every phone shows it), start it (its scenario's options
apply and everyone goes back to spawn) and end it (the clock pauses)."""
from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

import pytest
import yaml
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from config.asgi import application
from live.snapshots import character_for_snapshot, character_snapshot
from fixtures import START, act, client_for, snapshot
from players.models import Event, JournalEntry
from schedule.models import Game
from players.services import character_create, event_create, team_get_or_create

pytestmark = pytest.mark.django_db

FIRST_AT = START + timedelta(minutes=30)


@pytest.fixture
def day(clock, narrator_user):
    """The day's event: created in the morning, its clock waiting for the first game."""
    return event_create(name="Samedi au Terrier", ruleset="airsoft_rats", language="fr",
                        by=narrator_user)


@pytest.fixture
def players(day, narrator_user):
    made = {}
    for team, names in (("Rouges", ("Karim", "Léa")), ("Bleus", ("Hugo", "Inès"))):
        side = team_get_or_create(event=day, name=team)
        for name in names:
            made[name] = character_create(event=day, name=name, team=side, by=narrator_user)
    return made


@pytest.fixture
def apis(players):
    return {name: client_for(c.user, "fr") for name, c in players.items()}


def announce(api, day, key=None, **body):
    body.setdefault("scenario", "Capture du drapeau")
    body.setdefault("start_at", FIRST_AT.isoformat())
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    return api.post(f"/api/events/{day.pk}/games/", body, format="json", **headers)


def start(api, game_id):
    return api.post(f"/api/games/{game_id}/start/", format="json")


def end(api, game_id):
    return api.post(f"/api/games/{game_id}/end/", format="json")


def announced_game(api, day, **body) -> int:
    response = announce(api, day, **body)
    assert response.status_code == 201, response.content
    return response.json()["game"]["id"]


def state(api, character) -> str:
    return snapshot(api, character)["state"]["key"]


def test_an_announced_game_shows_on_every_phone(clock, day, players, apis, narrator_api):
    response = announce(narrator_api, day, options={"medic_mode": True},
                        description="Chaque équipe défend son drapeau au spawn.")
    assert response.status_code == 201, response.content
    assert response.json()["game"]["number"] == 1
    assert response.json()["game"]["status"] == "announced"

    for name, character in players.items():
        clock_part = snapshot(apis[name], character)["clock"]
        assert clock_part["game"] is None
        shown = clock_part["next_game"]
        assert (shown["number"], shown["scenario"]) == (1, "Capture du drapeau")
        assert shown["description"] == "Chaque équipe défend son drapeau au spawn."
        assert shown["start_at"] == FIRST_AT.isoformat()
        # What a player needs to know: medic mode on, and the defaults of Appendix A.
        assert shown["medic_mode"] is True
        assert shown["respawn_policy"] == "on_arrival_at_spawn"
        assert shown["medics"] == "any_teammate"
        assert shown["max_heals_per_player"] is None
        assert shown["changed"] == ["medic_mode"]
    listed = apis["Karim"].get(f"/api/events/{day.pk}/games/").json()
    assert listed["next"]["scenario"] == "Capture du drapeau"
    assert listed["current"] is None
    line = JournalEntry.objects.get(event=day, kind="game", what="announced")
    assert line.detail["options"] == {"medic_mode": True}
    assert line.actor_label == "narrator"


def test_a_bad_option_is_refused_by_name_with_what_it_may_be(clock, day, players, narrator_user):
    french = client_for(narrator_user, "fr")
    cases = [({"medic_mode": "oui"}, "game_option_invalid", "medic_mode", "true ou false"),
             ({"respawn_policy": "waves"}, "game_option_invalid", "respawn_policy",
              "on_arrival_at_spawn, on_signal"),
             ({"max_heals_per_player": "beaucoup"}, "game_option_invalid",
              "max_heals_per_player", "un nombre ≥ 0, ou null"),
             ({"mode_medecin": True}, "game_option_unknown", "mode_medecin", "medic_mode")]
    for options, code, named, allowed in cases:
        response = announce(french, day, options=options)
        assert response.status_code == 400, response.content
        assert response.json()["error"] == code
        assert named in response.json()["detail"] and allowed in response.json()["detail"]
    naive = announce(french, day, start_at="2026-06-06T20:30:00")
    assert naive.status_code == 400 and "start_at" in naive.json()["detail"]
    yesterday = announce(french, day, start_at=(START - timedelta(days=1)).isoformat())
    assert yesterday.status_code == 400 and "in the past" in yesterday.json()["detail"]
    assert not Game.objects.exists()
    day.refresh_from_db()
    assert day.announcement == {}
    assert not JournalEntry.objects.filter(kind="game").exists()


def _day_guide_options() -> dict:
    """The options docs/airsoft-day.md lists ("Scenario options and their defaults"),
    each with the default it gives."""
    text = (Path(__file__).resolve().parents[2] / "docs" / "airsoft-day.md").read_text()
    section = text.split("## Scenario options and their defaults", 1)[1].split("\n## ", 1)[0]
    listed = {}
    for row in re.findall(r"^\| (`[^|]+) \| ([^|]+) \|", section, re.M):
        names, defaults = re.findall(r"`([^`]+)`", row[0]), re.findall(r"`([^`]+)`", row[1])
        listed.update({name: yaml.safe_load(value) for name, value in zip(names, defaults)})
    return listed


def test_the_day_guide_lists_exactly_the_options_an_announcement_accepts(clock, day, players,
                                                                         narrator_api):
    """An organiser who follows docs/airsoft-day.md has the announcement accepted: the
    guide lists every option of the ruleset, with its default, and no other."""
    listed = _day_guide_options()
    ruleset = day.rules().ruleset
    assert set(listed) == set(ruleset.options)
    assert listed == {name: ruleset.default(name) for name in listed}
    response = announce(narrator_api, day, options=listed)
    assert response.status_code == 201, response.content
    for gone in ("pistol_min_distance_m", "bb_type", "heal_interrupt", "pause_on_game_stop"):
        refused = announce(narrator_api, day, options={gone: 3})
        assert refused.json()["error"] == "game_option_unknown"


def test_a_player_can_neither_announce_nor_start_nor_end(clock, day, players, apis,
                                                         narrator_api):
    game_id = announced_game(narrator_api, day)
    journal = JournalEntry.objects.count()
    assert announce(apis["Karim"], day, scenario="Mon scénario").status_code == 404
    assert start(apis["Karim"], game_id).status_code == 404
    assert end(apis["Karim"], game_id).status_code == 404
    game = Game.objects.get()
    assert (game.scenario, game.started_at) == ("Capture du drapeau", None)
    assert JournalEntry.objects.count() == journal
    assert not Event.objects.get(pk=day.pk).running
    assert apis["Karim"].get(f"/api/events/{day.pk}/games/").status_code == 200


def test_announcing_is_idempotent_and_a_second_announcement_revises_the_game(
        clock, day, players, apis, narrator_api):
    first = announce(narrator_api, day, key="annonce-1", options={"medic_mode": True})
    again = announce(narrator_api, day, key="annonce-1", options={"medic_mode": True})
    assert first.status_code == again.status_code == 201
    assert again["Idempotent-Replayed"] == "true"
    assert again.json()["game"] == first.json()["game"]
    assert Game.objects.count() == 1
    assert JournalEntry.objects.filter(kind="game", what="announced").count() == 1

    # Before it starts, announcing again changes the same game (the orgas changed their mind).
    revised = announce(narrator_api, day, scenario="Escorte du VIP", options={})
    assert revised.json()["game"]["number"] == 1
    assert Game.objects.count() == 1
    shown = snapshot(apis["Léa"], players["Léa"])["clock"]["next_game"]
    assert (shown["scenario"], shown["medic_mode"]) == ("Escorte du VIP", False)


def test_start_applies_the_scenario_and_end_pauses_the_clock(clock, day, players, apis,
                                                             narrator_api):
    karim, hugo = players["Karim"], players["Hugo"]
    game_id = announced_game(narrator_api, day, options={"medic_mode": True})
    clock.advance(30 * 60)

    started = start(narrator_api, game_id)
    assert started.status_code == 200, started.content
    assert started.json()["game"]["status"] == "playing"
    assert started.json()["clock"]["running"] is True
    seen = snapshot(apis["Karim"], karim)
    assert seen["state"]["key"] == "in_play"          # respawn on arrival: straight in play
    assert seen["clock"]["next_game"] is None
    assert seen["clock"]["game"]["scenario"] == "Capture du drapeau"
    assert seen["clock"]["game"]["medic_mode"] is True
    assert Event.objects.get(pk=day.pk).rules().options["medic_mode"] is True

    assert act(apis["Karim"], karim, "hit").status_code == 200
    assert state(apis["Karim"], karim) == "hit_counting"      # medic mode: count to 10
    clock.advance(10)
    assert state(apis["Karim"], karim) == "down_awaiting"

    clock.advance(20 * 60)
    ended = end(narrator_api, game_id)
    assert ended.status_code == 200, ended.content
    assert ended.json()["clock"]["running"] is False
    after = snapshot(apis["Hugo"], hugo)
    assert after["clock"]["running"] is False
    assert (after["clock"]["game"], after["clock"]["next_game"]) == (None, None)
    assert act(apis["Hugo"], hugo, "hit").status_code == 409      # no play between games
    assert JournalEntry.objects.filter(event=day, kind="clock", what="paused").count() == 1

    # Game 2 keeps the default: a hit walks back to spawn. Game 1's medic mode is gone.
    second = announced_game(narrator_api, day, scenario="Deathmatch",
                            start_at=(clock.now + timedelta(minutes=15)).isoformat())
    assert snapshot(apis["Hugo"], hugo)["clock"]["next_game"]["medic_mode"] is False
    assert start(narrator_api, second).status_code == 200
    assert act(apis["Hugo"], hugo, "hit").status_code == 200
    assert state(apis["Hugo"], hugo) == "out_returning"
    listed = apis["Hugo"].get(f"/api/events/{day.pk}/games/").json()
    assert [(g["number"], g["status"]) for g in listed["games"]] == [(1, "ended"),
                                                                    (2, "playing")]
    assert listed["current"]["scenario"] == "Deathmatch"
    game_lines = [(e.what, e.detail["number"]) for e in
                  JournalEntry.objects.filter(event=day, kind="game").order_by("id")]
    assert game_lines == [("announced", 1), ("started", 1), ("ended", 1),
                          ("announced", 2), ("started", 2)]


def test_every_player_starts_the_game_at_spawn(clock, day, players, apis, narrator_api):
    first = announced_game(narrator_api, day)
    assert start(narrator_api, first).status_code == 200
    assert act(apis["Karim"], players["Karim"], "hit").status_code == 200     # walking back
    assert act(apis["Léa"], players["Léa"], "too_close").status_code == 200   # out instead
    assert act(apis["Inès"], players["Inès"], "off_game").status_code == 200  # at her car
    assert end(narrator_api, first).status_code == 200

    second = announced_game(narrator_api, day, scenario="Vagues",
                            options={"respawn_policy": "on_signal"},
                            start_at=(clock.now + timedelta(minutes=15)).isoformat())
    journal = JournalEntry.objects.filter(kind="action", what="game_started").count()
    started = start(narrator_api, second)
    assert started.status_code == 200
    states = {name: state(apis[name], c) for name, c in players.items()}
    # Waves: everyone waits at spawn for the signal; off game stays off game until she
    # comes back through her spawn.
    assert states == {"Karim": "at_spawn", "Léa": "at_spawn", "Hugo": "at_spawn",
                      "Inès": "off_game"}
    assert started.json()["game"]["characters_reset"] == 3
    assert JournalEntry.objects.filter(kind="action", what="game_started").count() == journal + 3
    assert act(apis["Karim"], players["Karim"], "respawn").status_code == 200
    assert state(apis["Karim"], players["Karim"]) == "in_play"


def test_one_game_at_a_time_and_each_once(clock, day, players, narrator_api):
    first = announced_game(narrator_api, day)
    assert end(narrator_api, first).status_code == 409               # not started
    assert start(narrator_api, first).status_code == 200
    again = start(narrator_api, first)
    assert (again.status_code, again.json()["error"]) == (409, "game_already_started")
    # The next game is announced during this one ("le scénario suivant sera annoncé au
    # début de la partie"), but cannot start before this one ends.
    second = announced_game(narrator_api, day, scenario="Défense du bunker")
    refused = start(narrator_api, second)
    assert (refused.status_code, refused.json()["error"]) == (409, "game_in_progress")
    assert "1" in refused.json()["detail"] and "2" in refused.json()["detail"]
    assert end(narrator_api, first).status_code == 200
    assert end(narrator_api, first).json()["error"] == "game_already_ended"
    # Ending game 1 keeps game 2's announcement on the phones.
    shown = Event.objects.get(pk=day.pk).announcement
    assert shown["game"] is None and shown["next_game"]["number"] == 2
    assert start(narrator_api, second).status_code == 200


def test_a_stop_during_a_game_is_the_clock_pause_or_an_emergency(clock, day, players, apis,
                                                                 narrator_api):
    game_id = announced_game(narrator_api, day, options={"medic_mode": True})
    assert start(narrator_api, game_id).status_code == 200
    karim = players["Karim"]
    act(apis["Karim"], karim, "hit")
    clock.advance(4)
    # "Sauf en cas d'accident": any player stops the game for everyone.
    stop = apis["Hugo"].post(f"/api/events/{day.pk}/emergency/", {"reason": "cheville"},
                             format="json")
    assert stop.status_code == 200 and stop.json()["paused_now"] is True
    clock.advance(300)
    frozen = snapshot(apis["Karim"], karim)
    assert frozen["state"]["key"] == "hit_counting"           # the count of 10 froze (B14)
    assert frozen["next"]["remaining_s"] == 6
    assert frozen["clock"]["game"]["status"] == "playing"     # still the same game
    assert narrator_api.post(f"/api/events/{day.pk}/clock/", {"action": "resume"},
                             format="json").status_code == 200
    clock.advance(6)
    assert state(apis["Karim"], karim) == "down_awaiting"
    assert end(narrator_api, game_id).status_code == 200


def test_the_snapshot_costs_no_more_queries_with_a_game(clock, day, players, narrator_api):
    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            now = timezone.now()
            character_snapshot(character_for_snapshot(players["Léa"].pk, now), now)
        return len(captured)

    before = queries()
    game_id = announced_game(narrator_api, day, options={"medic_mode": True})
    assert queries() == before
    assert start(narrator_api, game_id).status_code == 200
    announced_game(narrator_api, day, scenario="Suivante")
    assert queries() == before


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_an_announcement_reaches_connected_phones_live(clock, day, players, narrator_api):
    karim = players["Karim"]
    api = await sync_to_async(client_for)(karim.user, "fr")
    headers = [(b"origin", b"http://testserver"), (b"host", b"testserver"),
               (b"cookie", f"sessionid={api.cookies['sessionid'].value}".encode())]
    phone = WebsocketCommunicator(application, f"/ws/live/?character={karim.pk}&lang=fr",
                                  headers=headers)
    connected, _ = await phone.connect(timeout=5)
    assert connected
    first = await phone.receive_json_from(timeout=5)
    assert first["snapshot"]["clock"]["next_game"] is None

    response = await sync_to_async(announce)(narrator_api, day, options={"medic_mode": True})
    assert response.status_code == 201
    pushed = await phone.receive_json_from(timeout=5)
    assert pushed["type"] == "snapshot"
    shown = pushed["snapshot"]["clock"]["next_game"]
    assert (shown["scenario"], shown["medic_mode"]) == ("Capture du drapeau", True)

    game_id = response.json()["game"]["id"]
    assert (await sync_to_async(start)(narrator_api, game_id)).status_code == 200
    playing = await phone.receive_json_from(timeout=5)
    assert playing["snapshot"]["clock"]["running"] is True
    assert playing["snapshot"]["clock"]["game"]["scenario"] == "Capture du drapeau"
    assert playing["snapshot"]["state"]["key"] == "in_play"
    await phone.disconnect()
