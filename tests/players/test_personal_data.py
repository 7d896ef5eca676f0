"""Personal data has an end: an organiser exports everything the event holds on one person,
and erases it; the journal keeps the game under a pseudonym (docs/operations.md,
"Personal data")."""
from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from club.services.chrony import replica_register
from club.services.sanctions import sanction_record
from effects.services.items import item_create
from effects.services.requests import request_ask
from fixtures import act, check_in, client_for, database_text, game, new_member  # noqa: F401
from health.models import HealthState
from players.models import Character, JournalEntry, LoginToken
from players.services import character_create, event_create, login_token_issue
from push.models import PushSubscription

pytestmark = pytest.mark.django_db

KARIM = {"name": "Karim Benali", "licence": "RAT-0042", "nickname": "Kaïman"}
KARIM_PHONE, KARIM_EMAIL = "+33 6 12 34 56 78", "karim.benali@example.org"
DENIS = {"name": "Denis Morel", "licence": "RAT-0077", "nickname": "Dédé"}
ENDPOINT = "https://push.example.org/send/karim-phone"


def _subscribe(user, endpoint):
    return PushSubscription.objects.create(user=user, endpoint=endpoint, p256dh="BKey" + "A" * 60,
                                           auth="AuthSecret16byte")


@pytest.fixture
def people(game, narrator_user, narrator_api):
    """Karim and Denis, club members checked in to the airsoft game, each with an
    account, a login link, a push subscription, a sanction, and what they did in the
    game; Karim also has a replica, a request to the organisers, notes on his sheet and
    an envelope that names him."""
    found = {}
    for who, phone in ((KARIM, KARIM_PHONE), (DENIS, "+33 7 00 00 00 01")):
        member = new_member(game, narrator_user, **who)
        member.phone = phone
        member.save(update_fields=["phone"])
        checked = check_in(narrator_api, game, who["licence"], team="Rouges")
        assert checked.status_code == 201, checked.content
        character = Character.objects.get(pk=checked.json()["character"]["id"])
        found[who["name"]] = {"member": member, "character": character}
    karim = found["Karim Benali"]["character"]
    denis = found["Denis Morel"]["character"]
    user = karim.user
    user.first_name, user.last_name, user.email = "Karim", "Benali", KARIM_EMAIL
    user.save()
    Character.objects.filter(pk=karim.pk).update(
        sheet={"notes": "allergique aux piqûres de guêpe", "skills": {}})
    link = login_token_issue(event=game, user=user, by=narrator_user)
    login_token_issue(event=game, user=denis.user, by=narrator_user)
    _subscribe(user, ENDPOINT)
    _subscribe(denis.user, "https://push.example.org/send/denis-phone")
    sanction_record(event=game, member=found["Karim Benali"]["member"], kind="sanction_out",
                    reason="Karim Benali a tiré à bout portant", by=narrator_user)
    sanction_record(event=game, member=found["Denis Morel"]["member"], kind="warning",
                    reason="Dédé n'a pas crié out", by=narrator_user)
    replica_register(event=game, member=found["Karim Benali"]["member"], label="M4 de Kaïman",
                     type="rifle", calibre_mm=6, by=narrator_user)
    request_ask(character=karim, text="Kaïman force le cadenas du bunker", by=user)
    item_create(event=game, by=narrator_user, name="Lettre pour Kaïman", kind="envelope",
                secret_text="Karim Benali, rejoins les Bleus à la croisée")
    karim_api, denis_api = client_for(user), client_for(denis.user)
    assert act(karim_api, karim, "arrived_at_spawn").status_code == 200
    assert act(denis_api, denis, "respawn").status_code == 200
    assert act(denis_api, denis, "hit").status_code == 200
    return {"karim": karim, "denis": denis, "link": link, "karim_api": karim_api,
            "username": user.get_username(), "denis_username": denis.user.get_username(),
            **found}


def karim_strings(people) -> list[str]:
    return ["Karim", "Benali", "Kaïman", KARIM["licence"], KARIM_PHONE, KARIM_EMAIL,
            people["username"], "allergique", people["link"]]


def denis_strings(people) -> list[str]:
    return ["Denis", "Morel", "Dédé", DENIS["licence"], "+33 7 00 00 00 01", "denis-phone",
            people["denis_username"]]


def journal_facts(event) -> list:
    return list(JournalEntry.objects.filter(event=event).exclude(kind="privacy").order_by("id")
                .values_list("id", "kind", "what", "at", "game_s", "character_id", "actor_id",
                             "before__status", "after__status"))


# --- export ---------------------------------------------------------------------------------

