"""The line a rehearsal prints for each step (docs/rehearse.md, "What it prints"): its
time, who plays it, what it does in words, and the verdict.
"""
from __future__ import annotations

from rehearsals.expectations import show_value
from rehearsals.race_reading import CONFIRMATIONS
from rehearsals.script import (CLUB_KINDS, FIGHT_KINDS, GAME_KINDS, ITEM_KINDS, RACE_KINDS, Step,
                               format_time)


def step_line(step: Step, verdict: str) -> str:
    who, what = _describe(step)
    if step.expect and step.kind != "expect":
        what += f", expect {', '.join(step.expect)}"
    return f"{format_time(step.at_s):>8}  {who:<10} {what}  {verdict}"


def _describe(step: Step) -> tuple[str, str]:
    params = " " + ", ".join(f"{k}={show_value(v)}" for k, v in step.params.items()) if step.params else ""
    if step.kind == "expect":
        return "", f"expect {', '.join(step.expect)}"
    if step.kind in FIGHT_KINDS:
        return step.by, describe_fight(step)
    if step.kind in RACE_KINDS:
        return step.by, describe_race(step)
    if step.kind in ITEM_KINDS or step.kind in CLUB_KINDS or step.kind in GAME_KINDS:
        return step.by, describe_item(step)
    if step.kind == "do":
        target = f" on {step.on}" if step.on != step.by else ""
        return step.by, f"{step.action}{target}{params}"
    if step.kind == "day":
        return step.by, f"day {step.action}"
    if step.kind in ("treat", "complete", "abort"):
        return step.by, f"{step.kind} {step.action} on {step.on}{params}"
    if step.kind == "effect":
        e = step.effect
        to = ", ".join(e["to"]) if e["to"] else (f"team {e['team']}" if e["team"] else "everyone")
        extra = (f" for {format_time(e['duration_s'])}" if e["duration_s"] else "") + \
                (f", set_state {e['set_state']}" if e["set_state"] else "")
        return step.by, f'effect "{e["text"]}" to {to}{extra}'
    return step.by, step.kind


def describe_fight(step: Step) -> str:
    f = step.fight
    weapon = f.get("weapon_in_hand", "none")
    holding = "" if weapon == "none" else \
        f" holding {'a firearm' if weapon == 'firearm' else f'a {weapon} weapon'}"
    if step.kind == "duel":
        answer = {"pending": "no answer yet"}.get(f["answer"], f"{f['opponent']} {f['answer']}s")
        return f"duel {f['opponent']}: {answer}{holding}"
    if step.kind == "answer_duel":
        return f"answer_duel {f['answer']}{holding}"
    if step.kind == "union":
        allies = f" with {', '.join(f['attackers'])}" if f["attackers"] else ""
        drawn = ", weapon drawn" if f["weapon_drawn"] else ""
        return f"union{allies} against {', '.join(f['defenders'])}{drawn}"
    if step.kind == "join_union":
        return f"join_union on {f['defender']}'s side"
    if step.kind == "acharnement":
        return f"acharnement {f['kind']} on {f['victim']}"
    if step.kind == "search":
        return f"search {f['target']} ({f['location']}){', strip' if f['strip'] else ''}"
    if step.kind == "heal":
        return f"{f['kind']} {f['patient']}"
    if step.kind == "hit_by":
        return f"hit by {f['shooter']}"
    if step.kind == "stop_heal":
        return f"stop_heal ({f['reason']})"
    return step.kind


def describe_item(step: Step) -> str:
    spec, kind = step.item, step.kind
    if kind == "fire":
        extra = "".join(f", {flag}" for flag in ("obstacle", "misfire") if spec[flag])
        return f"fire {spec['item']} at {spec['target']} from {spec['distance']:g} m{extra}"
    if kind == "give":
        return f"give {spec['item']} to {spec['to']}"
    if kind == "ingest" and spec["target"] != step.by:
        return f"ingest {spec['item']}: makes {spec['target']} swallow it"
    if kind == "chrony":
        measure = f"{spec['energy_j']:g} J" if spec["energy_j"] is not None \
            else f"{spec['speed_mps']:g} m/s with {spec['bb_weight_g']:g} g"
        return f"chrony {spec['replica']} ({spec['kind']}): {measure}"
    if kind == "announce_game":
        return f"announce_game \"{spec['scenario']}\" at {format_time(spec['start_at_s'])}"
    if kind == "stop_game":
        return "stop_game" + (f": {spec['reason']}" if spec["reason"] else "")
    if kind in GAME_KINDS:
        return kind
    if kind == "sanction":
        return f"sanction {spec['member']}: {spec['kind']}" + \
            (f" ({spec['category']})" if spec["category"] else "") + \
            (", cheating" if spec["cheating"] else "")
    return f"{kind} {spec.get('item') or spec.get('member')}"


def describe_race(step: Step) -> str:
    spec, kind = step.race, step.kind
    if kind == "race_start":
        return f"race_start {spec['course']} (mass start)" if "course" in spec \
            else f"race_start {spec['entry']}"
    if kind == "gear":
        return f"gear {spec['entry']}: " + ", ".join(
            item if ok else f"no {item}" for item, ok in spec["gear"].items())
    if kind == "punch":
        mine = step.by == spec["entry"]           # the entry's own phone
        return f"punch {spec['checkpoint']}" + ("" if mine else f" for {spec['entry']}")
    if kind == "import":
        rows = [line for line in spec["csv"].splitlines()[1:] if line.strip()]
        return f"import {len(rows)} row(s)"
    if kind == "grab":
        left_out = [c for c in CONFIRMATIONS if c not in spec["confirmations"]]
        return f"grab {spec['entry']}" + (f", not confirmed: {', '.join(left_out)}"
                                          if left_out else "")
    if kind == "carrier":
        return f"carrier of {spec['entry']}: {spec['carrier']}"
    if kind == "void":
        return f"void the latest life loss of {spec['entry']}"
    if kind == "infraction":
        points = f" ({spec['penalty_points']} points)" if spec["penalty_points"] else ""
        return f"infraction {spec['kind']} on {spec['entry']}{points}"
    if kind == "finish" and spec["flags_on_belt"] is not None:
        return f"finish {spec['entry']}, {spec['flags_on_belt']} flag(s) on the belt"
    if kind == "result_list":
        return "export the ResultList (IOF XML 3.0) and read it back"
    if kind == "dnf" and not spec["finger_back"]:
        return f"dnf {spec['entry']}, finger not back"
    return f"{kind} {spec['entry']}"
