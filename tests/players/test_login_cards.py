"""Printed cards that survive a reprint: printing never changes a login code, a card code
logs in as often as needed for as long as it is not replaced, and new codes are a
separate, confirmed act (one character or everyone)."""
from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client
from rest_framework.test import APIClient

from players.models import JournalEntry, LoginToken
from players.privacy_services import event_personal_data_purge
from players.services import characters_create

pytestmark = pytest.mark.django_db

CODE = re.compile(r'class="code">([A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4})<')


def printed_codes(narrator_api, event) -> dict[int, str]:
    """{character id: code} as the cards page prints them."""
    html = narrator_api.get(f"/events/{event.pk}/sheets/?per_page=8").content.decode()
    ids = re.findall(r'data-character="(\d+)"', html)
    return dict(zip(map(int, ids), CODE.findall(html)))


def logs_in(code: str) -> bool:
    return APIClient().post("/api/login/", {"token": code}, format="json").status_code == 200


def test_printing_twice_prints_the_same_codes(clock, event, player, medic, narrator_api):
    first = printed_codes(narrator_api, event)
    second = printed_codes(narrator_api, event)

    assert set(first) == {player.pk, medic.pk}
    assert first == second
    assert all(logs_in(code) for code in first.values())


def test_a_card_code_logs_in_again_and_again(clock, event, player, narrator_api):
    code = printed_codes(narrator_api, event)[player.pk]
    browser = Client()
    assert browser.post(f"/login/{code.replace('-', '')}").status_code == 302
    assert browser.get("/api/me/").json()["characters"][0]["id"] == player.pk
    # A new phone, the same card; typed in lower case with spaces, as a player might.
    assert logs_in(code.lower().replace("-", " "))


def test_a_card_code_still_logs_in_60_days_after_printing(clock, event, player, narrator_api):
    code = printed_codes(narrator_api, event)[player.pk]
    clock.advance(timedelta(days=60).total_seconds())
    assert logs_in(code)


def test_a_new_code_for_one_character_changes_only_that_one(clock, event, player, medic,
                                                            other_player, narrator_api):
    before = printed_codes(narrator_api, event)

    response = narrator_api.post(f"/events/{event.pk}/sheets/new-codes/",
                                 {"character": player.pk, "confirm": "yes"})

    assert response.status_code == 302
    after = printed_codes(narrator_api, event)
    assert after[player.pk] != before[player.pk]
    assert {k: v for k, v in after.items() if k != player.pk} == \
        {k: v for k, v in before.items() if k != player.pk}
    assert not logs_in(before[player.pk])
    assert logs_in(after[player.pk]) and logs_in(before[medic.pk])
    assert JournalEntry.objects.filter(what="card_code_replaced", character=player).count() == 1
    page = narrator_api.get(response["Location"]).content.decode()
    assert "New code for Alice" in page and page.count('class="card"') == 1


def test_new_codes_need_the_box_ticked(clock, event, player, narrator_api):
    before = printed_codes(narrator_api, event)
    for body in ({"character": player.pk}, {"character": "all"}):
        response = narrator_api.post(f"/events/{event.pk}/sheets/new-codes/", body)
        assert response.status_code == 400
        assert "tick the box" in response.content.decode()
    assert printed_codes(narrator_api, event) == before


def test_new_codes_for_everyone_replace_every_card(clock, event, player, medic, narrator_api):
    before = printed_codes(narrator_api, event)
    response = narrator_api.post(f"/events/{event.pk}/sheets/new-codes/",
                                 {"character": "all", "confirm": "yes"})
    assert response.status_code == 302
    after = printed_codes(narrator_api, event)
    assert set(after) == set(before) and not set(after.values()) & set(before.values())
    assert not any(logs_in(code) for code in before.values())
    assert all(logs_in(code) for code in after.values())


def test_a_player_cannot_print_or_replace_codes(clock, event, player, player_api):
    assert player_api.get(f"/events/{event.pk}/sheets/").status_code == 404
    assert player_api.get(f"/events/{event.pk}/sheets.pdf").status_code == 404
    assert player_api.post(f"/events/{event.pk}/sheets/new-codes/",
                           {"character": "all", "confirm": "yes"}).status_code == 404
    assert not LoginToken.objects.filter(kind=LoginToken.CARD).exists()


def test_a_one_time_link_does_not_revoke_the_card(clock, event, player, narrator_api):
    code = printed_codes(narrator_api, event)[player.pk]
    assert narrator_api.post(f"/api/characters/{player.pk}/login-link/").status_code == 201
    assert logs_in(code)


def test_the_purge_of_personal_data_ends_the_card_codes(clock, event, player, narrator_api):
    code = printed_codes(narrator_api, event)[player.pk]
    clock.advance(timedelta(days=event.retention_days + 1).total_seconds())
    assert event_personal_data_purge(event_id=event.pk, now=clock.now)
    assert not logs_in(code)


def test_only_the_hash_of_a_card_code_is_stored(clock, event, player, narrator_api):
    code = printed_codes(narrator_api, event)[player.pk].replace("-", "")
    token = LoginToken.objects.get(kind=LoginToken.CARD, user=player.user)
    assert code not in (token.token_hash, token.salt)
    for line in JournalEntry.objects.all():
        assert code not in str(line.detail)


def test_characters_imported_later_get_a_code_and_the_others_keep_theirs(clock, event, player,
                                                                        narrator_user, narrator_api):
    before = printed_codes(narrator_api, event)
    [late] = characters_create(event=event, rows=[{"name": "Zoé", "sheet": {}, "kits": {}, "team": None}],
                               by=narrator_user)
    after = printed_codes(narrator_api, event)
    assert after[player.pk] == before[player.pk] and logs_in(after[late.pk])
