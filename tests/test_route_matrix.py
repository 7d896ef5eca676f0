"""Every route × every role: one row per route and method of config/urls.py, with what
each role gets, and every refusal changes nothing. A new route fails
test_every_route_and_method_has_a_row until its row is written."""
from __future__ import annotations

import contextlib

import base64
from datetime import timedelta

import pytest
import time_machine
from django.contrib.auth import get_user_model
from django.db import transaction
from django.test import override_settings
from django.urls import URLResolver, get_resolver, resolve
from rest_framework.test import APIClient

from combat.services.beatings import acharnement_start
from combat.services.duels import duel_propose
from effects.services.effects import effect_push
from effects.services.items import item_create
from effects.services.requests import request_ask
from fixtures import (MEDIC_SHEET, RACE_PLACEHOLDERS, START, Clock, call, client_for, fingerprint,
                      race_world, register_world)
from health.services import character_act
from health.treatments import treatment_start
from players.models import PHONE_CHECKS, Membership
from players.services import (character_create, event_create, login_token_issue, membership_grant,
                              team_get_or_create)
from safety.plans import plan_upload
from safety.services import help_call
from schedule.services.games import game_announce

# "safety": the event's safety team (docs/safety.md): the calls for help and the board,
# nothing of the game.
ROLES = ("anonymous", "player", "other_player", "medic", "stranger", "narrator", "safety")


def expect(anonymous=403, player=404, other_player=404, medic=404, stranger=404, narrator=404,
           safety=404):
    return dict(anonymous=anonymous, player=player, other_player=other_player, medic=medic,
                stranger=stranger, narrator=narrator, safety=safety)


def signed_in(ok):
    return expect(403, ok, ok, ok, ok, ok, ok)


def everyone(ok):
    return expect(ok, ok, ok, ok, ok, ok, ok)


def responders(ok):
    """The event's narrators and its safety team (real-world safety)."""
    return expect(narrator=ok, safety=ok)


def narrators(ok):
    return expect(narrator=ok)


def its_player_and_narrators(ok):
    return expect(player=ok, narrator=ok)


def its_player(ok):
    return expect(player=ok, narrator=403)


def its_medic(ok, narrator=403):
    """A narrator sees the medic's character but may not treat in the medic's name."""
    return expect(medic=ok, narrator=narrator)


P256DH = base64.urlsafe_b64encode(b"\x04" + b"\x01" * 64).rstrip(b"=").decode()
SUBSCRIPTION = {"endpoint": "https://push.example.org/send/1",
                "keys": {"p256dh": P256DH, "auth": "AAAAAAAAAAAAAAAAAAAAAA"}}
CHARACTER = "api/characters/<int:character_id>/"
EVENT = "api/events/<int:event_id>/"
TREATMENT = "api/treatments/<int:treatment_id>/"

