"""Bare-hand duels (GA1, G01, G02, G09, G21, G25). One side challenges, the other
confirms; the server compares the effective scores and tells each side only its own
result, so neither learns the other's score."""
# Rule codes: docs/rules/gn_fr-coverage.md; their families: docs/glossary.md.
from __future__ import annotations

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext_noop

from common.i18n import Labels
from health.services import character_apply_rules, snapshots_changed
from players.models import Character, Event
from players.services import journal_write_many
from rulesets import RuleRefused

from ..models import Duel
from .common import (fighters_mark, interaction, interaction_label, locked, now_and_game,
                     require_able, running_event, someone)

WEAPONS = ("stunning", "wounding", "firearm")
# The weapon a defender holds, as the refusal duel_armed_defender words it.
WEAPON_WORDS = Labels({"stunning": gettext_noop("stunning"), "wounding": gettext_noop("wounding"),
                       "firearm": gettext_noop("fire")})


def open_duels(event: Event, game_s: float, character_ids) -> "Q":
    ids = list(character_ids)
    return (Duel.objects.filter(event=event, status=Duel.PROPOSED, expires_game_s__gte=game_s)
            .filter(Q(challenger_id__in=ids) | Q(defender_id__in=ids)))


@transaction.atomic
def duel_propose(*, challenger: Character, opponent_code: str, by) -> Duel:
    event = running_event(challenger)
    spec, what = interaction(event, "duel"), interaction_label(event, "duel")
    defender = someone(event, opponent_code, not_=challenger, what=what)
    now, game_s = now_and_game(event)
    rows = locked(event, [challenger, defender], now)
    for character in (challenger, defender):
        require_able(event, rows[character.pk], spec["in_states"], now, what, actor=challenger)
        if open_duels(event, game_s, [character.pk]).exists():
            raise RuleRefused("already_fighting", name=character.name, what=what)
    duel = Duel.objects.create(event=event, challenger=challenger, defender=defender,
                               proposed_game_s=game_s,
                               expires_game_s=game_s + float(spec["confirm_within_s"]),
                               created_by=by)
    _journal(duel, "proposed", by, now)
    fighters_mark(character_ids=[challenger.pk, defender.pk])
    snapshots_changed(character_ids=[challenger.pk, defender.pk])
    return duel


@transaction.atomic
def duel_answer(*, duel: Duel, defender: Character, accept: bool, weapon_in_hand: str | None,
                by) -> Duel:
    """The defender confirms (the fight is on) or declines. Refused, and recorded so that
    both phones show why, when a side cannot duel or the defender holds a weapon that
    forbids bare hands (A13)."""
    duel = Duel.objects.select_for_update().select_related("challenger", "defender").get(pk=duel.pk)
    event = running_event(duel.defender)
    spec, what = interaction(event, "duel"), interaction_label(event, "duel")
    if defender.pk != duel.defender_id:
        raise RuleRefused("not_your_turn", name=duel.defender.name)
    now, game_s = now_and_game(event)
    if duel.status != Duel.PROPOSED:
        raise RuleRefused("fight_closed", what=what, status=duel.status)
    if game_s > duel.expires_game_s:
        raise RuleRefused("challenge_lapsed", seconds=round(spec["confirm_within_s"]))
    if not accept:
        return _close(duel, Duel.DECLINED, "", by, now, game_s)
    if weapon_in_hand in (spec["blocked_by_weapon"] or []):
        return _close(duel, Duel.REFUSED, "duel_armed_defender", by, now, game_s)
    rows = locked(event, [duel.challenger, duel.defender], now)
    for character in (duel.challenger, duel.defender):
        try:
            require_able(event, rows[character.pk], spec["in_states"], now, what, actor=defender)
        except RuleRefused:
            return _close(duel, Duel.REFUSED, "cannot_fight_now", by, now, game_s)
    return _resolve(duel, event, spec, rows, by, now, game_s)


def _resolve(duel: Duel, event: Event, spec: dict, rows: dict, by, now, game_s) -> Duel:
    rules = event.rules()
    scores = {pk: rules.point_value(health.as_core(), health.character.sheet, spec["score"]) or 0
              for pk, health in rows.items()}
    mine, theirs = scores[duel.challenger_id], scores[duel.defender_id]
    if mine == theirs:  # a tie: both lose (GA1)
        duel.challenger_result = duel.defender_result = Duel.TIE
    else:
        duel.challenger_result = Duel.WON if mine > theirs else Duel.LOST
        duel.defender_result = Duel.LOST if mine > theirs else Duel.WON
    for pk, result in ((duel.challenger_id, duel.challenger_result),
                       (duel.defender_id, duel.defender_result)):
        character_apply_rules(health=rows[pk], event=event, by=by, now=now,
                              action=spec["winner"] if result == Duel.WON else spec["loser"],
                              detail={"duel": duel.pk})
    duel.status, duel.closed_game_s = Duel.RESOLVED, game_s
    duel.save()
    # Narrators settle disputes with the scores; players never read this line.
    _journal(duel, "resolved", by, now, scores={"challenger": mine, "defender": theirs})
    return duel


def _close(duel: Duel, status: str, reason: str, by, now, game_s) -> Duel:
    duel.status, duel.reason, duel.closed_game_s = status, reason, game_s
    duel.save()
    _journal(duel, status, by, now)
    snapshots_changed(character_ids=[duel.challenger_id, duel.defender_id])
    return duel


def duels_interrupted(*, character: Character, event: Event, action: str, now, by) -> None:
    """A weapon or a bullet on a participant stops the duel: nobody wins or loses (G25)."""
    spec = event.rules().ruleset.interactions.get("duel")
    if not spec or action not in spec.get("cancelled_by", []):
        return
    for duel in open_duels(event, event.game_time(now), [character.pk]).select_for_update():
        _close(duel, Duel.CANCELLED, "hit", by, now, event.game_time(now))


def _journal(duel: Duel, what: str, by, now, **detail) -> None:
    journal_write_many(event=duel.event, kind="duel", what=what, at=now, by=by,
                       characters=[duel.challenger, duel.defender],
                       detail={"duel": duel.pk, "challenger": duel.challenger.name,
                          "defender": duel.defender.name, "reason": duel.reason,
                          "results": {"challenger": duel.challenger_result,
                                      "defender": duel.defender_result}, **detail})
