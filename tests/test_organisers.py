"""What organisers do before the game: set up characters in the admin, print the sheets,
check the demo event."""
from __future__ import annotations

import pytest
from django.core.management import call_command

from helpers import client_for
from health.models import HealthState
from players.models import Character, Event


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
def test_printable_sheets_carry_a_login_qr_and_the_medic_code(clock, event, player, medic,
                                                              narrator_api, player_api):
    page = narrator_api.get(f"/events/{event.pk}/sheets/")
    assert page.status_code == 200
    html = page.content.decode()
    assert html.count("<svg") == 2
    assert player.code in html and medic.code in html
    assert "Premiers secours (novice)" in html or "First aid (novice)" in html
    assert player_api.get(f"/events/{event.pk}/sheets/").status_code == 404


@pytest.mark.django_db
def test_the_demo_events_print_a_link_for_everyone(capsys):
    call_command("load_demo")
    out = capsys.readouterr().out
    manoir = Event.objects.get(ruleset="gn_fr")
    fortaleza = Event.objects.get(ruleset="septenario_es")
    assert manoir.characters.count() == 4 and fortaleza.characters.count() == 4
    assert fortaleza.language == "es"
    assert out.count("/login/") == 10      # per event: a narrator and four characters
    call_command("load_demo")              # run again: same events, fresh links
    assert Event.objects.count() == 2


@pytest.mark.django_db
def test_the_septenario_demo_player_sees_body_coraje_trauma_and_load(client):
    from players.models import Character
    from health.selectors import character_for_snapshot, character_snapshot
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
