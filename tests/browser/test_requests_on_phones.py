"""Asking the organisers on real phones (GA17): a player asks, the narrator's open screen
receives the request from its live channel (no reload, no poll), answers it, and the
answer shows in the player's active effects."""
from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from effects.models import OrganiserRequest
from players.services import character_create, event_create, login_token_issue

pytestmark = pytest.mark.django_db(transaction=True)

QUESTION = "I break the old chest open with my axe"
ANSWER = "Effet : le coffre s'ouvre, votre hache est émoussée"


def test_a_player_asks_and_reads_the_narrators_answer_in_their_effects(server_url, phone):
    narrator_user = get_user_model().objects.create_user(username="mj-requests", is_staff=True)
    event = event_create(name="Le Manoir", ruleset="gn_fr", by=narrator_user, start_clock=True)
    alice = character_create(event=event, name="Alice", sheet={"combat_base": 2})
    player, narrator = phone("en"), phone("fr")
    narrator.goto(f"{server_url}/login/{login_token_issue(event=event, user=narrator_user)}")
    narrator.locator("form button").click()  # the login page's button
    panel = narrator.locator(".requests-panel")
    expect(panel).to_contain_text("Aucune demande en attente.")

    player.goto(f"{server_url}/login/{login_token_issue(event=event, user=alice.user)}")

    player.locator("form button").click()  # the login page's button
    expect(player.locator("#state-label")).to_have_text("Healthy")
    player.locator("details.ask-panel summary").click()
    player.get_by_label("Your request").fill(QUESTION)
    player.locator(".ask-panel").get_by_role("button", name="Send").click()
    expect(player.locator(".ask-panel [role=status]")).to_contain_text("Sent:")

    expect(panel.locator("article.request")).to_contain_text(QUESTION, timeout=5000)
    panel.get_by_label("Réponse à Alice").fill(ANSWER)
    panel.get_by_label("Minutes (vide : jusqu'à retrait)").fill("10")
    panel.get_by_role("button", name="Répondre").click()

    expect(player.locator(".effects")).to_contain_text(ANSWER)
    expect(panel.locator("article.request")).to_have_count(0)
    asked = OrganiserRequest.objects.get()
    assert (asked.status, asked.effect.duration_s) == ("answered", 600)
    assert player.errors == [] and narrator.errors == []
