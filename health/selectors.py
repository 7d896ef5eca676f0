"""Reads of health: the parts of a snapshot (health/snapshot.py assembles them), a
treatment as its medic sees it, the treatments a medic may give, a character's history.

Labels stay {fr, es, en} here; `common.i18n.localize` picks one language at the edge (REST answer or
websocket send), so one snapshot serves every phone.
"""
from __future__ import annotations

from datetime import datetime

from django.db.models import F, Q
from django.utils.translation import gettext_noop

from common.i18n import Labels
from players.models import Character, JournalEntry
from rulesets.messages import LANGUAGES, pick

from .models import HealthState, Treatment


def timer_view(event, ruleset, status, key, due, game_s) -> dict:
    leads_to = ruleset.leads_to(key, status)
    wall = event.wall_time(due)
    return {
        "key": key,
        "label": ruleset.timers[key]["labels"],
        "game_s": due,
        "remaining_s": round(max(0.0, due - game_s), 3),
        "at": wall.isoformat() if wall else None,
        "leads_to": leads_to_view(ruleset, leads_to) if leads_to else None,
    }


def leads_to_view(ruleset, key: str) -> dict:
    """The state a deadline leads to, with the name a countdown gives it ("Coma" in
    "Coma dans 14:59", where the state itself reads "Dans le coma")."""
    state = ruleset.states[key]
    return {"key": key, "label": state["labels"],
            "countdown_label": state.get("countdown_label", state["labels"])}


def points_view(rules, state, sheet, timers: list[dict]) -> list[dict]:
    """Each score as it stands, with when its temporary loss comes back (a combat score
    lowered by a fight recovers ten minutes after the last one)."""
    points = []
    for key, spec in rules.ruleset.points.items():
        if state.status in spec.get("hidden_in", []):
            continue
        base = int(sheet.get(spec["base"], 0)) if spec.get("base") else None
        lowered = bool(spec.get("loss") and state.values.get(spec["loss"]))
        recovery = next((t for t in timers if t["key"] == spec.get("recovers_with")), None)
        top = rules.resolve(spec["max"]) if spec.get("max") is not None else None
        points.append({"key": key, "label": spec["labels"], "base": base, "max": top,
                       "value": rules.point_value(state, sheet, key),
                       "recovers": recovery if lowered else None})
    return points


def action_params(action: dict) -> list[dict]:
    """What a form asks before declaring an action (where a hit landed, with what)."""
    return [{"key": name, "type": p["type"], "label": p["labels"], "default": p.get("default"),
             "choices": [{"key": k, "label": v} for k, v in (p.get("choices") or {}).items()]}
            for name, p in (action.get("params") or {}).items()]


def declarable_actions(ruleset, rules, state) -> list[dict]:
    return [{"key": key, "label": action["labels"], "params": action_params(action),
             "costs": action.get("costs") or {}}
            for key, action in ruleset.actions.items()
            if "self" in action["declared_by"] and rules.available(state, key)]


def character_sheet_view(ruleset, character: Character) -> dict:
    """The player's own character sheet: skills with their levels, psychological traits,
    kits held."""
    skills = [{"key": key, "label": ruleset.skill_label(key), "level": level}
              for key, level in (character.sheet.get("skills") or {}).items()
              if level not in (None, False, "", "none")]
    kits = [{"key": key, "label": ruleset.kits[key]["labels"] if key in ruleset.kits else key,
             "count": count} for key, count in character.kits.items()]
    psych = character.sheet.get("psych") or {}
    traits = [{"key": key, "label": label, "value": psych.get(key)}
              for key, label in ruleset.traits.items()]
    abilities = [{"key": key, "label": ruleset.abilities[key]["labels"],
                  "explains": ruleset.abilities[key]["explains"]}
                 for key in character.sheet.get("abilities") or [] if key in ruleset.abilities]
    return {"skills": skills, "psych": psych, "traits": traits, "kits": kits,
            "abilities": abilities}


def treatment_view(treatment: Treatment, now: datetime) -> dict:
    event = treatment.event
    ruleset = event.rules().ruleset
    game_s = event.game_time(now)
    ready = treatment.ready_game_s
    wall = event.wall_time(ready)
    return {"id": treatment.pk, "action": treatment.action,
            "label": ruleset.actions[treatment.action]["labels"],
            "patient": {"id": treatment.patient_id, "name": treatment.patient.name},
            "level": treatment.level, "params": treatment.params, "status": treatment.status,
            "started_game_s": treatment.started_game_s, "duration_s": treatment.duration_s,
            "ready_game_s": ready, "remaining_s": round(max(0.0, ready - game_s), 3),
            "ready_at": wall.isoformat() if wall else None,
            "result": _result_labels(event, ruleset, treatment.result, game_s)}


