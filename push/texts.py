"""What the notifications say, in the event's language (the server's catalogue, locale/).
State names are the ruleset's labels, so a new ruleset needs no new text here."""
from __future__ import annotations

from django.utils.translation import gettext_noop

from common.i18n import text
from rulesets.messages import pick

NOW = gettext_noop("{name}: you are now {state}")
SOON = gettext_noop("{name}: you will be {state} in 1 minute")


def _inline(label: str) -> str:
    """A state label inside a sentence: "Dans le coma" -> "dans le coma", but "KO" stays."""
    if len(label) > 1 and label[1].isupper():
        return label
    return label[:1].lower() + label[1:]


def state_now(lang: str, *, name: str, state_label: dict) -> str:
    # The label as the phone shows it: the state's name, capital included.
    return text(NOW, lang, name=name, state=pick(state_label, lang))


def state_soon(lang: str, *, name: str, state_label: dict) -> str:
    return text(SOON, lang, name=name, state=_inline(pick(state_label, lang)))
