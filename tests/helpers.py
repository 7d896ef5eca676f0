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