# (route, method, url, body, expected status by role)
MATRIX = [
    ("admin/", "get", "/admin/", None, expect(302, 302, 302, 302, 200, 200, 302)),
    # Organisers (of their own events: tests/players/test_admin_scope.py) use the admin.
    ("admin/", "get", "/admin/players/character/", None, expect(302, 302, 302, 302, 200, 200, 302)),
    ("api/login/", "post", "/api/login/", {"token": "{token}"}, everyone(200)),
    ("api/me/", "get", "/api/me/", None, signed_in(200)),
    ("api/rulesets/<str:key>/", "get", "/api/rulesets/gn_fr/", None, signed_in(200)),
    ("api/events/", "get", "/api/events/", None, signed_in(200)),
    ("api/events/", "post", "/api/events/", {"name": "New GN", "ruleset": "gn_fr"},
     expect(403, 403, 403, 403, 201, 201, 403)),
    (EVENT + "characters/", "get", "/api/events/{event}/characters/", None, narrators(200)),
    (EVENT + "characters/", "post", "/api/events/{event}/characters/", {"name": "Eve"},
     narrators(201)),
    (EVENT + "clock/", "post", "/api/events/{event}/clock/", {"action": "pause"},
     narrators(200)),
    # Emergencia: anyone in the game; days: narrators (gn_fr has none: 400 no_days).
    # Emergencia is anyone's call in the event, the safety team's too.
    (EVENT + "emergency/", "post", "/api/events/{event}/emergency/", {"reason": "malaise"},
     expect(403, 200, 200, 200, 404, 200, 200)),
    (EVENT + "days/", "get", "/api/events/{event}/days/", None, narrators(200)),
    (EVENT + "days/", "post", "/api/events/{event}/days/",
     {"kind": "dawn", "due_at": "2026-06-07T07:00:00+00:00"}, narrators(400)),
    (EVENT + "days/<int:day_id>/", "delete", "/api/events/{event}/days/999999/", None,
     narrators(404)),
    (EVENT + "journal/", "get", "/api/events/{event}/journal/", None, narrators(200)),
    ("api/events/<int:event_id>/journal.csv", "get", "/api/events/{event}/journal.csv", None,
     narrators(200)),
    (EVENT + "effects/", "post", "/api/events/{event}/effects/",
     {"text": "Effet : sommeil", "everyone": True}, narrators(201)),
    (EVENT + "items/", "get", "/api/events/{event}/items/", None, narrators(200)),
    (EVENT + "items/", "post", "/api/events/{event}/items/",
     {"name": "Fiole", "kind": "medicine", "secret_text": "Effet : sommeil"}, narrators(201)),
    ("api/effects/<int:effect_id>/", "delete", "/api/effects/{effect}/", None, narrators(200)),
    # Requests to the organisers: a player asks for their own character only.
    (EVENT + "requests/", "get", "/api/events/{event}/requests/?status=open", None,
     narrators(200)),
    (CHARACTER + "requests/", "post", "/api/characters/{player}/requests/",
     {"text": "Je brise le coffre à la hache"}, its_player(201)),
    ("api/requests/<int:request_id>/answer/", "post", "/api/requests/{request}/answer/",
     {"text": "Effet : le coffre s'ouvre"}, narrators(200)),
    (CHARACTER, "get", "/api/characters/{player}/", None, its_player_and_narrators(200)),
    (CHARACTER + "actions/", "post", "/api/characters/{player}/actions/",
     {"action": "hit_stunning"}, its_player_and_narrators(200)),
    # Undo (health/undo.py): tests/health/test_undo.py checks who may undo a real line.
    ("api/journal/<int:entry_id>/undo/", "post", "/api/journal/999999/undo/", None, expect()),
    (CHARACTER + "history/", "get", "/api/characters/{player}/history/", None,
     its_player_and_narrators(200)),
    (CHARACTER + "outcomes/", "get", "/api/characters/{player}/outcomes/", None,
     its_player_and_narrators(200)),
    # A phone's self-check: its player reports it; the narrators read every phone.
    (CHARACTER + "readiness/", "post", "/api/characters/{player}/readiness/",
     {"checks": {key: {"ok": True} for key in PHONE_CHECKS}, "checked_at": "2026-01-01T10:00:00+00:00"},
     its_player(200)),
    (EVENT + "phones/", "get", "/api/events/{event}/phones/", None, narrators(200)),
    ("api/characters/<int:character_id>/qr.svg", "get", "/api/characters/{player}/qr.svg", None,
     its_player_and_narrators(200)),
    (CHARACTER + "login-link/", "post", "/api/characters/{player}/login-link/", None,
     narrators(201)),
    ("api/characters/<int:character_id>/login-qr.svg", "post",
     "/api/characters/{player}/login-qr.svg", None, narrators(200)),
    (CHARACTER + "lost-phone/", "post", "/api/characters/{player}/lost-phone/", None,
     narrators(200)),
    (CHARACTER + "patients/<str:code>/", "get", "/api/characters/{medic}/patients/{code}/",
     None, its_medic(200)),
    (CHARACTER + "treatments/", "post", "/api/characters/{medic}/treatments/",
     {"patient_code": "{other_code}", "action": "metabolic_analysis"}, its_medic(201)),
    (CHARACTER + "items/<str:item_code>/", "get", "/api/characters/{player}/items/{item}/", None,
     its_player_and_narrators(200)),
    (CHARACTER + "items/<str:item_code>/use/", "post",
     "/api/characters/{player}/items/{item}/use/", {}, its_player_and_narrators(200)),
    # Carga: the test world plays gn_fr, which has none (409 not_in_this_game).
    (CHARACTER + "items/<str:item_code>/carry/", "post",
     "/api/characters/{player}/items/{item}/carry/", {}, its_player_and_narrators(409)),
    (CHARACTER + "items/<str:item_code>/drop/", "post",
     "/api/characters/{player}/items/{item}/drop/", {}, its_player_and_narrators(409)),
    (CHARACTER + "clarity/", "get", "/api/characters/{player}/clarity/", None,
     its_player_and_narrators(200)),
    (EVENT + "options/", "get", "/api/events/{event}/options/", None, narrators(200)),
    (EVENT + "roster/", "get", "/api/events/{event}/roster/", None, narrators(200)),
    (EVENT + "roster/", "post", "/api/events/{event}/roster/", {"csv": "name,team\nNouvelle Recrue,\n"},
     narrators(201)),
    (CHARACTER + "psych/", "post", "/api/characters/{player}/psych/", {"psych": {"humeur": 1}},
     narrators(200)),
    # Fights: a player acts as their own character only; a narrator is refused (403).
    (CHARACTER + "duels/", "post", "/api/characters/{player}/duels/",
     {"opponent_code": "{other_code}"}, its_player(201)),
    ("api/duels/<int:duel_id>/answer/", "post", "/api/duels/{duel}/answer/", {"accept": False},
     its_medic(200)),
    (CHARACTER + "unions/", "post", "/api/characters/{player}/unions/",
     {"defender_codes": ["{other_code}"], "weapon_drawn": False}, its_player(409)),
    (CHARACTER + "unions/join/", "post", "/api/characters/{player}/unions/join/",
     {"defender_code": "{other_code}"}, its_player(409)),
    (CHARACTER + "acharnements/", "post", "/api/characters/{player}/acharnements/",
     {"victim_code": "{other_code}", "kind": "teeth"}, its_player(400)),
    ("api/acharnements/<int:acharnement_id>/stop/", "post", "/api/acharnements/{acharnement}/stop/",
     None, its_medic(200)),
    (CHARACTER + "search/", "post", "/api/characters/{player}/search/",
     {"target_code": "{other_code}", "location": "les bottes"}, its_player(409)),
    (CHARACTER + "firearms/<str:code>/take/", "post", "/api/characters/{player}/firearms/{gun}/take/",
     None, its_player(200)),
    (CHARACTER + "firearms/<str:code>/load/", "post", "/api/characters/{player}/firearms/{gun}/load/",
     None, its_player(403)),
    (CHARACTER + "firearms/<str:code>/shoot/", "post", "/api/characters/{player}/firearms/{gun}/shoot/",
     {"victim_code": "{other_code}", "distance_m": 5, "obstacle": False}, its_player(409)),
    # The airsoft medic: the test world plays gn_fr (409 not_in_this_game), so no heal
    # exists to stop; who may stop a real one is in tests/combat/test_heals.py.
    # A hit naming its shooter: airsoft only (the test world plays gn_fr: not_in_this_game).
    (CHARACTER + "shots/", "post", "/api/characters/{player}/shots/",
     {"shooter_code": "{other_code}"}, its_player(409)),
    (CHARACTER + "heals/", "post", "/api/characters/{player}/heals/",
     {"patient_code": "{other_code}", "kind": "heal"}, its_player(409)),
    ("api/heals/<int:heal_id>/stop/", "post", "/api/heals/999999/stop/", {"reason": "hands_off"},
     signed_in(404)),
    (TREATMENT, "get", "/api/treatments/{treatment}/", None, its_medic(200, narrator=404)),
    (TREATMENT + "complete/", "post", "/api/treatments/{treatment}/complete/", None,
     its_medic(200, narrator=404)),
    (TREATMENT + "abort/", "post", "/api/treatments/{treatment}/abort/", None,
     its_medic(200, narrator=404)),
    ("api/push/key/", "get", "/api/push/key/", None, signed_in(200)),
    ("api/push/subscriptions/", "post", "/api/push/subscriptions/", SUBSCRIPTION,
     signed_in(201)),
    ("api/push/subscriptions/", "delete", "/api/push/subscriptions/",
     {"endpoint": SUBSCRIPTION["endpoint"]}, signed_in(204)),
    ("api/schema/", "get", "/api/schema/", None, everyone(200)),
    ("api/docs/", "get", "/api/docs/", None, everyone(200)),
    # Opening a login link shows its button (a link preview uses nothing); the POST logs in.
    ("login/<str:token>", "get", "/login/{token}", None, everyone(200)),
    ("login/<str:token>", "post", "/login/{token}", None, everyone(302)),
    ("events/<int:event_id>/sheets/", "get", "/events/{event}/sheets/", None,
     expect(anonymous=302, narrator=200)),
    # Printing never changes a code: the cards page takes no POST; new codes are their own act.
    ("events/<int:event_id>/sheets/", "post", "/events/{event}/sheets/", None, everyone(405)),
    ("events/<int:event_id>/sheets.pdf", "get", "/events/{event}/sheets.pdf", None,
     expect(anonymous=302, narrator=200)),
    ("events/<int:event_id>/sheets/new-codes/", "get", "/events/{event}/sheets/new-codes/", None,
     everyone(405)),
    ("events/<int:event_id>/sheets/new-codes/", "post", "/events/{event}/sheets/new-codes/",
     {"character": "all", "confirm": "yes"}, expect(anonymous=404, narrator=302)),
    ("events/<int:event_id>/casualty-card/", "get", "/events/{event}/casualty-card/", None,
     expect(anonymous=302, narrator=200)),
    # Set-up from the browser: a dead first-run or invitation link says so; the event form
    # is for staff accounts; an event's set-up page for its organisers.
    ("setup/<str:token>", "get", "/setup/made-up", None, everyone(400)),
    ("invite/<str:token>", "get", "/invite/made-up", None, everyone(400)),
    ("events/new/", "get", "/events/new/", None,
     expect(anonymous=302, player=403, other_player=403, medic=403, stranger=200, narrator=200,
            safety=403)),
    ("events/<int:event_id>/setup/", "get", "/events/{event}/setup/", None,
     expect(anonymous=302, narrator=200)),
    ("events/<int:event_id>/team/invite/", "get", "/events/{event}/team/invite/", None, everyone(405)),
    ("events/<int:event_id>/team/remove/", "get", "/events/{event}/team/remove/", None, everyone(405)),
    ("events/<int:event_id>/labels/", "get", "/events/{event}/labels/", None,
     expect(anonymous=302, narrator=200)),
    ("manifest.webmanifest", "get", "/manifest.webmanifest", None, everyone(200)),
    ("sw.js", "get", "/sw.js", None, everyone(200)),
    ("healthz", "get", "/healthz", None, everyone(200)),
    # The event's certificate authority for phones (docs/field-network.md): public, and
    # 404 where `./run --https` made none (the world below has none).
    ("field/ca/", "get", "/field/ca/", None, everyone(404)),
    ("^field/ca\\.(?P<encoding>crt|pem)$", "get", "/field/ca.crt", None, everyone(404)),
    ("^field/ca\\.(?P<encoding>crt|pem)$", "get", "/field/ca.pem", None, everyone(404)),
    ("jsi18n/<str:lang>/", "get", "/jsi18n/fr/", None, everyone(200)),
    ("", "get", "/", None, everyone(200)),
    # The airsoft club's register and chrony: organisers (narrators) of the event; a
    # member's history for the staff of the club's events and the member's own player
    # (the stranger narrates an unrelated event: 404).
    (EVENT + "club/", "get", "/api/events/{event}/club/", None, narrators(200)),
    (EVENT + "club/", "post", "/api/events/{event}/club/", {"club": "{club}"}, narrators(200)),
    (EVENT + "members/", "get", "/api/events/{event}/members/?q=rat", None, narrators(200)),
    (EVENT + "members/", "post", "/api/events/{event}/members/",
     {"name": "Léa Roux", "phone": "0600000000", "licence_number": "RAT-0099"}, narrators(201)),
    (EVENT + "check-in/", "post", "/api/events/{event}/check-in/", {"member": "RAT-0001"},
     narrators(200)),
    (EVENT + "sanctions/", "get", "/api/events/{event}/sanctions/", None, narrators(200)),
    (EVENT + "sanctions/", "post", "/api/events/{event}/sanctions/",
     {"member": "RAT-0001", "kind": "warning", "reason": "pas crié out"}, narrators(201)),
    ("api/members/<int:member_id>/sanctions/", "get", "/api/members/{member}/sanctions/", None,
     its_player_and_narrators(200)),
    ("api/sanctions/<int:sanction_id>/revoke/", "post", "/api/sanctions/{sanction}/revoke/",
     {"reason": "le comité annule"}, narrators(200)),
    (EVENT + "replicas/", "get", "/api/events/{event}/replicas/", None, narrators(200)),
    (EVENT + "replicas/", "post", "/api/events/{event}/replicas/",
     {"member": "RAT-0001", "label": "Glock", "type": "pistol", "calibre_mm": 6}, narrators(201)),
    ("api/replicas/<int:replica_id>/checks/", "post", "/api/replicas/{replica}/checks/",
     {"kind": "recheck", "bb_weight_g": 0.2, "speed_mps": 100}, narrators(201)),
    ("replicas/<int:replica_id>/label/", "get", "/replicas/{replica}/label/", None,
     expect(anonymous=302, narrator=200)),
    # The games of a day: anyone in the event reads them, organisers announce, start and
    # end (the world's game is announced, not started: ending it is refused, 409).
    (EVENT + "games/", "get", "/api/events/{event}/games/", None,
     expect(403, 200, 200, 200, 404, 200, 200)),
    (EVENT + "games/", "post", "/api/events/{event}/games/",
     {"scenario": "Capture du drapeau", "start_at": "2026-06-06T21:00:00+00:00"}, narrators(201)),
    ("api/games/<int:game_id>/start/", "post", "/api/games/{game}/start/", None, narrators(200)),
    ("api/games/<int:game_id>/end/", "post", "/api/games/{game}/end/", None, narrators(409)),
    # Personal data: the event's organisers; a player is refused even their own (403).
    (CHARACTER + "export/", "post", "/api/characters/{player}/export/", {},
     expect(player=403, narrator=200)),
    (CHARACTER + "erase/", "post", "/api/characters/{player}/erase/", {"confirm": True},
     expect(player=403, narrator=200)),
    (EVENT + "personal-data/", "get", "/api/events/{event}/personal-data/", None, narrators(200)),
    (EVENT + "personal-data/", "post", "/api/events/{event}/personal-data/",
     {"retention_days": 30}, narrators(200)),
]
# The zombie race (race/, tests/race_world.py): organisers (narrators) run it; Alice
# (player) is the survivor of the team entry, Denis (other_player) a zombie; the results
# page is public.
RACE, RACE_EVENT, RACE_ENTRY = "api/race/", "api/race/events/<int:event_id>/", \
    "api/race/entries/<int:entry_id>/"
