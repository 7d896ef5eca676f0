"""The paper casualty card: a ruleset's states in order of severity, how long each lasts
and what moves a character out of it, read from the ruleset's data with one event's
options. When phones die, a medic runs the scene with this card and a stopwatch.

Pure: no Django. Only what the data says plainly is printed (a timer that ends in a
state, a declared action that enters one or sets such a timer); conditions that depend on
the event's options are decided here, the rest is left to the rulebook.
"""
from __future__ import annotations

from .elements import split_element
from .engine import UnknownOption
from .messages import pick


def duration_text(seconds) -> str:
    """90 -> "1 min 30 s", 3600 -> "1 h", 5400 -> "1 h 30 min"."""
    seconds = int(round(seconds))
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    parts = [f"{hours} h" if hours else "", f"{minutes} min" if minutes else "",
             f"{secs} s" if secs else ""]
    return " ".join(p for p in parts if p) or "0 s"


def _option(options: dict, name: str):
    """The event's value of a declared option (the loader checked every name the data
    uses): an undeclared one is a mistake, never a silent default (Rules.option)."""
    try:
        return options[name]
    except KeyError:
        raise UnknownOption(f"no option '{name}' in this event's options") from None


def _applies(params: dict, options: dict) -> bool:
    """Whether an element's option conditions hold for this event (others are runtime)."""
    if "when_option" in params and not _option(options, params["when_option"]):
        return False
    if "unless_option" in params and _option(options, params["unless_option"]):
        return False
    return all(_option(options, k) == v for k, v in (params.get("when_option_is") or {}).items())


def _value(raw, options: dict):
    return _option(options, raw[1:]) if isinstance(raw, str) and raw.startswith("$") else raw


def _duration(raw, options: dict, lang: str, level_words: dict) -> str | None:
    """A duration as printed: "15 min", or one per skill level "1 h (novice) / 4 h (expert)"."""
    if isinstance(raw, dict) and "by_level" in raw:
        parts = []
        for level, value in raw["by_level"].items():
            seconds = _value(value, options)
            if isinstance(seconds, (int, float)) and not isinstance(seconds, bool):
                parts.append(f"{duration_text(seconds)} ({pick(level_words.get(level, level), lang)})")
        return " / ".join(parts) or None
    seconds = _value(raw, options)
    if isinstance(seconds, (int, float)) and not isinstance(seconds, bool) and seconds > 0:
        return duration_text(seconds)
    return None


def _enters(elements: list, options: dict) -> str | None:
    """The state a list of elements enters at its top level, if it names one (not a
    parameter the person chooses, like a narrator's correction)."""
    for raw in elements or []:
        name, params = split_element(raw)
        if name != "enter" or not _applies(params, options):
            continue
        state = _value(params.get("state"), options)
        return None if not isinstance(state, str) or state.startswith("@") else state
    return None


def _timer_ends_in(ruleset, timer: str, state: str, options: dict) -> str | None:
    spec = ruleset.timers.get(timer, {}).get("on_expire", {})
    return _enters(spec.get(state, spec.get("*", [])), options)


def _timers_set(ruleset, state: str, elements: list, options: dict, lang: str,
                level_words: dict) -> list[str]:
    """ "Treatment deadline: 15 min → In a coma" for each timer that moves `state` on."""
    lines = []
    for raw in elements or []:
        name, params = split_element(raw)
        if name != "set_timer" or not _applies(params, options):
            continue
        target = _timer_ends_in(ruleset, params["timer"], state, options)
        if target not in ruleset.states:
            continue
        duration = _duration(params.get("after"), options, lang, level_words)
        if target is None or duration is None:
            continue
        label = pick(ruleset.timers[params["timer"]]["labels"], lang)
        lines.append(f"{label}: {duration} → {pick(ruleset.states[target]['labels'], lang)}")
    return lines


def _action_line(ruleset, action: dict, state: str, options: dict, lang: str,
                 level_words: dict) -> str | None:
    outcome = action.get("outcomes", {}).get(state, action.get("outcomes", {}).get("*"))
    if not outcome:
        return None
    target = _enters(outcome, options)
    target = target if target in ruleset.states else None
    after = target or state
    moves = [f"→ {pick(ruleset.states[target]['labels'], lang)}"] if target and target != state else []
    moves += _timers_set(ruleset, after, outcome, options, lang, level_words)
    if not moves:
        return None
    head = pick(action["labels"], lang)
    extras = [pick(ruleset.kits[action["kit"]]["labels"], lang)] if action.get("kit") in ruleset.kits else []
    took = _duration(action.get("duration_s"), options, lang, level_words)
    if took:
        extras.insert(0, took)
    if extras:
        head += f" ({', '.join(extras)})"
    return f"{head}: {'; '.join(moves)}"


def casualty_card(ruleset, options: dict, lang: str, level_words: dict | None = None) -> list[dict]:
    """[{state, severity, lasts: [...], moves: [...]}], least severe first. `level_words`
    names the skill levels ({"novice": {fr, es, en}}) in the card's language."""
    level_words = level_words or {}
    card = []
    for key, state in sorted(ruleset.states.items(), key=lambda item: item[1]["severity"]):
        moves = []
        for action in ruleset.actions.values():
            if set(action.get("declared_by") or []) <= {"rules"}:
                continue   # applied by the server after a fight, not something a medic runs
            line = _action_line(ruleset, action, key, options, lang, level_words)
            if line:
                moves.append(line)
        card.append({"key": key, "state": pick(state["labels"], lang), "severity": state["severity"],
                     "lasts": _timers_set(ruleset, key, state.get("on_enter"), options, lang, level_words),
                     "moves": moves})
    return card
