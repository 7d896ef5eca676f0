"""Values no database can store, sent to every route of the route × role matrix
(tests/test_route_matrix.py): numbers beyond a double (1e309), NaN and Infinity, lone UTF-16
surrogates and NUL characters, as values and as keys, at the top of a body and deep in
dicts and lists; and NUL or junk in query parameters and URL-path codes. Nothing answers
5xx, a writer who may act is told what is wrong, and nothing changes."""
from __future__ import annotations

import json

import pytest
from rest_framework.test import APIClient

from fixtures import client_for, fingerprint
from test_route_matrix import MATRIX, _fill, world_opened

pytestmark = pytest.mark.django_db

# Raw JSON tokens, with the refusal each one earns.
VALUES = {
    "1e309": "number_too_large", "-1e309": "number_too_large", "1.5e999": "number_too_large",
    "NaN": "malformed_json", "Infinity": "malformed_json", "-Infinity": "malformed_json",
    '"\\ud800"': "lone_surrogate", '"x\\udfffy"': "lone_surrogate",
    '"\\u0000"': "nul_character", '"Eve\\u0000"': "nul_character",
}
KEYS = {token: code for token, code in VALUES.items() if token.startswith('"')}
HOLE = "@@hostile@@"
WRITES = [row for row in MATRIX if row[1] != "get" and isinstance(row[3], dict)]
PREFERRED = ("narrator", "player", "other_player", "medic", "stranger", "anonymous")


def placements(body: dict):
    """The body with the hole in each of its values, deep in a dict and a list, and as keys."""
    for name in body:
        yield {**body, name: HOLE}
        yield {**body, name: {"deep": [1, {"deeper": [HOLE]}]}}
    yield {**body, "extra": {"list": [HOLE]}}


def hostile_bodies(body: dict):
    for shape in placements(body):
        text = json.dumps(shape)
        for token, code in VALUES.items():
            yield text.replace(f'"{HOLE}"', token), code
    for token, code in KEYS.items():
        yield json.dumps({**body, HOLE: 1}).replace(f'"{HOLE}"', token), code
        yield json.dumps({**body, "nested": {"a": [{HOLE: True}]}}).replace(f'"{HOLE}"', token), code


def allowed_role(expected: dict) -> str:
    """The role the row lets act (or, where none may, the one refused latest)."""
    return min(PREFERRED, key=lambda role: (expected[role] >= 400, PREFERRED.index(role)))


def api_for(role, users):
    return APIClient() if role == "anonymous" else client_for(users[role], "fr")


def _allowed_api(world, expected):
    """A client for the row's allowed role in the matrix's world, and the world's ids."""
    users, ids = world
    return api_for(allowed_role(expected), users), ids


QUERY_VALUES = ["%00", "a%00b", "%ED%A0%80", "1e309", "NaN", "-1", "9" * 30, "%C2%B2"]
QUERY_NAMES = ["q", "status", "character", "after", "last", "lang", "kind", "course"]
# Reads write nothing, but for one: the first opening of the cards to print gives a card
# code to each character that has none (players/login_cards.py; a second opening changes
# nothing). A login link is used by its page's POST, never by opening it.
MINTING = ("/sheets",)
READS = [row for row in MATRIX if row[1] == "get"]


CODES = ("{code}", "{other_code}", "{item}", "{gun}", "{bib}", "{token}")
CODE_ROWS = [row for row in MATRIX if any(code in row[2] for code in CODES)]
CODE_VALUES = ["%00", "ABC%00", "%ED%A0%80", "%C2%B2", "A" * 5000, "1e309"]


def each_row(rows):
    """One test per row of the matrix, named by its method and path."""
    return pytest.mark.parametrize("route,method,url,body,expected", rows,
                                   ids=[f"{m} {u}" for _, m, u, *_ in rows])


class TestEveryRouteOfTheMatrix:
    """The matrix's world, built once for these rows and rolled back after them."""

    @pytest.fixture(scope="class")
    def world(self, django_db_setup, django_db_blocker, tmp_path_factory):
        with world_opened(django_db_blocker, tmp_path_factory) as built:
            yield built

    @each_row(WRITES)
    def test_a_hostile_body_is_refused_and_changes_nothing(self, route, method, url, body, expected,
                                                           world):
        users, ids = world
        role = allowed_role(expected)
        api = api_for(role, users)
        before = fingerprint()
        for text, code in hostile_bodies(_fill(body, ids)):
            response = api.generic(method.upper(), _fill(url, ids), text,
                                   content_type="application/json")
            assert response.status_code < 500, (text, response.content[:300])
            if expected[role] < 400:  # someone who may act is told what is wrong with the body
                assert response.status_code == 400, (text, response.content[:300])
                assert response.json()["error"] == code, text
        assert fingerprint() == before

    @each_row(READS)
    def test_hostile_query_parameters_never_give_a_server_error(self, route, method, url, body,
                                                                expected, world):
        api, ids = _allowed_api(world, expected)
        path = _fill(url, ids).split("?")[0]
        before = fingerprint()
        for name in QUERY_NAMES:
            for value in QUERY_VALUES:
                response = api.get(f"{path}?{name}={value}")
                assert response.status_code < 500, (name, value, response.content[:300])
        if not any(mint in url for mint in MINTING):
            assert fingerprint() == before

    @each_row(CODE_ROWS)
    def test_a_hostile_code_in_the_path_finds_nothing_and_changes_nothing(self, route, method, url, body,
                                                                          expected, world):
        api, ids = _allowed_api(world, expected)
        before = fingerprint()
        for value in CODE_VALUES:
            junk = {**ids, **{code[1:-1]: value for code in CODES}}
            target = _fill(url, junk)
            response = (api.get(target) if method == "get" else
                        api.generic(method.upper(), target, json.dumps(_fill(body or {}, ids)),
                                    content_type="application/json"))
            assert response.status_code < 500, (target[:200], response.content[:300])
        assert fingerprint() == before


# After the matrix's rows, whose world is gone by then: these build their own game.
@pytest.mark.parametrize("lang,detail", [
    ("fr", "La requête contient un caractère NUL (\\u0000), qui ne peut pas être enregistré."),
    ("es", "La petición contiene un carácter NUL (\\u0000), que no se puede guardar."),
])
def test_a_nul_in_a_search_is_refused_in_the_users_language(lang, detail, clock, event,
                                                            narrator_user):
    response = client_for(narrator_user, lang).get(f"/api/events/{event.pk}/members/?q=ra%00t")
    assert response.status_code == 400
    assert response.json() == {"error": "nul_character", "detail": detail}


@pytest.mark.parametrize("lang,body,detail", [
    ("fr", '{"action": "pause", "at": 1e309}',
     "La requête contient un nombre trop grand pour être enregistré (comme 1e309)."),
    ("es", '{"action": "pause", "note": {"\\ud800": 1}}',
     "La petición contiene un sustituto UTF-16 aislado (\\ud800 a \\udfff), que no es un "
     "carácter y no se puede guardar."),
    ("en", '{"action": "pause", "note": ["\\udfff"]}',
     "The request contains a lone UTF-16 surrogate (\\ud800 to \\udfff), which is not a "
     "character and cannot be stored."),
])
def test_the_body_refusal_names_the_problem_in_the_users_language(lang, body, detail, clock,
                                                                 event, narrator_user):
    response = client_for(narrator_user, lang).generic(
        "POST", f"/api/events/{event.pk}/clock/", body, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["detail"] == detail
    event.refresh_from_db()
    assert event.running  # the clock was not paused
