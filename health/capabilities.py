"""What a character can and cannot do, as its phone lists it (the snapshot's state and the
outcomes a phone keeps offline). The rules core works it out (`Rules.capabilities`) from
the health state and from what the apps above health know of the character: what it
carries (Carga, effects/) may forbid running or any movement. Such an app registers in
its `AppConfig.ready()`:

- `load_levels`: fn(character) -> the character's load level ("normal", "overloaded",
  "immobile") or None when it knows of none;

so that health names none of them."""
from __future__ import annotations

from common.observers import Observers
from players.models import Character

load_levels = Observers("load_levels", arguments=("character",))


def character_load_level(character: Character) -> str | None:
    """The first load level a registered app knows (one app carries the Carga)."""
    return next((level for read in load_levels.reactions
                 if (level := read(character=character))), None)


def labelled(ruleset, keys: list[str]) -> list[dict]:
    """Each capability with its label, as the phone shows it."""
    return [{"key": key, "label": ruleset.capabilities[key]["labels"]} for key in keys]
