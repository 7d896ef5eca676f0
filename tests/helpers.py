"""Small helpers shared by the API tests."""
from __future__ import annotations


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
