"""The server's own texts in the reader's language, from the catalogue in locale/
(English msgids; fr and es in locale/<lang>/LC_MESSAGES/django.po).

A text is rendered per language only at the edge: services hand around labels
({fr, es, en} dicts, like the rules' own labels in the YAML) and `localize` picks the
reader's language in the REST answer or the websocket message.
"""
from __future__ import annotations

from collections.abc import Mapping

from django.utils import translation

from rulesets.messages import DEFAULT_LANGUAGE, LANGUAGES, RuleRefused, pick

from .messages import MESSAGES


def _word(value, lang: str) -> str:
    if isinstance(value, list):
        return ", ".join(_word(v, lang) for v in value)
    return pick(value, lang)


def text(msgid: str, lang: str, /, **params) -> str:
    """One catalogue text in `lang`, its {placeholders} filled (labels in `lang` too)."""
    with translation.override(lang):
        wording = translation.gettext(msgid)
    return wording.format(**{key: _word(value, lang) for key, value in params.items()})


def label(msgid: str, /, **params) -> dict:
    """A catalogue text in every language, for a label read later or by several people."""
    return {lang: text(msgid, lang, **params) for lang in LANGUAGES}


class Labels(Mapping):
    """Keys to catalogue texts, read as labels: `WORDS[key]` is {fr, es, en}."""

    def __init__(self, msgids: dict):
        self._msgids = msgids

    def __getitem__(self, key) -> dict:
        return label(self._msgids[key])

    def say(self, key: str, /, **params) -> dict:
        """The text of `key` in every language, its {placeholders} filled."""
        return label(self._msgids[key], **params)

    def __iter__(self):
        return iter(self._msgids)

    def __len__(self) -> int:
        return len(self._msgids)


def message_text(code: str, params: dict, lang: str) -> str:
    return text(MESSAGES[code], lang, **params)


def message_labels(code: str, /, **params) -> dict:
    """A refusal's text in every language, for a label shown later (a missed shot)."""
    return {lang: message_text(code, params, lang) for lang in LANGUAGES}


def refusal_text(refused: RuleRefused, lang: str = DEFAULT_LANGUAGE) -> str:
    # A refusal subclass may word itself (the rehearsal's duel that did not happen).
    own = getattr(refused, "message", None)
    if own is not None:
        return own(lang)
    return message_text(refused.code, refused.params, lang)


def localize(obj, lang: str):
    """Replace every {fr, es, en} label dict inside obj by its text in `lang`."""
    if isinstance(obj, dict):
        if obj and set(obj) <= set(LANGUAGES) and all(isinstance(v, str) for v in obj.values()):
            return pick(obj, lang)
        return {k: localize(v, lang) for k, v in obj.items()}
    if isinstance(obj, list):
        return [localize(v, lang) for v in obj]
    return obj