MATRIX += [
    (RACE_EVENT + "courses/", "get", "/api/race/events/{race}/courses/", None, narrators(200)),
    (RACE_EVENT + "courses/", "post", "/api/race/events/{race}/courses/", {"name": "sportif"},
     narrators(201)),
    (RACE_EVENT + "entries/", "get", "/api/race/events/{race}/entries/", None, narrators(200)),
    (RACE_EVENT + "entries/", "post", "/api/race/events/{race}/entries/",
     {"name": "Lucie", "course": "famille", "finger": 99, "phone": "0611223344"}, narrators(201)),
    (RACE_EVENT + "zombies/", "post", "/api/race/events/{race}/zombies/", {"name": "Igor"},
     narrators(201)),
    (RACE_EVENT + "entries/import/", "post", "/api/race/events/{race}/entries/import/",
     {"csv": "name,course,finger,phone\nLucas,famille,98,0611223344\n"}, narrators(201)),
    (RACE_EVENT + "iof/import/", "post", "/api/race/events/{race}/iof/import/",
     {"xml": '<EntryList xmlns="http://www.orienteering.org/datastandard/3.0" iofVersion="3.0">'
             '<Event><Name>Rugles</Name></Event><PersonEntry><Person><Name><Family>Roy</Family>'
             '<Given>Lea</Given></Name></Person><ControlCard>97</ControlCard><Class><Name>famille'
             '</Name></Class></PersonEntry></EntryList>'}, narrators(201)),
    (RACE_EVENT + "punches/import/", "post", "/api/race/events/{race}/punches/import/",
     {"csv": "finger,checkpoint,time\n{alice_finger},31,2026-06-06T20:00:30+00:00\n"},
     narrators(201)),
    (RACE_EVENT + "bibs/<str:code>/", "get", "/api/race/events/{race}/bibs/{bib}/", None,
     expect(other_player=200, narrator=200)),
    (RACE_EVENT + "grabs/", "post", "/api/race/events/{race}/grabs/",
     {"code": "{bib}", "confirmations": ["not_fast_running", "not_near_checkpoint", "no_contact",
                                         "not_on_open_road", "target_not_panicking"]},
     expect(other_player=201, narrator=201)),
    (RACE_EVENT + "leaderboard/", "get", "/api/race/events/{race}/leaderboard/", None,
     narrators(200)),
    (RACE_EVENT + "safety/", "get", "/api/race/events/{race}/safety/", None, narrators(200)),
    (RACE + "courses/<int:course_id>/checkpoints/", "post",
     "/api/race/courses/{race_course}/checkpoints/", {"code": "35"}, narrators(201)),
    (RACE + "courses/<int:course_id>/points/", "post", "/api/race/courses/{race_course}/points/",
     {"points_per_checkpoint": 25}, narrators(200)),
    (RACE + "courses/<int:course_id>/start/", "post", "/api/race/courses/{race_course}/start/",
     None, narrators(200)),
    (RACE_ENTRY, "get", "/api/race/entries/{race_entry}/", None, its_player_and_narrators(200)),
    (RACE_ENTRY + "gear/", "post", "/api/race/entries/{ready_entry}/gear/", {"vest": True},
     narrators(200)),
    (RACE_ENTRY + "deposit/", "post", "/api/race/entries/{ready_entry}/deposit/", None,
     narrators(200)),
    (RACE_ENTRY + "start/", "post", "/api/race/entries/{ready_entry}/start/", None,
     narrators(200)),
    (RACE_ENTRY + "punches/", "post", "/api/race/entries/{race_entry}/punches/",
     {"checkpoint": "{qr31}"}, its_player_and_narrators(201)),
    (RACE_ENTRY + "zone-losses/", "post", "/api/race/entries/{race_entry}/zone-losses/",
     {"cause": "out_of_zone"}, narrators(201)),
    (RACE_ENTRY + "infractions/", "post", "/api/race/entries/{race_entry}/infractions/",
     {"kind": "other"}, expect(other_player=201, narrator=201)),
    (RACE_ENTRY + "carrier/", "post", "/api/race/entries/{race_entry}/carrier/",
     {"carrier": "Ben"}, its_player_and_narrators(200)),
    (RACE_ENTRY + "finish/", "post", "/api/race/entries/{race_entry}/finish/", None,
     narrators(200)),
    (RACE_ENTRY + "finger-return/", "post", "/api/race/entries/{finished_entry}/finger-return/",
     None, narrators(200)),
    (RACE_ENTRY + "abandon/", "post", "/api/race/entries/{race_entry}/abandon/", None,
     its_player_and_narrators(200)),
    (RACE_ENTRY + "disqualify/", "post", "/api/race/entries/{race_entry}/disqualify/",
     {"reason": "coups"}, narrators(200)),
    (RACE + "life-losses/<int:loss_id>/void/", "post", "/api/race/life-losses/{race_loss}/void/",
     {"reason": "contact"}, narrators(200)),
    ("race/<int:event_id>/results/", "get", "/race/{race}/results/", None, everyone(200)),
    ("race/<int:event_id>/results.csv", "get", "/race/{race}/results.csv", None, everyone(200)),
    ("race/<int:event_id>/results.xml", "get", "/race/{race}/results.xml", None, everyone(200)),
    ("race/<int:event_id>/startlist.xml", "get", "/race/{race}/startlist.xml", None, everyone(200)),
    ("race/<int:event_id>/iof/results.xml", "get", "/race/{race}/iof/results.xml", None,
     expect(anonymous=302, narrator=200)),
    ("race/<int:event_id>/iof/startlist.xml", "get", "/race/{race}/iof/startlist.xml", None,
     expect(anonymous=302, narrator=200)),
    ("race/<int:event_id>/balises/", "get", "/race/{race}/balises/", None,
     expect(anonymous=302, narrator=200)),
]
# Real-world safety (safety/): a call is anyone's in the event; the board, taking and
# closing, the plan's image, "seen" and checking someone out are the responders' (narrators
# and the safety team); the settings, the plan's upload and placing and "out for real" (a
# game decision) are the narrators'; a battery and a position are its player's own.
MATRIX += [
    (EVENT + "help/", "get", "/api/events/{event}/help/", None,
     expect(403, 200, 200, 200, 404, 200, 200)),
    (EVENT + "help/", "post", "/api/events/{event}/help/", {"kind": "injured"},
     expect(403, 201, 201, 201, 404, 201, 201)),
    ("api/help/<int:call_id>/take/", "post", "/api/help/{help}/take/", None, responders(200)),
    ("api/help/<int:call_id>/close/", "post", "/api/help/{help}/close/", {"outcome": "treated"},
     responders(200)),
    (EVENT + "safety/", "get", "/api/events/{event}/safety/", None, responders(200)),
    (EVENT + "safety/settings/", "post", "/api/events/{event}/safety/settings/",
     {"silent_after_min": 30}, narrators(200)),
    # The site plan: a JSON body is no image (400 plan_not_image, for the organisers only);
    # the upload itself is tested in tests/safety/test_site_plan.py.
    (EVENT + "safety/plan/", "post", "/api/events/{event}/safety/plan/", {}, narrators(400)),
    (EVENT + "safety/plan/points/", "post", "/api/events/{event}/safety/plan/points/",
     {"points": [{"x": 10, "y": 10, "latitude": 45.76, "longitude": 4.83},
                 {"x": 90, "y": 50, "latitude": 45.7601, "longitude": 4.8315}]}, narrators(200)),
    (EVENT + "safety/plan/image/", "get", "/api/events/{event}/safety/plan/image/", None,
     responders(200)),
    (CHARACTER + "battery/", "post", "/api/characters/{player}/battery/", {"level": 0.5},
     its_player(200)),
    # A position is its player's own; this event tracks no race, so the player's own write
    # is refused (409 tracking_off): tests/safety/test_race_tracking.py covers the rest.
    (CHARACTER + "position/", "get", "/api/characters/{player}/position/", None, its_player(200)),
    (CHARACTER + "position/", "post", "/api/characters/{player}/position/",
     {"latitude": 45.76, "longitude": 4.83, "at": "2026-06-06T19:59:00+00:00"}, its_player(409)),
    (CHARACTER + "check-out/", "post", "/api/characters/{player}/check-out/", {},
     expect(player=200, narrator=200, safety=200)),
    (CHARACTER + "seen/", "post", "/api/characters/{player}/seen/", None,
     expect(player=403, narrator=200, safety=200)),
    (CHARACTER + "out-for-real/", "post", "/api/characters/{player}/out-for-real/",
     {"reason": "sprained ankle"}, expect(player=403, narrator=200)),
]
PREFIXES = ("admin/",)  # the admin site's own routes: its staff and permission checks


