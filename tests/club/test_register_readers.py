"""The register belongs to a club: its members' phone numbers, e-mails, licence numbers
and sanction reasons are read by the organisers and referees of that club's events (and
superusers), and by a member's own player for their own history. The narrator and the
referee of an unrelated event on the same server find nobody: 404 (as if unknown) or an
empty search, and no answer carries any of it, from the club's event or from their own
desk."""
from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model

from club.services.chrony import chrony_check_record, replica_register
from club.services.register import member_check_in, member_create
from club.services.sanctions import sanction_record
from fixtures import client_for, fingerprint, game, referee_user  # noqa: F401
from players.models import Membership
from players.services import event_create

pytestmark = pytest.mark.django_db

KARIM = {"name": "Karim Benali", "nickname": "Kaïman", "phone": "+33 6 12 34 56 78",
         "email": "karim.benali@example.org", "licence_number": "RAT-0042"}
REASON = "a insulté l'arbitre du poste 3"
# Everything of Karim's that only his club reads.
PRIVATE = [KARIM["name"], KARIM["nickname"], KARIM["phone"], KARIM["email"],
           KARIM["licence_number"], REASON]

ROLES = ("organiser", "referee", "superuser", "own_player", "stranger_narrator",
         "stranger_referee")
STRANGERS = ("stranger_narrator", "stranger_referee")


@pytest.fixture
def world(game, narrator_user, referee_user):
    """Karim on the register of the club of `game` (checked in, a sanction, a replica that
    passed the chrony); the Sangliers' day, an unrelated event with its own register,
    its narrator and its referee."""
    karim = member_create(event=game, by=narrator_user, **KARIM)
    character, _ = member_check_in(event=game, member=karim, by=narrator_user)
    warning = sanction_record(event=game, member=karim, kind="warning", reason=REASON,
                              by=referee_user)
    replica = replica_register(event=game, member=karim, label="M4 CQB", type="rifle",
                               calibre_mm=6, by=narrator_user)
    chrony_check_record(replica=replica, kind="check_in", bb_weight_g=0.2, speed_mps=100,
                        by=narrator_user)
    users = get_user_model().objects
    stranger = users.create_user(username="orga-sangliers", is_staff=True)
    sangliers = event_create(name="Journée des Sangliers", ruleset="airsoft_rats",
                             by=stranger, start_clock=True)
    stranger_referee = users.create_user(username="arbitre-sangliers")
    Membership.objects.create(event=sangliers, user=stranger_referee, role=Membership.REFEREE)
    member_create(event=sangliers, by=stranger, name="Aude Marchal", phone="+33 7 00 00 00 01",
                  licence_number="SNG-0001")
    people = {"organiser": narrator_user, "referee": referee_user,
              "superuser": users.create_user(username="root", is_superuser=True),
              "own_player": character.user,
              "stranger_narrator": stranger, "stranger_referee": stranger_referee}
    ids = {"game": game.pk, "sangliers": sangliers.pk, "karim": karim.pk,
           "sanction": warning.pk, "replica": replica.pk}
    return people, ids


def roles(organiser, referee, superuser=None, own_player=404, strangers=404):
    return {"organiser": organiser, "referee": referee,
            "superuser": organiser if superuser is None else superuser,
            "own_player": own_player, "stranger_narrator": strangers,
            "stranger_referee": strangers}


