"""A race lets go of personal data (race/services/privacy.py): an erased person's entry
keeps its course, punches, lives and score under their pseudonym, without their phone
number, club or names in the organisers' notes; a team's members become "Person 7F3K 1",
"Person 7F3K 2". The organisers' live screens are told at once when an organiser asked,
not at the end of a retention period. A race past its retention loses every entry's
phone number, and only that."""
from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from django.db import transaction

from fixtures import connect
from players.privacy import Scrub
from players.privacy_selectors import person_for_erasure, person_words
from race.models import Entry, LifeLoss
from race.services.privacy import race_event_purge, race_person_erase
from racekit import (balise, entry_of, entry_url, grab, make_course, make_race, post, punch,
                     register, start, view)

from test_race_live import race_messages

TEAM_PHONE, PAUL_PHONE = "06 99 88 77 66", "07 11 22 33 44"


def erase(entry, requested=True):
    """The entry's person erased by the race, as players/privacy_services.py calls it:
    with the person's words and what replaces them."""
    with transaction.atomic():
        person = person_for_erasure(event=entry.event, user=entry.character.user, requested=requested)
        race_person_erase(person=person, scrub=Scrub(person_words(person)))
    return person.pseudonym


def ok(response):
    assert response.status_code in (200, 201), response.content
    return response


def without_people(shown: dict) -> dict:
    """An organiser's view of an entry, less what names or reaches its people."""
    entry = {k: v for k, v in shown["entry"].items()
             if k not in ("name", "members", "carrier", "phone", "end_reason")}
    losses = [{k: v for k, v in loss.items() if k not in ("note", "void_reason")}
              for loss in shown["life_losses"]]
    infractions = [{k: v for k, v in i.items() if k != "note"} for i in shown["infractions"]]
    return {**shown, "entry": entry, "life_losses": losses, "infractions": infractions}


@pytest.fixture
def rescapes(enrol, organiser_api, famille, zombie_api, race, clock):
    """Alice and Benoît Roy's team, of the CO Rugles: Benoît carries the finger; they found
    31, lost a life to a zombie and were disqualified."""
    team = enrol("Les Rescapés", 201, kind="team", members=["Alice Roy", "Benoît Roy"],
                 phone=TEAM_PHONE)
    Entry.objects.filter(pk=team.pk).update(club="CO Rugles")    # as an IOF entry list gives it
    assert post(organiser_api, entry_url(team, "carrier"), carrier="Benoît Roy").status_code == 200
    start(organiser_api, team)
    clock.advance(12 * 60)
    assert punch(organiser_api, team, balise(famille, "31")).status_code == 201
    assert grab(zombie_api, race, team).status_code == 201
    assert post(organiser_api, entry_url(team, "disqualify"),
                reason="Benoît Roy a arraché le drapeau d'Alice Roy").status_code == 200
    return team


@pytest.fixture
def paul(enrol):
    return enrol("Paul Martin", 202, phone=PAUL_PHONE)


@pytest.mark.django_db
def test_an_organiser_erasing_a_team_reads_its_race_under_the_pseudonym(rescapes, paul, organiser_api):
    before = view(organiser_api, rescapes)
    other = view(organiser_api, paul)

    response = organiser_api.post(f"/api/characters/{rescapes.character_id}/erase/", {"confirm": True},
                                  format="json")

    assert response.status_code == 200, response.content
    code = response.json()["pseudonym"]
    after = view(organiser_api, rescapes)
    shown = after["entry"]
    assert (shown["name"], shown["phone"], shown["members"], shown["carrier"]) == (
        code, "", [f"{code} 1", f"{code} 2"], f"{code} 2")
    assert shown["end_reason"] == f"{code} 2 a arraché le drapeau d'{code} 1"
    assert Entry.objects.get(pk=rescapes.pk).club == ""
    # The race itself is kept: the balise found, the life lost, the status, the score.
    assert without_people(after) == without_people(before)
    assert after["found"] == 1 and after["lives"]["remaining"] == 1
    assert view(organiser_api, paul) == other


