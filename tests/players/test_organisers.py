"""What organisers do before the game: set up characters in the admin, print the sheets,
check the demo event."""
from __future__ import annotations

import pytest
from django.core.management import call_command
from django.test import Client

from fixtures import client_for
from health.models import HealthState
from players.models import Character, Event, Membership
from schedule.models import Game


@pytest.mark.django_db
def test_a_character_added_in_the_admin_can_play(clock, event, narrator_user):
    narrator_user.is_superuser = True
    narrator_user.save()
    admin = client_for(narrator_user)
    response = admin.post("/admin/players/character/add/", {
        "event": event.pk, "name": "Gaspard", "sheet": '{"combat_base": 3}', "kits": "{}",
    })
    assert response.status_code == 302, response.content[:2000]
    gaspard = Character.objects.get(name="Gaspard")
    assert HealthState.objects.get(pk=gaspard.pk).status == "healthy"
    assert gaspard.user is not None and len(gaspard.code) == 6


@pytest.mark.django_db
def test_printable_cards_carry_a_login_qr_and_the_medic_code(clock, event, player, medic,
                                                             narrator_api, player_api):
    page = narrator_api.get(f"/events/{event.pk}/sheets/?per_page=4")
    assert page.status_code == 200
    html = page.content.decode()
    assert html.count("<svg") == 2
    assert player.code in html and medic.code in html
    assert "Premiers secours (novice)" in html
    assert player_api.get(f"/events/{event.pk}/sheets/").status_code == 404


@pytest.mark.django_db
def test_the_demo_events_print_a_link_for_everyone(capsys):
    call_command("load_demo")
    out = capsys.readouterr().out
    manoir = Event.objects.get(ruleset="gn_fr")
    fortaleza = Event.objects.get(ruleset="septenario_es")
    assert manoir.characters.count() == 4 and fortaleza.characters.count() == 4
    assert fortaleza.language == "es"
    terrier = Event.objects.get(ruleset="airsoft_rats")
    assert (terrier.name, terrier.language) == ("Démo — Airsoft au Terrier", "fr")
    assert not terrier.running             # the clock waits for the first game
    teams = sorted((c.team.name, c.check_in.member.licence_number) for c in terrier.characters.all())
    assert [team for team, _ in teams] == ["Bleus"] * 3 + ["Rouges"] * 3
    assert Membership.objects.filter(event=terrier, user__username="orga",
                                     role=Membership.NARRATOR).exists()
    game = terrier.games.get()
    assert (game.number, game.scenario, game.options) == (1, "Capture du drapeau",
                                                          {"medic_mode": True})
    assert terrier.announcement["next_game"]["medic_mode"] is True
    assert Membership.objects.filter(event=terrier, user__username="arbitre",
                                     role=Membership.REFEREE).exists()
    assert "Nadia (referee)" in out
    # per event: a narrator and four characters; at the Terrier an orga, a referee and
    # six players
    links = links_by_event(out)
    assert (links["Démo — Le Manoir"], links["Demo — Septenario: La Fortaleza"],
            links["Démo — Airsoft au Terrier"]) == (5, 5, 8)
    call_command("load_demo")              # run again: same events, fresh links
    assert {r: Event.objects.filter(ruleset=r).count()
            for r in ("gn_fr", "septenario_es", "airsoft_rats")} == {
        "gn_fr": 1, "septenario_es": 1, "airsoft_rats": 1}
    assert terrier.characters.count() == 6 and Game.objects.count() == 1


def links_by_event(out: str) -> dict:
    """How many login links load_demo printed under each "Demo event: <name> (id ...)"."""
    blocks = out.split("\nDemo event: ")[1:]
    return {block.split(" (id ")[0]: block.count("/login/") for block in blocks}


@pytest.mark.django_db
def test_the_demo_race_has_courses_entries_a_zombie_and_the_points_warning(capsys):
    from race.models import Course, Entry
    call_command("load_demo")
    race = Event.objects.get(ruleset="zombie_race")
    assert (race.name, race.language) == ("Démo — Rugles by Night", "fr")
    courses = {c.name: c for c in Course.objects.filter(event=race)}
    assert set(courses) == {"famille", "enfant"}
    assert all(c.points_per_checkpoint == 20 and not c.points_confirmed for c in courses.values())
    assert courses["famille"].checkpoints.count() == 5
    entries = Entry.objects.filter(event=race)
    assert sorted((e.name, e.kind) for e in entries) == [
        ("Hugo Lambert", "solo"), ("Les Rescapés", "team"), ("Lucie Martin", "solo"),
        ("Zoé et Papa", "team")]
    assert Membership.objects.filter(event=race, role=Membership.ZOMBIE).count() == 1
    # an organiser, four entries and a zombie, each with a login link
    assert links_by_event(capsys.readouterr().out)["Démo — Rugles by Night"] == 6
    # The points are not confirmed: the organisers' warning, not the public's.
    html = Client().get(f"/race/{race.pk}/results/").content.decode()
    assert "Points par balise non confirmés" not in html
    call_command("load_demo")
    assert Event.objects.filter(ruleset="zombie_race").count() == 1
    assert Entry.objects.filter(event=race).count() == 4


@pytest.mark.django_db
def test_the_septenario_demo_player_sees_body_coraje_trauma_and_load(client):
    from players.models import Character
    from live.snapshots import character_for_snapshot, character_snapshot
    from django.utils import timezone
    call_command("load_demo")
    lucia = Character.objects.get(name="Lucía Ferrer")
    snap = character_snapshot(character_for_snapshot(lucia.pk, timezone.now()), timezone.now())
    assert snap["character"]["language"] == "es"
    assert [loc["status"] for loc in snap["body"]["locations"]] == ["ok"] * 5
    assert snap["body"]["armour"]["left_now"] == 1
    points = {p["key"]: (p["value"], p["max"]) for p in snap["points"]}
    assert points == {"coraje": (2, 5), "trauma": (3, None)}
    assert snap["load"]["total"] == 3 and snap["load"]["status"] == "normal"