def _result_labels(event, ruleset, result: dict, game_s: float) -> dict:
    """An analysis reveals a state key; a treatment whose result the rules decide (a
    surgery) leaves the patient in a known state with its timers: the medic reads labels
    and countdowns."""
    shown = dict(result)
    revealed = dict(result.get("revealed") or {})
    if revealed.get("state") in ruleset.states:
        key = revealed["state"]
        revealed["state"] = {"key": key, "label": ruleset.states[key]["labels"]}
        shown["revealed"] = revealed
    if result.get("state") in ruleset.states:
        key = result["state"]
        shown["state"] = {"key": key, "label": ruleset.states[key]["labels"]}
        shown["timers"] = sorted((timer_view(event, ruleset, key, timer, due, game_s)
                                  for timer, due in (result.get("timers") or {}).items()),
                                 key=lambda t: t["game_s"])
    return shown


def running_treatments(event, patient_ids: list[int], game_s: float) -> dict[int, list[dict]]:
    """The timed actions running on each of these characters, as the patient sees them:
    what, by whom (the character's name, nothing else of them) and when it ends."""
    ruleset = event.rules().ruleset
    rows = (Treatment.objects.filter(event=event, patient_id__in=patient_ids,
                                     status=Treatment.RUNNING)
            .select_related("medic").order_by("id"))
    found: dict[int, list[dict]] = {}
    for treatment in rows:
        action = ruleset.actions.get(treatment.action)
        if action is None:
            continue
        ready = treatment.ready_game_s
        wall = event.wall_time(ready)
        found.setdefault(treatment.patient_id, []).append({
            "id": treatment.pk, "action": {"key": treatment.action, "label": action["labels"]},
            # A medic's care, or someone else's timed act on them (a Golpe Mortal).
            "care": "medic" in action["declared_by"],
            "by": treatment.medic.name, "game_s": ready,
            "remaining_s": round(max(0.0, ready - game_s), 3),
            "at": wall.isoformat() if wall else None})
    return found


def medic_options(medic: Character, patient: Character) -> list[dict]:
    """The treatments this medic's sheet allows, without revealing the patient's state:
    what a medic learns of the patient's health comes only from the rules (an analysis)."""
    rules = medic.event.rules()
    options = []
    for key, action in rules.ruleset.actions.items():
        if "other" in action["declared_by"]:
            level = None  # anyone may (a killing blow)
        elif "medic" in action["declared_by"]:
            level = rules.skill_level(key, medic.sheet)
            if level is None:
                continue
        else:
            continue
        kit = action.get("kit")
        options.append({
            "key": key, "label": action["labels"], "level": level,
            "kit": kit, "kits_left": int(medic.kits.get(kit, 0)) if kit else None,
            "params": action_params(action),
            "duration_s": rules.duration(key, level=level),  # with the declared defaults
        })
    return options


HISTORY_WORDS = Labels({
    "started": gettext_noop("started"),
    "completed": gettext_noop("completed"),
    "aborted": gettext_noop("aborted"),
    "effect": gettext_noop("Effect"),
})


def _history_label(ruleset, entry) -> dict | str:
    if entry.kind in ("action", "treatment"):
        action, _, step = entry.what.partition(":")
        label = ruleset.actions.get(action, {}).get("labels", {"en": action})
        if step:
            return {lang: f"{label.get(lang, action)} ({HISTORY_WORDS[step][lang]})"
                    for lang in LANGUAGES}
        return label
    if entry.kind == "timer":
        timers = [ruleset.timers[t]["labels"] for t in entry.what.split(",") if t in ruleset.timers]
        return {lang: ", ".join(pick(t, lang) for t in timers) for lang in LANGUAGES}
    if entry.kind == "effect":
        return f"{entry.detail.get('text', '')}"
    return entry.what


def character_history(character: Character, *, limit: int = 30) -> list[dict]:
    """What happened to the character, newest first, as its player may read it."""
    ruleset = character.event.rules().ruleset
    mine = Q(character=character, kind__in=["action", "treatment", "timer", "effect"])
    for_everyone = Q(character=None, kind="effect")
    entries = (JournalEntry.objects.filter(mine | for_everyone, event_id=character.event_id)
               .order_by("-id")[:limit])
    rows = []
    for entry in entries:
        before = (entry.before or {}).get("status")
        after = (entry.after or {}).get("status")
        rows.append({
            "id": entry.id, "at": entry.at.isoformat(), "game_s": round(entry.game_s, 3),
            # A declaration sent late: when it was tapped (`at` is when it arrived).
            "tapped_at": (entry.detail or {}).get("tapped_at"),
            "who": entry.actor_label, "kind": entry.kind, "what": _history_label(ruleset, entry),
            "state_before": ruleset.states[before]["labels"] if before in ruleset.states else None,
            "state_after": ruleset.states[after]["labels"] if after in ruleset.states else None,
        })
    return rows


def snapshot_versions_of(event_id: int, character_ids: list[int]) -> dict[int, int]:
    """Each character's snapshot sequence number (its own part and the event's), in one
    query."""
    return dict(HealthState.objects.filter(event_id=event_id, pk__in=character_ids)
                .values_list("pk", F("version") + F("event__snapshot_version")))