# (what, method, url, body, status by role, what the club's reader sees in the answer)
ROWS = [
    # The club's own event, member, sanction and replica.
    ("search the club's event", "get", "/api/events/{game}/members/?q=karim", None,
     roles(200, 404), [KARIM["phone"], KARIM["email"], KARIM["licence_number"]]),
    ("member's history", "get", "/api/members/{karim}/sanctions/", None,
     roles(200, 200, own_player=200), [KARIM["licence_number"], REASON]),
    ("event's sanctions", "get", "/api/events/{game}/sanctions/", None,
     roles(200, 200), [KARIM["name"], REASON]),
    ("event's replicas", "get", "/api/events/{game}/replicas/", None,
     roles(200, 200), [KARIM["name"], KARIM["nickname"]]),
    ("pass label", "get", "/replicas/{replica}/label/", None, roles(200, 200), [KARIM["name"]]),
    ("check in at the club's event", "post", "/api/events/{game}/check-in/",
     {"member": "{karim}"}, roles(200, 404), [KARIM["phone"]]),
    ("sanction at the club's event", "post", "/api/events/{game}/sanctions/",
     {"member": "{karim}", "kind": "warning", "reason": "hors zone"}, roles(201, 201),
     [KARIM["licence_number"]]),
    ("replica at the club's event", "post", "/api/events/{game}/replicas/",
     {"member": "{karim}", "label": "Glock", "type": "pistol", "calibre_mm": 6},
     roles(201, 201), [KARIM["nickname"]]),
    ("chrony control", "post", "/api/replicas/{replica}/checks/",
     {"kind": "recheck", "bb_weight_g": 0.2, "speed_mps": 120}, roles(201, 201),
     [KARIM["licence_number"]]),
    ("revoke", "post", "/api/sanctions/{sanction}/revoke/", {"reason": "le comité annule"},
     roles(200, 403), [REASON]),
    # The stranger's own desk, naming Karim by his id or his licence.
    ("search the stranger's desk", "get", "/api/events/{sangliers}/members/?q=", None,
     {**roles(404, 404, superuser=200), "stranger_narrator": 200}, []),
    ("check in at the stranger's desk", "post", "/api/events/{sangliers}/check-in/",
     {"member": "{karim}"}, roles(404, 404), []),
    ("check in by licence at the stranger's desk", "post", "/api/events/{sangliers}/check-in/",
     {"member": "rat-0042"}, roles(404, 404), []),
    ("sanction at the stranger's desk", "post", "/api/events/{sangliers}/sanctions/",
     {"member": "{karim}", "kind": "warning", "reason": "curiosité"}, roles(404, 404), []),
    ("sanction by licence at the stranger's desk", "post", "/api/events/{sangliers}/sanctions/",
     {"member": "RAT-0042", "kind": "warning", "reason": "curiosité"}, roles(404, 404), []),
    ("replica at the stranger's desk", "post", "/api/events/{sangliers}/replicas/",
     {"member": "{karim}", "label": "Glock", "type": "pistol", "calibre_mm": 6},
     roles(404, 404), []),
]


def _fill(body, ids):
    if body is None:
        return None
    # "{karim}" is the member's id, sent as a JSON number.
    return {key: ids[value[1:-1]] if isinstance(value, str) and value.startswith("{") else value
            for key, value in body.items()}


def _text(response) -> str:
    text = response.content.decode()
    if response.get("Content-Type", "").startswith("application/json"):
        text += json.dumps(response.json(), ensure_ascii=False)
    return text


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("what,method,url,body,expected,shows", ROWS,
                         ids=[row[0] for row in ROWS])
def test_who_reads_the_clubs_register(role, what, method, url, body, expected, shows, world):
    people, ids = world
    api = client_for(people[role])
    sent = _fill(body, ids)
    before = fingerprint()

    response = (api.get(url.format(**ids)) if method == "get"
                else api.post(url.format(**ids), sent, format="json"))

    assert response.status_code == expected[role], response.content[:300]
    text = _text(response)
    if role in STRANGERS or expected[role] == 404:
        typed = json.dumps(sent, ensure_ascii=False).upper() if sent else ""
        leaked = [p for p in PRIVATE if p in text and p.upper() not in typed]
        assert leaked == [], f"{role} read {leaked}"
    if expected[role] >= 400:
        assert fingerprint() == before
    elif role not in STRANGERS:
        assert [s for s in shows if s not in text] == []
    if what.startswith("search the stranger") and expected[role] == 200:
        assert [m["name"] for m in response.json()["members"]] == ["Aude Marchal"]