@pytest.mark.django_db
def test_the_races_own_eraser_takes_the_person_out_of_every_note_on_their_entry(
        race, famille, enrol, organiser_api, zombie_api, clock):
    lucie = enrol("Lucie Petit", 101, phone="06 12 34 56 78")
    paul = enrol("Paul Martin", 102, phone=PAUL_PHONE)
    start(organiser_api, lucie)
    clock.advance(10 * 60)
    ok(grab(zombie_api, race, lucie))
    ok(post(organiser_api, f"/api/race/life-losses/{LifeLoss.objects.get(entry=lucie).pk}/void/",
            reason="Lucie Petit avait encore son drapeau"))
    long_note = "Lucie Petit " + "x" * 288                       # 300 characters, the most
    ok(post(organiser_api, entry_url(lucie, "zone-losses"), cause="out_of_zone",
            note="Lucie Petit vue rue de la Gare"))
    ok(post(organiser_api, entry_url(lucie, "zone-losses"), cause="forbidden_path", note=long_note))
    ok(post(organiser_api, entry_url(lucie, "infractions"), kind="transport",
            note="Lucie Petit en trottinette"))
    ok(post(organiser_api, entry_url(lucie, "infractions"), kind="other", note=long_note))
    ok(post(organiser_api, entry_url(lucie, "abandon"), reason=long_note))
    ok(post(organiser_api, entry_url(paul, "infractions"), kind="other", note="Paul Martin, sans gilet"))
    other = view(organiser_api, paul)

    code = erase(lucie)

    shown = view(organiser_api, lucie)
    # A text the pseudonym makes longer than its column keeps its first 300 characters.
    cut = (f"{code} " + "x" * 288)[:300]
    assert (shown["entry"]["name"], shown["entry"]["phone"]) == (code, "")
    # A solo runner has no members and carries nobody's finger.
    assert (shown["entry"]["members"], shown["entry"]["carrier"]) == ([], "")
    assert shown["entry"]["end_reason"] == cut
    assert [(loss["note"], loss["void_reason"]) for loss in shown["life_losses"]] == [
        ("", f"{code} avait encore son drapeau"), (f"{code} vue rue de la Gare", ""), (cut, "")]
    assert [i["note"] for i in shown["infractions"]] == [f"{code} en trottinette", cut]
    assert view(organiser_api, paul) == other


@pytest.mark.django_db
def test_a_void_reason_longer_than_its_column_once_pseudonymised_keeps_300_characters(
        race, enrol, organiser_api, zombie_api):
    lucie = enrol("Lucie Petit", 101)
    start(organiser_api, lucie)
    grab(zombie_api, race, lucie)
    loss = LifeLoss.objects.get(entry=lucie)
    post(organiser_api, f"/api/race/life-losses/{loss.pk}/void/", reason="Lucie Petit " + "y" * 288)

    code = erase(lucie)

    shown = view(organiser_api, lucie)["life_losses"]
    assert [loss["void_reason"] for loss in shown] == [(f"{code} " + "y" * 288)[:300]]


# --- The organisers' live screens ---------------------------------------------------------

@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_organisers_screens_show_the_pseudonym_at_once_when_an_organiser_asked(
        clock, race, enrol, organiser_api):
    lucie = await sync_to_async(enrol)("Lucie Petit", 101, phone="06 11 22 33 44")
    organisers, connected, _ = await connect(organiser_api, f"event={race.pk}&lang=fr")
    assert connected

    code = await sync_to_async(erase)(lucie)

    entries, board = await race_messages(organisers, "entries", "leaderboard")
    shown, = entries["entries"]
    assert (shown["entry"]["id"], shown["entry"]["name"], shown["entry"]["phone"]) == (lucie.pk, code, "")
    assert [row["name"] for row in board["unranked"]] == [code]
    await organisers.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_at_the_end_of_retention_nobody_watches_and_nothing_is_sent(clock, race, enrol,
                                                                        organiser_api):
    lucie = await sync_to_async(enrol)("Lucie Petit", 101, phone="06 11 22 33 44")
    organisers, connected, _ = await connect(organiser_api, f"event={race.pk}&lang=fr")
    assert connected

    assert (await organisers.receive_json_from(timeout=5))["type"] == "event_snapshot"

    code = await sync_to_async(erase)(lucie, requested=False)

    assert await organisers.receive_nothing(timeout=0.5)
    assert (await sync_to_async(Entry.objects.get)(pk=lucie.pk)).name == code
    await organisers.disconnect()


# --- A race past its retention -------------------------------------------------------------

@pytest.mark.django_db
def test_a_race_past_its_retention_loses_every_phone_number_and_keeps_its_entries(
        clock, narrator_user, race, famille, enrol, organiser_api):
    lucie = enrol("Lucie Petit", 101, phone="06 12 34 56 78")
    enrol("Paul Martin", 102, phone=PAUL_PHONE)
    enrol("Zoé Martin", 103, phone=PAUL_PHONE)                 # one phone for two: one word
    rented = enrol("Max Roy", 104)
    Entry.objects.filter(pk=rented.pk).update(phone="")          # an IOF entry without a phone
    elsewhere = make_race(narrator_user, name="Rugles d'automne")
    kept = entry_of(register(organiser_api, elsewhere, make_course(elsewhere, narrator_user),
                             "Lucie Petit", 101, phone="06 12 34 56 78"))

    said = race_event_purge(event=race, scrub=Scrub())

    # What the journal and the free texts must no longer say: each number, blanked.
    assert said == {"06 12 34 56 78": "", PAUL_PHONE: ""}
    listed = organiser_api.get(f"/api/race/events/{race.pk}/entries/").json()["entries"]
    assert sorted((e["entry"]["name"], e["entry"]["phone"]) for e in listed) == [
        ("Lucie Petit", ""), ("Max Roy", ""), ("Paul Martin", ""), ("Zoé Martin", "")]
    assert view(organiser_api, lucie)["entry"]["finger"] == 101
    assert Entry.objects.get(pk=kept.pk).phone == "06 12 34 56 78"  # another race's, kept
