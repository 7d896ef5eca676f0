"""What a character card says, for the browser's print (templates/frontend/cards.html) and
the PDF (cards_pdf.py) alike: the same cards, the same codes."""
from __future__ import annotations

from dataclasses import dataclass, field

import qrcode
import qrcode.image.svg
from django.conf import settings

from players.login_cards import card_code_display, login_cards_ensure
from rulesets.casualty_card import casualty_card
from rulesets.messages import pick

from .print_words import CARD, words

PER_PAGE = (1, 4, 8)
# Columns and rows of the A4 portrait page for each choice.
GRID = {1: (1, 1), 4: (2, 2), 8: (2, 4)}


@dataclass
class Card:
    character_id: int
    name: str
    team: str
    code: str             # as printed: ABCD-EFGH-JKLM
    url: str              # what the QR holds
    medic_code: str
    details: list[str] = field(default_factory=list)   # combat score, skills, kits
    qr: str = ""          # the SVG, for the browser's print


def with_qr_svgs(cards: list[Card]) -> list[Card]:
    for card in cards:
        card.qr = qrcode.make(card.url, image_factory=qrcode.image.svg.SvgPathImage,
                              border=4).to_string(encoding="unicode")
    return cards


def per_page_choice(raw) -> int:
    try:
        value = int(raw)
    except (TypeError, ValueError):
        return 8
    return value if value in PER_PAGE else 8


def login_site() -> str:
    """The address a player types when they cannot scan, without its scheme."""
    return settings.PUBLIC_URL.split("://", 1)[-1]


def card_words(event) -> dict:
    lang = event.language
    texts = words(CARD, lang)
    texts["how_2"] = texts["how_2"].format(url=login_site())
    return texts


def event_cards(event, *, by, only: int | None = None) -> list[Card]:
    """Every character's card (or only one), by team then name; a character without a
    code gets one, nobody's code changes."""
    codes = login_cards_ensure(event=event, by=by)
    ruleset, lang = event.rules().ruleset, event.language
    texts = words(CARD, lang)
    characters = event.characters.exclude(user=None).select_related("team").order_by("team__name", "name")
    if only is not None:
        characters = characters.filter(pk=only)
    cards = []
    for character in characters:
        code = codes[character.pk]
        cards.append(Card(character_id=character.pk, name=character.name,
                          team=character.team.name if character.team else "",
                          code=card_code_display(code), url=f"{settings.PUBLIC_URL}/login/{code}",
                          medic_code=character.code,
                          details=_details(character, ruleset, lang, texts)))
    return cards


def _details(character, ruleset, lang: str, texts: dict) -> list[str]:
    lines = []
    combat = character.sheet.get("combat_base")
    if combat is not None:
        lines.append(texts["combat"].format(score=combat))
    skills = [pick(ruleset.skill_label(k), lang) + (f" ({texts.get(v, v)})" if v is not True else "")
              for k, v in (character.sheet.get("skills") or {}).items() if v]
    if skills:
        lines.append(", ".join(skills))
    if character.kits:
        lines.append(", ".join(f"{k.upper()} × {n}" for k, n in character.kits.items()))
    return lines


def event_casualty_card(event) -> list[dict]:
    """The ruleset's casualty card with this event's options, in its language."""
    rules = event.rules()
    return casualty_card(rules.ruleset, rules.options, event.language,
                         {"novice": CARD["novice"], "expert": CARD["expert"]})
