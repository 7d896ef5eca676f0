"""The REST wire format, checked where answers are built: every JSON answer that a test
reads from /api/ is validated against the OpenAPI document's schema for its operation and
status (tests/fixtures.py `client_for`). Strictly: an object holds the fields its schema
declares and no others, so an answer that gains or loses a field fails the test that read
it until the answer's serializer (the schema's source) says so too."""
from __future__ import annotations

import functools
import re

import jsonschema
from rest_framework.test import APIClient

from common.wire import components, openapi_document as document, strict


@functools.cache
def _operations() -> list[tuple[re.Pattern, str, dict]]:
    found = []
    for template, operations in document()["paths"].items():
        pattern = re.compile("^" + re.sub(r"\{[^}]+\}", "[^/]+", template) + "$")
        for method, operation in operations.items():
            found.append((pattern, method.upper(), operation))
    return found


def _operation(method: str, path: str) -> int | None:
    """The index of the operation serving this request in `_operations()`."""
    for index, (pattern, operation_method, _) in enumerate(_operations()):
        if operation_method == method and pattern.match(path):
            return index
    return None


@functools.cache
def _validator(operation: int, status: int) -> jsonschema.Validator | None:
    """Built once per operation and status: every API test reads through it."""
    declared = _operations()[operation][2].get("responses", {}).get(str(status), {})
    schema = declared.get("content", {}).get("application/json", {}).get("schema")
    if schema is None:
        return None
    return jsonschema.Draft202012Validator({**strict(schema), "components": components()})


def answer_errors(method: str, path: str, status: int, body) -> list[str]:
    """What in this answer its schema does not allow (`server_time`, which every answer
    carries for the phone's clock, aside). Nothing when the document declares no schema
    for it (an error, or a path the document leaves out)."""
    operation = _operation(method, path)
    validator = None if operation is None else _validator(operation, status)
    if validator is None:
        return []
    if isinstance(body, dict):
        body = {key: value for key, value in body.items() if key != "server_time"}
    return [f"{'/'.join(map(str, error.absolute_path)) or '(top)'}: {error.message}"
            for error in validator.iter_errors(body)]


class ConformingClient(APIClient):
    """An API client that fails the test on an answer its OpenAPI schema does not describe."""

    def request(self, **kwargs):
        response = super().request(**kwargs)
        path, method = kwargs.get("PATH_INFO", ""), kwargs.get("REQUEST_METHOD", "GET")
        if (path.startswith("/api/") and 200 <= response.status_code < 300
                and response.get("Content-Type", "").startswith("application/json")):
            errors = answer_errors(method, path, response.status_code, response.json())
            assert not errors, (f"{method} {path} answered {response.status_code} outside its "
                                "OpenAPI schema:\n" + "\n".join(errors[:20]))
        return response
