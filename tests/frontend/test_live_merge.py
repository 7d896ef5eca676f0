"""What a phone holds after a live message, by the phone's own code (js/live.js, run in
Node by tests/phone_merge.py): the rules the live tests rely on when they compare it with
a fresh fetch."""
from __future__ import annotations

from phone_merge import PhoneInNode, apply_push

HELD = {"character": {"id": 7}, "version": 41, "effects": [{"push": "p-1", "text": "Fog"}]}


def effect(push: str, **to) -> dict:
    return {"type": "effect", **(to or {"character": 7}), "server_time": 10.0,
            "effect": {"push": push, "text": "Night falls"}}


def snapshot(version: int) -> dict:
    return {"type": "snapshot", "server_time": 12.0,
            "snapshot": {"character": {"id": 7}, "version": version, "effects": []}}


def test_a_new_effect_is_added_and_moves_the_version_by_one_once():
    after = apply_push(HELD, effect("p-2"))
    assert after["version"] == 42
    assert [e["push"] for e in after["effects"]] == ["p-1", "p-2"]
    assert apply_push(after, effect("p-2")) == after


def test_an_older_snapshot_is_ignored_unless_it_opens_a_connection():
    assert apply_push(HELD, snapshot(40)) == HELD
    assert apply_push(HELD, snapshot(40), first=True)["version"] == 40
    # A newer one replaces what is held, with the server's time it came with.
    assert apply_push(HELD, snapshot(45)) == {**snapshot(45)["snapshot"], "server_time": 12}


def test_a_phone_that_follows_many_characters_adds_an_effect_for_everyone_once():
    other = {"character": {"id": 8}, "version": 3, "effects": [{"push": "p-2", "text": "Night falls"}]}
    narrators = PhoneInNode()
    try:
        first = narrators.receive({"type": "event_snapshot", "characters": [HELD, other],
                                   "server_time": 9.0}, first=True)
        assert [s["character"]["id"] for s in first] == [7, 8]
        changed = narrators.receive(effect("p-2", characters="all"))
        # Denis held it already: only Alice's snapshot moves.
        assert [(s["character"]["id"], s["version"]) for s in changed] == [(7, 42)]
        assert narrators.receive(effect("p-2", characters="all")) == []
    finally:
        narrators.forget()
