"""Fights on two phones: a duel challenged by code, confirmed on the other phone, each
side reading only its own result; the narrator sets a character's traits and reads the
event's rule options."""
from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from browser_helpers import screenshot
from players.services import character_create, event_create, login_token_issue

pytestmark = pytest.mark.django_db(transaction=True)


def make_duellists(server_url: str):
    narrator = get_user_model().objects.create_user(username="mj-duel", is_staff=True)
    event = event_create(name="La Taverne", ruleset="gn_fr", by=narrator, start_clock=True)
    alice = character_create(event=event, name="Alice", sheet={"combat_base": 2})
    denis = character_create(event=event, name="Denis", sheet={"combat_base": 3})
    links = {who: f"{server_url}/login/{login_token_issue(event=event, user=user)}"
             for who, user in (("alice", alice.user), ("denis", denis.user), ("narrator", narrator))}
    return event, alice, denis, links


def test_a_duel_challenged_on_one_phone_and_confirmed_on_the_other(server_url, phone):
    event, alice, denis, links = make_duellists(server_url)
    challenger, defender = phone("en"), phone("en")
    challenger.goto(links["alice"])
    challenger.locator("form button").click()  # the login page's button
    defender.goto(links["denis"])
    defender.locator("form button").click()  # the login page's button
    expect(defender.locator("#state-label")).to_have_text("Healthy")

    challenger.locator("details.duel summary").click()
    challenger.get_by_label("Opponent's code").fill(denis.code)
    challenger.get_by_role("button", name="Challenge").click()
    expect(challenger.locator(".fights")).to_contain_text("waiting for Denis")

    expect(defender.locator(".fights")).to_contain_text("Alice challenges you to a duel")
    screenshot(defender, "duel-challenge-en")
    defender.get_by_role("button", name="Fight", exact=True).click()

    expect(challenger.locator(".fights")).to_contain_text("Duel against Denis: lost")
    expect(challenger.locator("#state-label")).to_have_text("Tired")
    expect(defender.locator(".fights")).to_contain_text("Duel against Alice: won")
    expect(defender.locator(".points")).to_contain_text("2 / 3")
    expect(defender.locator(".points .recovers")).to_contain_text("all back in")
    # Alice's phone never shows Denis's score.
    expect(challenger.locator("body")).not_to_contain_text("/ 3")
    screenshot(defender, "duel-won-en")
    assert challenger.errors == [] and defender.errors == []


def test_the_narrator_sets_traits_the_player_reads_and_sees_the_rule_options(server_url, phone):
    event, alice, denis, links = make_duellists(server_url)
    player, narrator = phone("fr"), phone("fr")
    player.goto(links["alice"])
    player.locator("form button").click()  # the login page's button
    narrator.goto(links["narrator"])
    narrator.locator("form button").click()  # the login page's button
    narrator.locator(".char-row", has_text="Alice").get_by_role("checkbox").check()
    narrator.get_by_role("button", name="Envoyer un effet").click()   # the sheet: one character's traits
    narrator.get_by_label("Humeur").fill("3")
    narrator.get_by_label("Empathie").fill("-1")
    narrator.locator("form.psych button").click()
    expect(player.locator(".traits")).to_contain_text("Humeur 3 · Empathie -1")

    narrator.get_by_role("button", name="Fermer").click()
    narrator.locator("details.options-panel summary").click()
    expect(narrator.locator(".options")).to_contain_text("union_window_s")
    expect(narrator.locator(".options")).to_contain_text("inert_end")
    assert player.errors == [] and narrator.errors == []
