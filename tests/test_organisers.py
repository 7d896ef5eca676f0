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
def test_the_demo_event_prints_a_link_for_everyone(capsys):
    call_command("load_demo")
    out = capsys.readouterr().out
    event = Event.objects.get()
    assert event.characters.count() == 4
    assert out.count("/login/") == 5       # a narrator, two players, two medics
    call_command("load_demo")              # run again: same event, fresh links
    assert Event.objects.count() == 1
