"""What a call for help says on an organiser's locked phone, in the event's language.
Who and what kind of help, never anything of the game (no state, no timer, no note)."""
from __future__ import annotations

from django.utils.translation import gettext_noop

from common.i18n import text

TITLE = gettext_noop("Help needed (real)")
BODY = gettext_noop("{name}: {kind}. Open the safety board.")
KINDS = {
    "injured": gettext_noop("injured"),
    "lost": gettext_noop("lost"),
    "unwell": gettext_noop("unwell"),
    "other": gettext_noop("needs help"),
}


def help_title(lang: str) -> str:
    return text(TITLE, lang)


def help_body(lang: str, *, name: str, kind: str) -> str:
    return text(BODY, lang, name=name, kind=text(KINDS[kind], lang))
