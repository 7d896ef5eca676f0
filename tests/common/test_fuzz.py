"""The OpenAPI schema, fuzzed: schemathesis makes valid and invalid requests for every
operation of /api/schema/ and sends them to the app in process (WSGI), signed in as a
player (a medic, so the treatment endpoints do real work) and as a narrator. No request
may answer 5xx, and every answer that succeeds must be what its schema declares, strictly
(tests/wire.py). Bounded and derandomized: the same requests on every run."""
from __future__ import annotations

from contextlib import contextmanager

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from django.test import Client
from hypothesis import HealthCheck, Phase, given, settings, strategies as st
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error

from config.wsgi import application
from effects.services.items import item_create
from effects.services.requests import request_ask
from effects.services.effects import effect_push
from health.services import character_act
from health.treatments import treatment_start
from wire import answer_errors

pytestmark = pytest.mark.django_db

EXAMPLES = 8  # per operation, mode and role: about a thousand requests in all
# An Idempotency-Key header, sometimes, sometimes too long (the schema cannot declare it).
# Printable keys; an HTTP header value cannot start with a space (clients refuse to send it).
IDEMPOTENCY_KEYS = st.one_of(st.none(), st.from_regex(r"[!-~][ -~]{0,119}", fullmatch=True))


@contextmanager
def inside_the_test_transaction():
    """The WSGI app runs inside the test's transaction: like Django's test client, keep it
    from closing the connection as each request starts and ends (that would end the test's
    transaction and its data). Responses are buffered so that they end inside this block."""
    for signal in (request_started, request_finished):
        signal.disconnect(close_old_connections)
    try:
        yield
    finally:
        for signal in (request_started, request_finished):
            signal.connect(close_old_connections)


@pytest.fixture
def game(clock, settings, tmp_path, event, narrator_user, player, medic):
    """A game with something in every table, and the ids the generated paths may name."""
    settings.VAR_DIR = tmp_path  # the push key endpoint generates its key here
    character_act(character=player, action="hit_wounding", params={}, by=player.user,
                  as_narrator=False)
    treatment = treatment_start(medic=medic, patient=player, action="first_aid", params={},
                                by=medic.user)
    effect, = effect_push(event=event, characters=[player], text="Effet : froid",
                          duration_s=None, set_state=None, by=narrator_user)
    item = item_create(event=event, by=narrator_user, name="Fiole", kind="medicine",
                       single_use=False, secret_text="Effet : sommeil")
    asked = request_ask(character=player, text="Je brise la vitre", by=player.user)
    return {"event_id": event.pk, "treatment_id": treatment.pk, "effect_id": effect.pk,
            "code": player.code, "item_code": item.code, "key": event.ruleset,
            "request_id": asked.pk}


def signed_in(user) -> tuple[dict, dict]:
    """The cookies and CSRF header of a phone whose app page was opened after logging in."""
    browser = Client()
    browser.force_login(user)
    browser.get("/")  # sets the csrftoken cookie
    cookies = {name: browser.cookies[name].value for name in ("sessionid", "csrftoken")}
    return cookies, {"X-CSRFToken": cookies["csrftoken"]}


def strategy(operation, mode, real_ids: dict):
    """Generated paths, or the game's real ids so that requests get past the 404s."""
    names = {parameter.name for parameter in operation.path_parameters}
    fixed = {name: value for name, value in real_ids.items() if name in names}
    generated = operation.as_strategy(generation_mode=mode)
    return st.one_of(generated, operation.as_strategy(generation_mode=mode,
                                                      path_parameters=fixed)) if fixed else generated


def fuzz(operation, mode, real_ids, cookies, headers) -> None:
    @settings(max_examples=EXAMPLES, derandomize=True, database=None, deadline=None,
              phases=[Phase.explicit, Phase.generate, Phase.shrink],
              suppress_health_check=list(HealthCheck))
    @given(case=strategy(operation, mode, real_ids), key=IDEMPOTENCY_KEYS)
    def run(case, key):
        sent = {**headers, **({"Idempotency-Key": key} if key else {})}
        response = case.call(cookies=cookies, headers=sent, buffered=True)
        case.validate_response(response, checks=[not_a_server_error], headers=sent)
        if 200 <= response.status_code < 300 and "json" in response.headers.get("content-type", [""])[0]:
            errors = answer_errors(case.method.upper(), case.formatted_path, response.status_code,
                                   response.json())
            assert not errors, f"{case.method} {case.formatted_path}: " + "; ".join(errors[:5])

    run()


@pytest.mark.parametrize("role", ["player", "narrator"])
def test_no_request_gets_a_server_error(role, game, medic, narrator_user):
    cookies, headers = signed_in(medic.user if role == "player" else narrator_user)
    real_ids = {**game, "character_id": medic.pk}
    failures = []
    with inside_the_test_transaction():
        schema = schemathesis.openapi.from_wsgi("/api/schema/", application, buffered=True)
        for operation in (result.ok() for result in schema.get_all_operations()):
            for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
                try:
                    fuzz(operation, mode, real_ids, cookies, headers)
                # Schemathesis raises its failures as an exception group: report them all.
                except (Exception, BaseExceptionGroup) as failure:  # noqa: BLE001
                    notes = "\n".join(getattr(failure, "__notes__", []))
                    failures.append(f"{operation.label} ({mode.value}): {failure}\n{notes}")
    assert not failures, "\n\n".join(failures)
