"""Reads: what a phone is shown. A read never shows a state whose deadline has passed:
it advances the stored state in memory with the same core function the timer task uses.

Labels stay {fr, es, en} here; `localize` picks one language at the edge (REST answer or
websocket send), so one snapshot serves every phone.
"""
from __future__ import annotations

from datetime import datetime

from django.db.models import Prefetch, Q

from combat.selectors import fights_by_character
from effects.load import load_view
from effects.models import Effect, Item
from players.models import Character, Event, JournalEntry
from rulesets.messages import LANGUAGES, pick

from .body import body_view
from .models import Treatment


def localize(obj, lang: str):
    """Replace every {fr, es, en} label dict inside obj by its text in `lang`."""
    if isinstance(obj, dict):
        if obj and set(obj) <= set(LANGUAGES) and all(isinstance(v, str) for v in obj.values()):
            return pick(obj, lang)
        return {k: localize(v, lang) for k, v in obj.items()}
    if isinstance(obj, list):
        return [localize(v, lang) for v in obj]
    return obj


def clock_snapshot(event: Event, now: datetime) -> dict:
    """The game clock, and what every phone shows of the games of the day: the game being
    played and the next one announced (players/games.py keeps them on the event row, so
    this costs no query)."""
    announced = event.announcement or {}
    return {"running": event.running, "game_time_s": round(event.game_time(now), 3),
            "game": announced.get("game"), "next_game": announced.get("next_game")}


def active_effects_q(event: Event, game_s: float) -> Q:
    return Q(removed=False) & (Q(ends_game_s__isnull=True) | Q(ends_game_s__gt=game_s))


EFFECT_FIELDS = ("id", "character_id", "push_id", "text", "started_game_s", "duration_s",
                 "ends_game_s")
HELD_ITEM_FIELDS = ("id", "holder_id", "name", "code", "load")


def characters_for_snapshot(event: Event, now: datetime, **filters) -> list[Character]:
    """Characters with what a snapshot needs, in four queries however many they are (three
    more when the ruleset has fights between characters).
    They share one event object, so the ruleset and options are read once."""
    game_s = event.game_time(now)
    active = Effect.objects.filter(active_effects_q(event, game_s)).only(*EFFECT_FIELDS)
    for_everyone = list(active.filter(event=event, character=None))
    prefetches = [Prefetch("effects", queryset=active, to_attr="own_effects")]
    if event.rules().ruleset.load:  # Carga: one more query, only in rulesets that have it
        prefetches.append(Prefetch("items_held", to_attr="held_items",
                                   queryset=Item.objects.only(*HELD_ITEM_FIELDS)))
    characters = list(Character.objects.filter(event=event, **filters)
                      .select_related("team", "health").prefetch_related(*prefetches))
    fights = fights_by_character(event, [c.pk for c in characters], game_s)
    for character in characters:
        character.event = event
        character.active_effects = sorted(character.own_effects + for_everyone,
                                          key=lambda e: (e.started_game_s, e.pk))
        character.fights = fights.get(character.pk, [])
    return characters


def character_for_snapshot(character_id: int, now: datetime, event: Event | None = None) -> Character | None:
    if event is None:
        character = Character.objects.select_related("event").filter(pk=character_id).first()
        if character is None:
            return None
        event = character.event
    found = characters_for_snapshot(event, now, pk=character_id)
    return found[0] if found else None


def _timer_view(event, ruleset, status, key, due, game_s) -> dict:
    leads_to = ruleset.leads_to(key, status)
    wall = event.wall_time(due)
    return {
        "key": key,
        "label": ruleset.timers[key]["labels"],
        "game_s": due,
        "remaining_s": round(max(0.0, due - game_s), 3),
        "at": wall.isoformat() if wall else None,
        "leads_to": ({"key": leads_to, "label": ruleset.states[leads_to]["labels"]}
                     if leads_to else None),
    }


def _points(rules, state, sheet, timers: list[dict]) -> list[dict]:
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


def _declarable(ruleset, rules, state) -> list[dict]:
    return [{"key": key, "label": action["labels"], "params": action_params(action),
             "costs": action.get("costs") or {}}
            for key, action in ruleset.actions.items()
            if "self" in action["declared_by"] and rules.available(state, key)]