def test_the_export_holds_everything_on_the_person_and_nothing_of_another(game, people,
                                                                         narrator_api):
    karim = people["karim"]

    response = narrator_api.post(f"/api/characters/{karim.pk}/export/", {}, format="json")

    assert response.status_code == 200, response.content
    assert "attachment" in response["Content-Disposition"]
    document = response.json()
    assert document["account"]["email"] == KARIM_EMAIL
    assert document["account"]["username"] == people["username"]
    character, = document["characters"]
    assert character["name"] == "Karim Benali"
    assert character["sheet"]["notes"] == "allergique aux piqûres de guêpe"
    assert document["memberships"] == [{"event": game.pk, "role": "player"}]
    token, = document["login_tokens"]
    assert set(token) == {"event", "created_at", "expires_at", "used_at"}
    member, = document["club_members"]
    assert (member["phone"], member["licence_number"], member["nickname"]) == (
        KARIM_PHONE, "RAT-0042", "Kaïman")
    assert [c["character"] for c in member["check_ins"]] == [karim.pk]
    assert [s["kind"] for s in member["sanctions"]] == ["sanction_out"]
    assert member["replicas"][0]["label"] == "M4 de Kaïman"
    subscription, = document["push_subscriptions"]
    assert subscription["endpoint"] == ENDPOINT and "keys" not in subscription
    assert [r["text"] for r in document["requests"]] == ["Kaïman force le cadenas du bunker"]
    said = {(line["kind"], line["what"]) for line in document["journal"]}
    assert {("club", "member_registered"), ("club", "checked_in"), ("sanction", "sanction_out"),
            ("login", "link_issued"), ("request", "asked"), ("action", "arrived_at_spawn")} <= said
    text = response.content.decode()
    for secret in ("BKey", "AuthSecret16byte", people["link"],
                   LoginToken.objects.filter(user=karim.user).get().token_hash):
        assert secret not in text
    for other in denis_strings(people):
        assert other not in text, other
    # Who exported whom, in the journal.
    line = JournalEntry.objects.filter(event=game, kind="privacy").get()
    assert (line.what, line.character_id, line.actor_label) == ("exported", karim.pk, "narrator")


# --- erase ------------------------------------------------------------------------------------

def test_an_erased_person_is_nowhere_in_the_database_and_the_game_stays(game, people,
                                                                        narrator_api):
    karim, denis = people["karim"], people["denis"]
    facts = journal_facts(game)
    states = {h.pk: (h.status, h.values) for h in HealthState.objects.all()}
    assert all(word in database_text() for word in karim_strings(people)[:-1])

    response = narrator_api.post(f"/api/characters/{karim.pk}/erase/", {"confirm": True},
                                 format="json")

    assert response.status_code == 200, response.content
    erased = response.json()
    pseudonym = erased["pseudonym"]
    assert pseudonym.startswith("Personne ") and erased["account"] == "erased"
    text = database_text()
    for word in karim_strings(people):
        assert word not in text, word
    # The game is the same: every line, in order, at the same instants, with its states.
    assert journal_facts(game) == facts
    assert {h.pk: (h.status, h.values) for h in HealthState.objects.all()} == states
    karim.refresh_from_db()
    assert karim.name == pseudonym and karim.sheet == {"skills": {}}
    line = JournalEntry.objects.get(event=game, kind="club", what="checked_in", character=karim)
    assert line.detail["licence"] == pseudonym
    sanction_line = JournalEntry.objects.get(event=game, kind="sanction", what="sanction_out")
    assert sanction_line.detail["reason"] == f"{pseudonym} a tiré à bout portant"
    assert all(line.actor_label == pseudonym
               for line in JournalEntry.objects.filter(actor=karim.user))
    # Denis is untouched.
    denis.refresh_from_db()
    assert denis.name == "Denis Morel"
    assert people["Denis Morel"]["member"].__class__.objects.get(
        pk=people["Denis Morel"]["member"].pk).phone == "+33 7 00 00 00 01"
    assert PushSubscription.objects.filter(user=denis.user).exists()
    # Karim can no longer log in: neither his session nor his link.
    ended = people["karim_api"].get("/api/me/")
    assert ended.status_code == 401 and ended.json()["error"] == "logged_out"
    assert APIClient().post("/api/login/", {"token": people["link"]},
                            format="json").json()["error"] == "invalid_login"
    assert not PushSubscription.objects.filter(user=karim.user).exists()
    assert not LoginToken.objects.filter(user=karim.user).exists()
    privacy, = JournalEntry.objects.filter(event=game, kind="privacy")
    assert (privacy.what, privacy.actor_label, privacy.detail["pseudonym"]) == (
        "erased", "narrator", pseudonym)


