"""Effects as they are read: which are active at a game second, how one is shown on a
phone (the end is stored as a game second and shown as a wall-clock instant too), how
long a push lasts for each one reached, and "Claridad", what everything on a character
means."""
# Rule codes: docs/rules/septenario_es-coverage.md; their families: docs/glossary.md.
from __future__ import annotations

from django.db.models import Q

from health.models import HealthState
from players.models import Character, Event
from rulesets.messages import pick

from ..models import Effect
from .load import load_view



def active_effects_q(event: Event, game_s: float) -> Q:
    return Q(removed=False) & (Q(ends_game_s__isnull=True) | Q(ends_game_s__gt=game_s))


def effect_view(event: Event, effect: Effect, game_s: float) -> dict:
    ends = effect.ends_game_s
    wall = event.wall_time(ends) if ends is not None else None
    return {"id": effect.pk, "push": str(effect.push_id), "text": effect.text, "started_game_s": effect.started_game_s,
            "duration_s": effect.duration_s, "ends_game_s": ends,
            "remaining_s": round(max(0.0, ends - game_s), 3) if ends is not None else None,
            "ends_at": wall.isoformat() if wall else None}


def catalogue_text(entry: dict, lang: str) -> str:
    """What the reached read when the narrator typed nothing: the effect's name and its
    explanation, in the event's language."""
    return f"{pick(entry['labels'], lang)}: {pick(entry['explains'], lang)}"


def lasts_one_conflict(event: Event, duration_s: float | None, until_removed: bool) -> bool:
    """An effect pushed with the standard duration, in a ruleset where that is one Conflict."""
    return not (duration_s or until_removed) and event.rules().ruleset.effect_default == "conflict"


def effect_durations(*, event: Event, characters: list[Character] | None, game_s: float,
                     duration_s: float | None, until_removed: bool) -> dict:
    """How long the effect lasts for each one reached (None: until removed). The standard
    duration of a septenario effect is one Conflict (spec S1): two minutes, or until the
    character's current Conflict ends if that is later. With `effect_conflict_mode:
    sliding` that end then follows the Conflict (effects/services/conflicts.py)."""
    reached = characters or [None]
    if not lasts_one_conflict(event, duration_s, until_removed):
        return {c: duration_s or None for c in reached}
    def gap(sheet=None) -> float:  # a Rasgo may change it for its bearer, as for blows
        return float(event.rules().for_sheet(sheet).option("conflict_gap_s"))
    if characters is None:
        return {None: gap()}
    values = dict(HealthState.objects.filter(pk__in=[c.pk for c in characters])
                  .values_list("pk", "values"))
    durations = {}
    for c in characters:
        until = (values.get(c.pk) or {}).get("conflict_until")
        in_conflict = isinstance(until, (int, float)) and until > game_s
        durations[c] = max(gap(c.sheet), until - game_s) if in_conflict else gap(c.sheet)
    return durations


def character_clarity(character: Character, now) -> dict:
    """"Claridad" (septenario L16): the explanation of everything in use on the character:
    its abilities (Rasgos), its active effects (a catalogue effect with its explanation),
    its health state and, when it weighs on it, its Carga."""
    event = character.event
    rules = event.rules()
    ruleset = rules.ruleset
    game_s = event.game_time(now)
    abilities = []
    for key in character.sheet.get("abilities") or []:
        spec = ruleset.abilities.get(key)  # a sheet typed by hand may name an unknown one
        abilities.append({"key": key, "label": spec["labels"] if spec else {"en": str(key)},
                          "explains": spec["explains"] if spec else None})
    active = (Effect.objects.filter(active_effects_q(event, game_s), event=event)
              .filter(Q(character=character) | Q(character=None))
              .order_by("started_game_s", "pk"))
    effects = []
    for effect in active:
        entry = ruleset.catalogue.get(effect.catalogue_key)
        effects.append({**effect_view(event, effect, game_s),
                        "catalogue": effect.catalogue_key or None,
                        "label": entry["labels"] if entry else None,
                        "explains": entry["explains"] if entry else None})
    state = rules.advance(character.health.as_core(), character.sheet, game_s).state
    load = load_view(character, rules)
    return {"character": {"id": character.pk, "name": character.name},
            "abilities": abilities, "effects": effects,
            "state": {"key": state.status, "label": ruleset.states[state.status]["labels"]},
            "load": ({key: load[key] for key in ("status", "label", "meaning", "total",
                                                  "capacity")}
                     if load and load["status"] != "normal" else None)}
