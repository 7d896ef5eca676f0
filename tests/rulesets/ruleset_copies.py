"""Broken copies of the shipped rulesets, for the load-check tests: a shipped file as
plain data, changes that break one place in it, and the error (or ruleset) that loading
the changed copy gives."""
from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest
import yaml

from rulesets import RulesetError, load_ruleset
from rulesets.loader import DATA_DIR

# libyaml when the machine has it: the load-check tests read and write a ruleset each.
LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)

LANGUAGES = "labels need the languages fr, es, en"


@cache
def _shipped_text(key: str) -> str:
    return json.dumps(yaml.load((DATA_DIR / f"{key}.yaml").read_text("utf-8"), Loader=LOADER))


def ruleset_data(key: str) -> dict:
    """A shipped ruleset as plain data, its YAML anchors unshared (a change touches one place)."""
    return json.loads(_shipped_text(key))


def write(tmp_path, data: dict, name: str) -> Path:
    path = tmp_path / name
    path.write_text(yaml.dump(data, Dumper=DUMPER, allow_unicode=True, sort_keys=False),
                    encoding="utf-8")
    return path


def load_error(tmp_path, data: dict, name: str) -> str:
    """The whole load error of `data` written as the file `name`, which it names first."""
    with pytest.raises(RulesetError) as exc:
        load_ruleset(write(tmp_path, data, name))
    message = str(exc.value)
    assert message.startswith(f"{name}: "), message
    return message


def refusal(tmp_path, key: str, change) -> str:
    """The load error of a copy of ruleset `key` changed by `change`, after its file name."""
    data = ruleset_data(key)
    change(data)
    name = f"{key}_broken.yaml"
    return load_error(tmp_path, data, name)[len(f"{name}: "):]


def loaded(tmp_path, key: str, change):
    data = ruleset_data(key)
    change(data)
    return load_ruleset(write(tmp_path, data, f"{key}_broken.yaml"))


def node_at(data, path):
    """data[path...]: the mapping or list a change works in."""
    for step in path:
        data = data[step]
    return data


def put(*path_and_value):
    """A change that sets data[path...] = value."""
    *path, last, value = path_and_value

    def change(data):
        node_at(data, path)[last] = value
    return change


def drop(*path):
    """A change that deletes data[path...]."""
    *path, last = path

    def change(data):
        del node_at(data, path)[last]
    return change


def append(*path_and_value):
    """A change that appends value to the list data[path...]."""
    *path, value = path_and_value

    def change(data):
        node_at(data, path).append(value)
    return change
