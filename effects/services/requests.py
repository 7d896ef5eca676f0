"""Asking the organisers (GA17): what only they can settle, such as destroying or damaging
an object, which is never really done ("veuillez consulter un organisateur qui vous
indiquera les conséquences"). The answer reaches the player as an ordinary effect, so it
shows with their active effects and in their history."""
# Rule codes: docs/rules/gn_fr-coverage.md; their families: docs/glossary.md.
from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from live.publish import publish_narrators_on_commit
from players.models import Character
from players.services import journal_write
from rulesets import RuleRefused

from ..models import OrganiserRequest
from ..selectors.requests import request_view
from .effects import effect_push

# A few waiting requests per character: enough for real needs, and the narrators' queue
# stays readable if a phone misbehaves.
MAX_OPEN_PER_CHARACTER = 3
ANSWER_MAX = 2000  # as an effect pushed by hand


def _clean_text(text: str, limit: int, what: str) -> str:
    text = (text or "").strip()
    if not text:
        raise RuleRefused("bad_input", detail=f"the {what} is empty")
    if len(text) > limit:
        raise RuleRefused("bad_input", detail=f"the {what} is longer than {limit} characters")
    return text


@transaction.atomic
def request_ask(*, character: Character, text: str, by) -> OrganiserRequest:
    """A request from a player; the narrators' screens receive it at once (on commit) and
    list it with the open ones. Allowed during a pause too: an arrêt de jeu is when
    questions get asked."""
    text = _clean_text(text, OrganiserRequest.TEXT_MAX, "request")
    # Locked: two requests sent at once cannot both slip under the limit.
    Character.objects.select_for_update().filter(pk=character.pk).first()
    waiting = OrganiserRequest.objects.filter(character=character,
                                              status=OrganiserRequest.OPEN).count()
    if waiting >= MAX_OPEN_PER_CHARACTER:
        raise RuleRefused("requests_waiting", count=waiting)
    event, now = character.event, timezone.now()
    asked = OrganiserRequest.objects.create(event=event, character=character, text=text,
                                            created_game_s=event.game_time(now), created_at=now)
    journal_write(event=event, kind="request", what="asked", at=now, by=by, character=character,
                  detail={"request": asked.pk, "text": text})
    _narrators_told(asked)
    return asked


@transaction.atomic
def request_answer(*, request: OrganiserRequest, text: str, duration_s: float | None = None,
                   set_state: str | None = None, by) -> OrganiserRequest:
    """The organisers' answer, pushed to the one who asked as an effect (with a duration
    and a health level if they say so); the request is closed. Answered once only: two
    narrators answering at once, the second is told it is done."""
    text = _clean_text(text, ANSWER_MAX, "answer")
    asked = OrganiserRequest.objects.select_for_update().select_related(
        "event", "character").get(pk=request.pk)
    if asked.status != OrganiserRequest.OPEN:
        raise RuleRefused("request_answered")
    event, now = asked.event, timezone.now()
    effect, = effect_push(event=event, characters=[asked.character], text=text,
                          duration_s=duration_s, set_state=set_state, by=by)
    asked.status, asked.answer, asked.answered_by = OrganiserRequest.ANSWERED, text, by
    asked.answered_game_s, asked.effect = event.game_time(now), effect
    asked.save(update_fields=["status", "answer", "answered_by", "answered_game_s", "effect"])
    journal_write(event=event, kind="request", what="answered", at=now, by=by,
                  character=asked.character,
                  detail={"request": asked.pk, "question": asked.text, "text": text,
                          "effect": effect.pk})
    _narrators_told(asked)
    return asked


def _narrators_told(asked: OrganiserRequest) -> None:
    """The event's narrators' screens (and only theirs: a player's group never carries
    another player's request) add a new request or drop an answered one at once."""
    publish_narrators_on_commit(asked.event_id, {"type": "request.message",
                                                 "request": request_view(asked)})
