"""The shared test fixtures and helpers: API calls as a phone makes them, Septenario
characters and gear, the airsoft club register, a race, and a fingerprint of every table
(to check that a refused request changed nothing)."""
from __future__ import annotations

from datetime import datetime, timezone as dt_timezone

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from club.models import ChronyCheck, ClubEvent, Member, Replica, Sanction
from club.services.clubs import club_event_attach
from club.services.register import member_create
from common.models import IdempotencyRecord
from effects.models import Effect, Item, OrganiserRequest
from health.models import HealthState, Treatment
from players.models import Character, Event, JournalEntry, LoginToken, Membership, Team
from players.services import character_create, event_create
from push.models import PushSubscription
from race.models import Checkpoint, LifeLoss
from race.services.courses import checkpoint_create, course_create, course_points_confirm
from race.services.entries import entry_gear_check, entry_register
from race.services.lives import grab_record
from race.services.running import entry_finish, entry_start
from schedule.models import Game
from wire import ConformingClient


# --- API helpers --------------------------------------------------------------
START = datetime(2026, 6, 6, 20, 0, 0, tzinfo=dt_timezone.utc)

MEDIC_SHEET = {"combat_base": 2, "skills": {"first_aid": "novice", "surgery": "expert",
                                            "metabolic_analysis": True}}


class Clock:
    """A controlled wall clock: `clock.advance(seconds)` moves every reader of the time."""

    def __init__(self, traveller):
        self._traveller = traveller
        self.now = START

    def advance(self, seconds: float) -> None:
        self._traveller.shift(seconds)
        from datetime import timedelta
        self.now = self.now + timedelta(seconds=seconds)


def client_for(user, lang: str = "en") -> APIClient:
    """Signed in; every answer it reads is checked against its OpenAPI schema (tests/wire.py)."""
    client = ConformingClient(HTTP_ACCEPT_LANGUAGE=lang)
    client.force_login(user)
    return client


def call(api, method: str, url: str, data=None):
    """A request as a phone makes it: a read, or a write with a JSON body."""
    if method == "get":
        return api.get(url)
    return getattr(api, method)(url, data if data is not None else {}, format="json")


def act(api, character, action, key=None, **params):
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    return api.post(f"/api/characters/{character.pk}/actions/",
                    {"action": action, "params": params}, format="json", **headers)


def snapshot(api, character):
    response = api.get(f"/api/characters/{character.pk}/")
    assert response.status_code == 200, response.content
    return response.json()


def start_treatment(api, medic, patient, action, key=None, **params):
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    return api.post(f"/api/characters/{medic.pk}/treatments/",
                    {"patient_code": patient.code, "action": action, "params": params},
                    format="json", **headers)


def comparable(snapshot: dict) -> dict:
    """A snapshot without what changes with every read (clock readings, remaining seconds,
    and the effect ids a pushed effect does not carry)."""
    import json
    clean = json.loads(json.dumps(snapshot))
    clean.pop("server_time", None)
    clean.get("clock", {}).pop("game_time_s", None)
    for timer in clean.get("timers", []) + ([clean["next"]] if clean.get("next") else []):
        timer.pop("remaining_s", None)
    for effect in clean.get("effects", []):
        effect.pop("remaining_s", None)
        effect.pop("id", None)
    return clean



# --- a phone's websocket -----------------------------------------------------
async def connect(api, query: str, origin: bytes = b"http://testserver"):
    """A phone's websocket, with the session of `api` (None: anonymous)."""
    from channels.testing import WebsocketCommunicator

    from config.asgi import application
    headers = [(b"origin", origin), (b"host", b"testserver")]
    if api is not None and "sessionid" in api.cookies:
        headers.append((b"cookie", f"sessionid={api.cookies['sessionid'].value}".encode()))
    phone = WebsocketCommunicator(application, f"/ws/live/?{query}", headers=headers)
    connected, code = await phone.connect(timeout=5)
    return phone, connected, code