def _routes(patterns, prefix=""):
    """(route, view) of every URL pattern, included ones flattened; a PREFIXES route whole."""
    for pattern in patterns:
        route = prefix + str(pattern.pattern)
        if isinstance(pattern, URLResolver) and route in PREFIXES:
            yield route, None
        elif isinstance(pattern, URLResolver):
            yield from _routes(pattern.url_patterns, route)
        else:
            yield route, pattern.callback


def _methods(view) -> set[str]:
    """The HTTP methods a DRF view implements (a plain Django view here serves GET only)."""
    cls = getattr(view, "cls", None)
    if cls is None:
        return {"get"}
    return {m for m in ("get", "post", "put", "patch", "delete") if hasattr(cls, m)}


def test_every_route_and_method_has_a_row():
    rows = {(route, method) for route, method, *_ in MATRIX}
    missing = [(route, method) for route, view in _routes(get_resolver().url_patterns)
               for method in (_methods(view) if view else {"get"})
               if (route, method) not in rows]
    assert missing == [], f"routes without a row in MATRIX: {missing}"


@pytest.mark.parametrize("route,method,url,body,expected", MATRIX,
                         ids=[f"{m} {u}" for _, m, u, *_ in MATRIX])
def test_each_row_names_its_route_and_every_role(route, method, url, body, expected):
    assert set(expected) == set(ROLES)
    match = resolve(url.format(event=1, player=1, medic=1, treatment=1, effect=1, code="ABC",
                               item="ITEM", token="t", duel=1, acharnement=1, gun="GUN",
                               request=1, member=1, sanction=1, replica=1,
                               game=1, help=1, **RACE_PLACEHOLDERS).split("?")[0])
    assert match.route == route or (route in PREFIXES and match.route.startswith(route))


