"""A Septenario de Normas game (the Spanish ruleset) for the tests of Carga, Claridad and
the effects that last one Conflict."""
from __future__ import annotations

from players.services import character_create, event_create

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
