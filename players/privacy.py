"""What each app holds on a person and how it lets go of it (docs/operations.md,
"Personal data"): the declarations the apps register with, the person they are given,
their pseudonym and the scrubbing of free text.

players knows events, characters, accounts and the journal; the apps above it hold the
rest (a race entry's phone number, the club's register, push subscriptions) and players
never names them. Each registers in its `AppConfig.ready()`:

- `export_sections`: fn(person) -> dict, its sections of the person's export;
- `personal_strings`: fn(person) -> iterable of str (or a dict of str to what replaces
  it), what it holds that names or reaches the person (names, phone numbers, e-mails,
  licence numbers): every free text and journal line of the events concerned is
  scrubbed of them, each replaced by the person's pseudonym unless the dict says;
- `person_erasers`: fn(person, scrub), erases its own rows of the person (inside the
  erasing transaction);
- `event_purgers`: fn(event, scrub) -> dict of {string: replacement}, what it lets go of
  for an event past its retention beyond the people (a race's phone numbers, the club
  members registered at its desk), with what the journal must no longer say;
- `event_activity`: fn() -> a query expression of a datetime per event (OuterRef("pk")):
  when the event was last active by its rows (a game day scheduled), counted in its end.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from django.utils.translation import gettext_noop

from common.i18n import text
from common.observers import Observers

export_sections = Observers("export_sections", arguments=("person",))
personal_strings = Observers("personal_strings", arguments=("person",))
person_erasers = Observers("person_erasers", arguments=("person", "scrub"))
event_purgers = Observers("event_purgers", arguments=("event", "scrub"))
event_activity = Observers("event_activity", arguments=())

# The journal kind of exports, erasures and purges: they are not the event's activity, so
# an export after the game does not postpone its purge.
PRIVACY = "privacy"

PSEUDONYM_WORDS = {
    "person": gettext_noop("Person {code}"),
    "character": gettext_noop("Character {code}"),
    "member": gettext_noop("Member {code}"),
}
_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"   # the character codes' (no 0/O/1/I)
_SPREAD = 0x9E3779B1  # odd: multiplying by it is one-to-one modulo a power of two


def pseudonym_code(pk: int) -> str:
    """Four characters (more past a million ids), the same for one id and never the same
    for two: ids are spread over the codes so that neighbours do not read alike."""
    width = 4
    while pk >= len(_ALPHABET) ** width:
        width += 1
    value, code = (pk * _SPREAD) % len(_ALPHABET) ** width, ""
    for _ in range(width):
        value, digit = divmod(value, len(_ALPHABET))
        code += _ALPHABET[digit]
    return code


def pseudonym(kind: str, pk: int, lang: str) -> str:
    """"Person 7F3K": stable for one account (or character, or club member), so that the
    journal still reads who did what, in the event's language when it is written."""
    return text(PSEUDONYM_WORDS[kind], lang, code=pseudonym_code(pk))


def gather(observers: Observers, **arguments) -> list:
    """Each registered reaction's answer (a section of an export, strings to scrub)."""
    if set(arguments) != observers.arguments:
        raise TypeError(f"{observers.name} takes {sorted(observers.arguments)}")
    return [reaction(**arguments) for reaction in observers.reactions]


@dataclass(frozen=True)
class Person:
    """Whom an export or an erasure is about: an account (None for a character without
    one) and their characters in the events concerned."""

    user: object | None
    characters: tuple = ()
    event_ids: tuple[int, ...] = ()
    pseudonym: str = ""
    # An organiser asked (else the retention period ran out: see club's members still
    # playing elsewhere or under a ban, who keep their record).
    requested: bool = True
    # The account itself goes (no game left that still holds it).
    account_erased: bool = False
    character_ids: tuple[int, ...] = field(init=False)

    def __post_init__(self):
        object.__setattr__(self, "character_ids", tuple(c.pk for c in self.characters))


# Shorter words would be found inside too many other texts.
SHORTEST = 2
# A journal line's state before and after is a game fact: never rewritten, even when a
# state's key happens to be someone's name.
GAME_FACTS = frozenset(("status", "timers", "values"))


class Scrub:
    """Replaces each whole-word occurrence of what named someone by its replacement (their
    pseudonym), in a text or anywhere in a JSON value, keys included."""

    def __init__(self, replacements: dict[str, str] | None = None):
        words = {w: r for w, r in (replacements or {}).items()
                 if w and len(w.strip()) >= SHORTEST and w != r}
        self.replacements = words
        # The longest first: "Alice Martin" is replaced whole, not as "Person 7F3K Martin".
        ordered = sorted(words, key=len, reverse=True)
        self._pattern = (re.compile("|".join(rf"(?<!\w){re.escape(w)}(?!\w)" for w in ordered))
                         if ordered else None)

    def __bool__(self) -> bool:
        return self._pattern is not None

    def __or__(self, other: Scrub) -> Scrub:
        return Scrub({**other.replacements, **self.replacements})

    def finds(self, value) -> bool:
        return self(value) != value

    def __call__(self, value):
        if self._pattern is None:
            return value
        if isinstance(value, str):
            return self._pattern.sub(lambda m: self.replacements[m.group(0)], value)
        if isinstance(value, dict):
            return {self(k): self(v) for k, v in value.items()}
        if isinstance(value, list):
            return [self(v) for v in value]
        return value

    def state(self, value):
        """A journal line's `before` / `after`: what is not a game fact is scrubbed."""
        if not isinstance(value, dict):
            return self(value)
        return {k: v if k in GAME_FACTS else self(v) for k, v in value.items()}


# --- Every text column, declared ---------------------------------------------------------
# An erasure must reach every mention of the person in free text, whichever app holds it
# and whoever the row is about (an effect pushed to another character, another
# character's sheet notes, a sanction's reason). Each app declares, for every text or
# JSON column of its models, one of:
# - `scrubbed`: free text that may name anyone; every row in the erased person's events
#   (or every row, when `event` is None) is scrubbed by players.privacy_services;
# - `handled`: what names the person themselves and their app's eraser replaces (their
#   character's name, a member's phone), or what has its own rewrite (the journal);
# - `not_personal`: codes, states, choices, hashes: nothing a person types.
# tests/players/test_privacy_coverage.py fails when a column of any model is in none.


@dataclass(frozen=True)
class ScrubbedTexts:
    model: type
    fields: tuple[str, ...]
    # The lookup from a row to its event's id ("event_id", "character__event_id"), or None:
    # rows outside any event (a club's register), every one searched.
    event: str | None


scrubbed_texts: list[ScrubbedTexts] = []
declared_texts: dict[tuple[str, str], str] = {}     # (model label, field) -> how it is covered


def texts_declare(model, *, scrubbed=(), event: str | None = "event_id", handled=(), not_personal=()) -> None:
    """An app's text columns of `model`, each covered once (see above)."""
    for how, fields in (("scrubbed", scrubbed), ("handled", handled), ("not_personal", not_personal)):
        for name in fields:
            key = (model._meta.label, name)
            if key in declared_texts:
                raise ValueError(f"{key} declared twice")
            declared_texts[key] = how
    if scrubbed:
        scrubbed_texts.append(ScrubbedTexts(model, tuple(scrubbed), event))