def _tiny_png() -> bytes:
    from io import BytesIO

    from PIL import Image
    out = BytesIO()
    Image.new("RGB", (100, 60)).save(out, format="PNG")
    return out.getvalue()


@contextlib.contextmanager
def world_opened(django_db_blocker, tmp_path_factory):
    """The world, in a transaction rolled back on the way out; each row runs in a savepoint
    of it, rolled back after the row (Django's TestCase.setUpTestData). The clock stays a
    minute after START meanwhile. No other test may run while it is open: it holds the
    cast's names."""
    tmp = tmp_path_factory.mktemp("world")
    # The push key endpoint generates its key in VAR_DIR; no field certificate is made.
    with (django_db_blocker.unblock(), time_machine.travel(START, tick=False) as traveller,
          override_settings(VAR_DIR=tmp, FIELD_CA_CERT=tmp / "field-tls" / "ca.pem"),
          transaction.atomic()):
        yield _world_build(Clock(traveller))
        transaction.set_rollback(True)


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker, tmp_path_factory):
    """Built once for the thousand rows of this module (a third of a second each time)."""
    with world_opened(django_db_blocker, tmp_path_factory) as built:
        yield built


def _world_build(clock):
    """Made with the services, not through clients. The cast is conftest.py's (Alice the
    player, Denis the other player, Bruno the medic)."""
    narrator_user = get_user_model().objects.create_user(username="narrator", is_staff=True)
    event = event_create(name="Test GN", ruleset="gn_fr", by=narrator_user, start_clock=True)
    player = character_create(event=event, name="Alice", sheet={"combat_base": 2},
                              team=team_get_or_create(event=event, name="Invités"), by=narrator_user)
    other_player = character_create(event=event, name="Denis", sheet={"combat_base": 3},
                                    by=narrator_user)
    medic = character_create(event=event, name="Bruno", sheet=MEDIC_SHEET,
                             kits={"kps": 2, "koc": 1}, by=narrator_user)
    stranger = get_user_model().objects.create_user(username="narrator2", is_staff=True)
    character_create(event=event_create(name="Other GN", ruleset="gn_fr", by=stranger),
                     name="Zoé", by=stranger)
    character_act(character=player, action="hit_wounding", params={}, by=player.user,
                  as_narrator=False)
    treatment = treatment_start(medic=medic, patient=player, action="first_aid", params={},
                                by=medic.user)
    effect, = effect_push(event=event, characters=[player], text="Effet : froid",
                          duration_s=None, set_state=None, by=narrator_user)
    item = item_create(event=event, by=narrator_user, name="Dague", kind="tag",
                       tag_text="Effet : qui la touche a froid", effect_text="Effet : froid")
    eve = character_create(event=event, name="Eve", sheet={"combat_base": 2}, by=narrator_user)
    fred = character_create(event=event, name="Fred", sheet={"combat_base": 2}, by=narrator_user)
    duel = duel_propose(challenger=eve, opponent_code=medic.code, by=eve.user)
    character_act(character=fred, action="set_state", params={"state": "tired"},
                  by=narrator_user, as_narrator=True)
    beating = acharnement_start(attacker=medic, victim_code=fred.code, kind="bare_hands",
                                by=medic.user)
    gun = item_create(event=event, by=narrator_user, name="Revolver", kind="firearm")
    asked = request_ask(character=player, text="Je casse la vitre", by=player.user)
    club = register_world(event, narrator_user, player)  # Alice checked in as a club member
    race = race_world(narrator_user, player, other_player)  # Alice runs, Denis is a zombie
    game = game_announce(event=event, scenario="Capture du drapeau", by=narrator_user,
                         start_at=START + timedelta(hours=1))
    called = help_call(event=event, by=other_player.user, kind="lost")
    plan_upload(event=event, by=narrator_user, data=_tiny_png())
    clock.advance(60)  # the first aid may now be completed
    safety = get_user_model().objects.create_user(username="safety-team")
    membership_grant(event=event, user=safety, role=Membership.SAFETY)
    users = {"player": player.user, "other_player": other_player.user, "medic": medic.user,
             "stranger": stranger, "narrator": narrator_user, "safety": safety}
    return users, {"event": event.pk, "player": player.pk, "medic": medic.pk,
                   "code": player.code, "other_code": other_player.code,
                   "treatment": treatment.pk, "effect": effect.pk, "item": item.code,
                   "duel": duel.pk, "acharnement": beating.pk, "gun": gun.code,
                   "request": asked.pk, "game": game.pk, "help": called.pk, **club, **race,
                   "token": login_token_issue(event=event, user=player.user)}


def _fill(value, world):
    if isinstance(value, str):
        return value.format(**world)
    if isinstance(value, dict):
        return {k: _fill(v, world) for k, v in value.items()}
    if isinstance(value, list):
        return [_fill(v, world) for v in value]
    return value


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("route,method,url,body,expected", MATRIX,
                         ids=[f"{m} {u}" for _, m, u, *_ in MATRIX])
@pytest.mark.django_db
def test_route_by_role(role, route, method, url, body, expected, world):
    users, ids = world
    api = APIClient() if role == "anonymous" else client_for(users[role])
    before = fingerprint()

    response = call(api, method, _fill(url, ids), _fill(body, ids))

    assert response.status_code == expected[role], response.content[:300]
    refused = response.status_code >= 400 or response.get("Location", "").startswith("/admin/login")
    if refused:
        assert fingerprint() == before
        assert "Alice" not in response.content.decode()