def character_snapshot(character: Character, now: datetime) -> dict:
    """Everything the character's own player may see. `character` comes from
    characters_for_snapshot (health, team and active effects already loaded)."""
    event = character.event
    rules = event.rules()
    ruleset = rules.ruleset
    game_s = event.game_time(now)
    state = rules.advance(character.health.as_core(), character.sheet, game_s).state
    status = ruleset.states[state.status]
    inert = rules.is_inert(state, game_s)
    can = [c for c in status.get("can", []) if not (inert and c in ruleset.inert_cannot)]
    cannot = list(dict.fromkeys(status.get("cannot", []) + (ruleset.inert_cannot if inert else [])))
    timers = sorted((_timer_view(event, ruleset, state.status, key, due, game_s)
                     for key, due in state.timers.items()), key=lambda t: t["game_s"])
    upcoming = [t for t in timers if t["leads_to"]]
    return {
        "character": {"id": character.pk, "name": character.name, "code": character.code,
                      "team": character.team.name if character.team else None,
                      "event": event.pk, "ruleset": ruleset.key, "language": event.language},
        "version": character.health.version,
        "clock": clock_snapshot(event, now),
        "state": {"key": state.status, "label": status["labels"], "inert": inert,
                  "hint": status.get("hint"),
                  "severity": status["severity"],
                  "can": [{"key": c, "label": ruleset.capabilities[c]["labels"]} for c in can],
                  "cannot": [{"key": c, "label": ruleset.capabilities[c]["labels"]} for c in cannot]},
        "next": upcoming[0] if upcoming else None,
        "timers": timers,
        "values": state.values,
        "flags": [{"key": key, "label": label} for key, label in ruleset.flags.items()
                  if state.values.get(key)],
        "points": _points(rules, state, character.sheet, timers),
        "effects": [effect_view(event, effect, game_s) for effect in character.active_effects],
        "actions": _declarable(ruleset, rules, state),
        "body": body_view(rules, state, character.sheet, game_s, event.wall_time),
        "fights": character.fights,
        "sheet": _sheet(ruleset, character),
        "load": load_view(character, rules),
    }


def _sheet(ruleset, character: Character) -> dict:
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


def effect_view(event: Event, effect: Effect, game_s: float) -> dict:
    ends = effect.ends_game_s
    wall = event.wall_time(ends) if ends is not None else None
    return {"id": effect.pk, "push": str(effect.push_id), "text": effect.text, "started_game_s": effect.started_game_s,
            "duration_s": effect.duration_s, "ends_game_s": ends,
            "remaining_s": round(max(0.0, ends - game_s), 3) if ends is not None else None,
            "ends_at": wall.isoformat() if wall else None}


def event_live_view(event: Event, now: datetime) -> dict:
    """The narrators' view: every character, soonest deadline first."""
    snapshots = [character_snapshot(c, now) for c in characters_for_snapshot(event, now)]
    snapshots.sort(key=lambda s: (s["next"]["game_s"] if s["next"] else float("inf"),
                                  s["character"]["name"]))
    return {"event": {"id": event.pk, "name": event.name, "ruleset": event.ruleset},
            "clock": clock_snapshot(event, now), "characters": snapshots}


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
            "result": _revealed_labels(ruleset, treatment.result)}


def _revealed_labels(ruleset, result: dict) -> dict:
    """An analysis reveals a state key; the medic reads its label."""
    revealed = dict(result.get("revealed") or {})
    if revealed.get("state") in ruleset.states:
        key = revealed["state"]
        revealed["state"] = {"key": key, "label": ruleset.states[key]["labels"]}
    return {**result, "revealed": revealed} if revealed else dict(result)


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


HISTORY_WORDS = {
    "started": {"fr": "commencé", "es": "iniciado", "en": "started"},
    "completed": {"fr": "terminé", "es": "completado", "en": "completed"},
    "aborted": {"fr": "abandonné", "es": "abandonado", "en": "aborted"},
    "effect": {"fr": "Effet", "es": "Efecto", "en": "Effect"},
}


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
            "who": entry.actor_label, "kind": entry.kind, "what": _history_label(ruleset, entry),
            "state_before": ruleset.states[before]["labels"] if before in ruleset.states else None,
            "state_after": ruleset.states[after]["labels"] if after in ruleset.states else None,
        })
    return rows
