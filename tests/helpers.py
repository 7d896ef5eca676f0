"""Small helpers shared by the API tests."""
from __future__ import annotations

from datetime import datetime, timezone as dt_timezone

from rest_framework.test import APIClient

START = datetime(2026, 6, 6, 20, 0, 0, tzinfo=dt_timezone.utc)

MEDIC_SHEET = {"combat_base": 2, "skills": {"first_aid": "novice", "surgery": "expert",
                                            "metabolic_analysis": True}}


def client_for(user, lang: str = "en") -> APIClient:
    client = APIClient(HTTP_ACCEPT_LANGUAGE=lang)
    client.force_login(user)
    return client


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


def apply_push(held: dict, message: dict) -> dict:
    """What a phone does with a live message (frontend/static/frontend/js/live.js): a
    snapshot replaces what it holds; an effect it does not hold yet is added and moves the
    sequence number by one."""
    if message["type"] == "snapshot":
        return message["snapshot"]
    assert message["type"] == "effect", message
    if any(e["push"] == message["effect"]["push"] for e in held["effects"]):
        return held
    return {**held, "version": held["version"] + 1, "effects": held["effects"] + [message["effect"]]}


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