async def next_snapshot(phone) -> dict:
    message = await phone.receive_json_from(timeout=5)
    assert message["type"] == "snapshot", message
    assert isinstance(message["server_time"], float)
    return message["snapshot"]


# --- Septenario characters and gear -------------------------------------------
SHEET = {"trauma": 3, "coraje": 2}


def septenario_event(narrator_user, **options):
    return event_create(name="Septenario", ruleset="septenario_es", language="es",
                        options=options, by=narrator_user, start_clock=True)


def personaje(event, narrator_user, name="Lucía", **sheet):
    return character_create(event=event, name=name, sheet={**SHEET, **sheet}, by=narrator_user)


def create_item(api, event, **body) -> dict:
    response = api.post(f"/api/events/{event.pk}/items/", {"kind": "tag", **body},
                        format="json")
    assert response.status_code == 201, response.content
    return response.json()


def carry(api, character, code, key=None, verb="carry"):
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    return api.post(f"/api/characters/{character.pk}/items/{code}/{verb}/", {}, format="json",
                    **headers)


def drop(api, character, code, key=None):
    return carry(api, character, code, key, verb="drop")



# --- the airsoft club register ------------------------------------------------
@pytest.fixture
def game(clock, narrator_user):
    return event_create(name="Partie du samedi", ruleset="airsoft_rats", language="fr",
                        by=narrator_user, start_clock=True)


@pytest.fixture
def referee_user(game):
    user = get_user_model().objects.create_user(username="arbitre")
    Membership.objects.create(event=game, user=user, role=Membership.REFEREE)
    return user


@pytest.fixture
def referee_api(referee_user):
    return client_for(referee_user)


def new_member(game, by, name="Karim Benali", licence="rat-0042", nickname="Kaïman"):
    return member_create(event=game, by=by, name=name, nickname=nickname,
                         phone="+33 6 12 34 56 78", licence_number=licence)


@pytest.fixture
def member(game, narrator_user):
    return new_member(game, narrator_user)


def same_club(event, as_event, by):
    """`event`'s desk uses the club of `as_event` (which its first member gave one)."""
    return club_event_attach(club=as_event.club_link.club, event=event, by=by)


def check_in(api, game, member_ref, team=None, key=None):
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    body = {"member": member_ref, **({"team": team} if team else {})}
    return api.post(f"/api/events/{game.pk}/check-in/", body, format="json", **headers)


def sanction(api, game, member_ref=None, key=None, **body):
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    if member_ref is not None:
        body["member"] = member_ref
    body.setdefault("reason", "n'a pas annoncé sa touche")
    return api.post(f"/api/events/{game.pk}/sanctions/", body, format="json", **headers)


def register_world(event, by, character) -> dict:
    """For the route × role matrix (test_route_matrix): a member who checked in as
    `character`, a warning on the register, and a replica that passed the chrony."""
    from club.services.chrony import chrony_check_record, replica_register
    from club.services.sanctions import sanction_record
    from club.models import CheckIn

    rat = new_member(event, by, name="Alice Martin", licence="RAT-0001", nickname="")
    CheckIn.objects.create(member=rat, character=character, event=event)
    warning = sanction_record(event=event, member=rat, kind="warning", reason="pas crié out",
                              by=by)
    replica = replica_register(event=event, member=rat, label="M4", type="rifle", calibre_mm=6,
                               by=by)
    chrony_check_record(replica=replica, kind="check_in", bb_weight_g=0.2, speed_mps=100, by=by)
    return {"member": rat.pk, "sanction": warning.pk, "replica": replica.pk,
            "club": rat.club_id}



# --- a race for the route matrix ----------------------------------------------
# What each {placeholder} of a race row is when only its route is checked.
RACE_PLACEHOLDERS = {"race": 1, "race_course": 1, "race_entry": 1, "ready_entry": 1,
                     "finished_entry": 1, "race_loss": 1, "bib": "ABC", "qr31": "RBN-x",
                     "alice_finger": 1}
CONFIRMED = ["not_fast_running", "not_near_checkpoint", "no_contact", "not_on_open_road",
             "target_not_panicking"]


