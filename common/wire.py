"""The wire format's one description, as JSON Schema: the answers' output serializers
(`<app>/answers.py`), read through the OpenAPI document they make (/api/schema/). The REST
answers (tests/wire.py) and the websocket's messages (live/messages_schema.py), which carry
the same snapshots, calls and entries, are checked against the same components, so a
field is described once.

Only the tests validate: nothing here runs on the field."""
from __future__ import annotations

import copy
import functools
import json


@functools.cache
def openapi_document() -> dict:
    """/api/schema/ as the app serves it (JSON, lazy texts rendered)."""
    from drf_spectacular.generators import SchemaGenerator
    from drf_spectacular.renderers import OpenApiJsonRenderer
    return json.loads(OpenApiJsonRenderer().render(SchemaGenerator().get_schema(request=None, public=True)))


def strict(node):
    """OpenAPI 3.0 as JSON Schema (`nullable` as a null type) and every object that names
    its fields closed to others: an answer that gains a field is outside it."""
    if isinstance(node, list):
        return [strict(item) for item in node]
    if not isinstance(node, dict):
        return node
    node = {key: strict(value) for key, value in node.items()}
    if node.get("type") == "object" and "properties" in node and "additionalProperties" not in node:
        node["additionalProperties"] = False
    if node.pop("nullable", False):
        if isinstance(node.get("type"), str):
            node["type"] = [node["type"], "null"]
            if "enum" in node:
                node["enum"] = [*node["enum"], None]
        else:
            node = {"anyOf": [node, {"type": "null"}]}
    return node


@functools.cache
def components() -> dict:
    """The document's components, strict: what `answer(name)` points into."""
    return strict(copy.deepcopy(openapi_document().get("components", {})))


def answer(name: str) -> dict:
    """The schema of an output serializer by its name (`HelpCallAnswer`); resolved in a
    schema that carries `components()`."""
    return {"$ref": f"#/components/schemas/{name}"}
