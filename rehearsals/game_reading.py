"""The game steps of a rehearsal file (docs/rehearse.md, "Game stops and the games of a
day"): a player's game stop (the Emergencia, "sauf en cas d'accident"), and the games of
an airsoft day announced, started and ended by the organisers; also the `game` and
`next_game` of a clock's `expect:` (what every phone shows of them). Checked before
anything is played; game_playing.GameSteps plays them.
"""
from __future__ import annotations

from common.i18n import refusal_text
from rulesets import RuleRefused
from schedule.services.games import scenario_options_check

from rehearsals.script import NARRATOR, checked_mapping, parse_time

ANNOUNCE_KEYS = {"scenario", "start_at", "options", "description"}
GAME_CHECKS = {"number", "scenario", "status", "options"}
GAME_STATUSES = ("announced", "playing")   # an ended game is no longer shown


def read_game_step(reader, kind: str, raw: dict) -> tuple[str, dict]:
    if "on" in raw:
        raise ValueError(f"{kind} takes no 'on'")
    if kind == "stop_game":
        return _read_stop(reader, raw)
    if not reader.ruleset.has("games"):
        raise ValueError(f"{kind}: the ruleset {reader.ruleset.key} has no games of a day")
    if raw.get("by", NARRATOR) != NARRATOR:
        raise ValueError(f"{kind} is done by the organisers: 'by: narrator' (the default)")
    value = raw[kind]
    if kind != "announce_game":
        if value is not True:
            raise ValueError(f"write '{kind}: true'")
        return NARRATOR, {}
    spec = checked_mapping(value, "announce_game", ANNOUNCE_KEYS)
    if not isinstance(spec.get("scenario"), str) or not spec["scenario"].strip():
        raise ValueError("announce_game.scenario: the scenario's name is required")
    if "start_at" not in spec:
        raise ValueError("announce_game.start_at: when it starts, an `at` time (\"0:30\")")
    description = spec.get("description", "")
    if not isinstance(description, str):
        raise ValueError("announce_game.description: a text")
    options = dict(checked_mapping(spec.get("options"), "announce_game.options"))
    try:
        scenario_options_check(reader.ruleset, options)
    except RuleRefused as exc:
        raise ValueError(f"announce_game.options: {refusal_text(exc, 'en')}") from None
    return NARRATOR, {"scenario": spec["scenario"], "description": description,
                      "start_at_s": parse_time(spec["start_at"], "announce_game.start_at",
                                               negative_ok=True),
                      "options": options}


def _read_stop(reader, raw: dict) -> tuple[str, dict]:
    """`stop_game: "a twisted ankle"` (or `true`): anyone in the game stops it."""
    by = raw.get("by")
    if by is None or by == NARRATOR:
        raise ValueError("stop_game is a player's game stop: write 'by: <character key>' "
                         "(the organisers' stop is `pause: true`)")
    reader.character(by, "by")
    value = raw["stop_game"]
    if value is True:
        return by, {"reason": ""}
    if not isinstance(value, str) or not value.strip() or len(value) > 200:
        raise ValueError("stop_game: true, or why (1 to 200 characters)")
    return by, {"reason": value}


def read_game_checks(reader, where: str, raw) -> dict | None:
    """A clock's `game:` or `next_game:`: null (none shown), or the fields to compare; its
    `options` are the ones the phone shows as in force (`{medic_mode: true}`)."""
    if raw is None:
        return None
    if not reader.ruleset.has("games"):
        raise ValueError(f"{where}: the ruleset {reader.ruleset.key} has no games of a day")
    checks = checked_mapping(raw, where, GAME_CHECKS)
    if "status" in checks and checks["status"] not in GAME_STATUSES:
        raise ValueError(f"{where}.status: one of {', '.join(GAME_STATUSES)}")
    if "number" in checks and (not isinstance(checks["number"], int)
                               or isinstance(checks["number"], bool) or checks["number"] < 1):
        raise ValueError(f"{where}.number: the game's number, from 1")
    checked_mapping(checks.get("options"), f"{where}.options", set(reader.ruleset.options))
    return checks


def game_diff(where: str, want: dict | None, shown: dict | None, compare) -> list[str]:
    """`shown`: the announcement as every phone gets it (players.selectors.clock_snapshot),
    whose options are fields of its own."""
    if want is None or shown is None:
        return compare(where, None if want is None else "a game",
                       None if shown is None else f"game {shown['number']} ({shown['scenario']})")
    lines = []
    for field, value in want.items():
        if field == "options":
            for key, wanted in value.items():
                lines += compare(f"{where}.options.{key}", wanted, shown.get(key))
        else:
            lines += compare(f"{where}.{field}", value, shown.get(field))
    return lines
