"""What the notifications say, in the event's language. State names are the ruleset's
labels, so a new ruleset needs no new text here."""
from __future__ import annotations

from rulesets.messages import pick

TEXTS = {
    "now": {
        "fr": "{name} : vous êtes maintenant {state}",
        "es": "{name}: ahora estás {state}",
        "en": "{name}: you are now {state}",
    },
    "soon": {
        "fr": "{name} : vous serez {state} dans 1 minute",
        "es": "{name}: estarás {state} en 1 minuto",
        "en": "{name}: you will be {state} in 1 minute",
    },
}


def _inline(label: str) -> str:
    """A state label inside a sentence: "Dans le coma" -> "dans le coma", but "KO" stays."""
    if len(label) > 1 and label[1].isupper():
        return label
    return label[:1].lower() + label[1:]


def state_now(lang: str, *, name: str, state_label: dict) -> str:
    # The label as the phone shows it: the state's name, capital included.
    return pick(TEXTS["now"], lang).format(name=name, state=pick(state_label, lang))


def state_soon(lang: str, *, name: str, state_label: dict) -> str:
    return pick(TEXTS["soon"], lang).format(name=name, state=_inline(pick(state_label, lang)))