def test_erasing_twice_answers_the_same_and_changes_nothing(game, people, narrator_api):
    url = f"/api/characters/{people['karim'].pk}/erase/"
    first = narrator_api.post(url, {"confirm": True}, format="json").json()
    text, lines = database_text(), JournalEntry.objects.count()

    again = narrator_api.post(url, {"confirm": True}, format="json")

    assert again.status_code == 200
    second = again.json()
    first.pop("server_time"), second.pop("server_time")
    assert second == first
    assert JournalEntry.objects.count() == lines
    assert database_text() == text


def test_an_erasure_retried_with_its_key_is_replayed(game, people, narrator_api):
    url, key = f"/api/characters/{people['karim'].pk}/erase/", "erase-karim-1"
    first = narrator_api.post(url, {"confirm": True}, format="json", HTTP_IDEMPOTENCY_KEY=key)
    lines = JournalEntry.objects.count()

    again = narrator_api.post(url, {"confirm": True}, format="json", HTTP_IDEMPOTENCY_KEY=key)

    assert again.status_code == first.status_code == 200
    assert again["Idempotent-Replayed"] == "true"
    assert again.json()["pseudonym"] == first.json()["pseudonym"]
    assert JournalEntry.objects.count() == lines


def test_the_pseudonym_is_stable_for_one_person_and_differs_between_two(game, people,
                                                                        narrator_api):
    karim, denis = people["karim"], people["denis"]
    one = narrator_api.post(f"/api/characters/{karim.pk}/erase/", {"confirm": True},
                            format="json").json()["pseudonym"]
    two = narrator_api.post(f"/api/characters/{denis.pk}/erase/", {"confirm": True},
                            format="json").json()["pseudonym"]
    assert one != two
    for character, pseudonym in ((karim, one), (denis, two)):
        lines = JournalEntry.objects.filter(event=game, character=character).exclude(kind="privacy")
        assert {line.detail.get("licence") for line in lines if line.kind == "club"} == {pseudonym}
        assert {line.actor_label for line in lines if line.actor_id == character.user_id} == {pseudonym}
    sanctions = JournalEntry.objects.filter(event=game, kind="sanction").order_by("id")
    assert [line.detail["reason"] for line in sanctions if "reason" in line.detail] == [
        f"{one} a tiré à bout portant", f"{two} n'a pas crié out"]


@pytest.mark.parametrize("lang, words", [("fr", "ne peut pas être annulé"),
                                         ("es", "no se puede deshacer"),
                                         ("en", "cannot be undone")])
def test_an_erasure_must_be_confirmed(lang, words, game, people, narrator_user):
    lines = JournalEntry.objects.count()
    response = client_for(narrator_user, lang).post(
        f"/api/characters/{people['karim'].pk}/erase/", {}, format="json")

    assert response.status_code == 400
    assert response.json()["error"] == "erase_not_confirmed"
    assert words in response.json()["detail"] and "Karim Benali" in response.json()["detail"]
    assert JournalEntry.objects.count() == lines
    assert Character.objects.get(pk=people["karim"].pk).name == "Karim Benali"


# --- who may ------------------------------------------------------------------------------------

@pytest.fixture
def stranger_api(clock):
    stranger = get_user_model().objects.create_user(username="orga-ailleurs", is_staff=True)
    own = event_create(name="Autre partie", ruleset="airsoft_rats", by=stranger)
    character_create(event=own, name="Zoé", by=stranger)
    return client_for(stranger)


@pytest.mark.parametrize("method, path, body", [
    ("post", "/api/characters/{karim}/export/", {}),
    ("post", "/api/characters/{karim}/erase/", {"confirm": True}),
    ("get", "/api/events/{game}/personal-data/", None),
    ("post", "/api/events/{game}/personal-data/", {"retention_days": 1}),
])
def test_only_the_events_organisers_export_or_erase(method, path, body, game, people,
                                                    stranger_api):
    url = path.format(karim=people["karim"].pk, game=game.pk)
    lines = JournalEntry.objects.count()
    denis_api = client_for(people["denis"].user)
    calls = [(stranger_api, 404), (denis_api, 404), (APIClient(), 403)]
    if "characters" in path:
        calls.append((people["karim_api"], 403))  # his own: organisers answer for the data
    for api, status in calls:
        response = (api.get(url) if method == "get" else api.post(url, body, format="json"))
        assert response.status_code == status, (url, response.content)
        assert "Karim" not in response.content.decode()
    assert JournalEntry.objects.count() == lines
    assert Character.objects.get(pk=people["karim"].pk).name == "Karim Benali"
    game.refresh_from_db()
    assert game.retention_days == 90
