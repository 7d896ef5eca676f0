"""Labels travel as {fr, es, en} until they reach a person: one snapshot serves every
phone, and each answer or websocket send picks its reader's language here."""
from __future__ import annotations

from rulesets.messages import LANGUAGES, pick


def localize(obj, lang: str):
    """Replace every {fr, es, en} label dict inside obj by its text in `lang`."""
    if isinstance(obj, dict):
        if obj and set(obj) <= set(LANGUAGES) and all(isinstance(v, str) for v in obj.values()):
            return pick(obj, lang)
        return {k: localize(v, lang) for k, v in obj.items()}
    if isinstance(obj, list):
        return [localize(v, lang) for v in obj]
    return obj