def race_world(narrator_user, player, other_player) -> dict:
    race = event_create(name="Rugles by Night", ruleset="zombie_race", by=narrator_user,
                        start_clock=True)
    course = course_create(event=race, name="famille", by=narrator_user)
    for code in ("31", "32", "33", "34"):
        checkpoint_create(course=course, code=code, by=narrator_user)
    course_points_confirm(course=course, points_per_checkpoint=20, by=narrator_user)
    Membership.objects.create(event=race, user=other_player.user, role=Membership.ZOMBIE)

    def entry(name, finger, **kwargs):
        made = entry_register(event=race, course=course, name=name, finger=finger,
                              phone="0612345678", by=narrator_user, **kwargs)
        return entry_gear_check(entry=made, gear={"vest": True, "light": True, "phone": True},
                                by=narrator_user)

    runners = entry("Les Rescapés", 11, kind="team", members=["Alice", "Ben"])
    # Alice's own login is the team's: her phone reads and punches for it.
    Character.objects.filter(pk=runners.character_id).update(user=player.user)
    Membership.objects.create(event=race, user=player.user, role=Membership.PLAYER)
    entry_start(entry=runners, by=narrator_user)
    grab_record(entry=runners, by=other_player.user, confirmations=CONFIRMED)
    ready = entry("Prêts", 12, kind="solo")
    finished = entry("Arrivés", 13, kind="solo")
    entry_start(entry=finished, by=narrator_user)
    entry_finish(entry=finished, by=narrator_user)
    runners.character.refresh_from_db()
    return {"race": race.pk, "race_course": course.pk, "race_entry": runners.pk,
            "ready_entry": ready.pk, "finished_entry": finished.pk,
            "race_loss": LifeLoss.objects.get(entry=runners).pk, "bib": runners.character.code,
            "qr31": Checkpoint.objects.get(course=course, code="31").qr, "alice_finger": 11}



# --- a fingerprint of every table ---------------------------------------------
def _rows(queryset, *fields) -> list:
    return list(queryset.order_by("pk").values_list(*fields))


def fingerprint() -> dict:
    return {
        "events": _rows(Event.objects, "pk", "name", "clock_running_since", "clock_elapsed_s"),
        "characters": _rows(Character.objects, "pk", "name", "sheet", "kits", "team"),
        "health": _rows(HealthState.objects, "pk", "status", "version", "timers", "values"),
        "treatments": _rows(Treatment.objects, "pk", "status"),
        "effects": _rows(Effect.objects, "pk", "removed"),
        "items": _rows(Item.objects, "pk", "used_by", "used_game_s", "holder", "loaded",
                       "closed"),
        "requests": _rows(OrganiserRequest.objects, "pk", "status", "answer", "effect"),
        "tokens": _rows(LoginToken.objects, "pk", "used_at"),
        "journal": JournalEntry.objects.count(),
        "idempotency": IdempotencyRecord.objects.count(),
        "push": _rows(PushSubscription.objects, "pk"),
        "memberships": Membership.objects.count(),
        "teams": Team.objects.count(),
        "users": get_user_model().objects.count(),
        "members": _rows(Member.objects, "pk", "club", "licence_number"),
        "club_events": _rows(ClubEvent.objects, "pk", "club", "event"),
        "sanctions": _rows(Sanction.objects, "pk", "kind", "revoked_at"),
        "replicas": _rows(Replica.objects, "pk"),
        "chrony": _rows(ChronyCheck.objects, "pk", "passed"),
        "games": _rows(Game.objects, "pk", "scenario", "options", "started_at", "ended_at"),
        "shown": _rows(Event.objects, "pk", "options", "announcement"),
    }


def database_text() -> str:
    """Every row of every table as text: what an erased person must not be found in."""
    import json

    from django.apps import apps
    rows = []
    for model in apps.get_models():
        rows += [json.dumps(row, default=str, ensure_ascii=False) for row in model.objects.values()]
    return "\n".join(rows)
