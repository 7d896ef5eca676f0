"""« L'union fait la force » (GA2, G05, G09, G21; A12). Attackers more than three times
the defenders, bare hands, no weapon drawn: unless someone joins the defenders within
three seconds and rebalances, every defender loses, nobody loses points, and everyone
took part in a fight. The deadline is an instant of the game clock in the database, with
a task at that instant and the sweeper behind it."""
# Rule codes: docs/rules/gn_fr-coverage.md; their families: docs/glossary.md.
from __future__ import annotations

from django.db import transaction

from health.services import character_apply_rules, snapshots_changed
from players.models import Character, Event
from players.services import journal_write_many
from rulesets import ENDING, RuleRefused
from rulesets.instants import within

from ..models import Union, UnionMember
from .common import (fighters_mark, interaction, interaction_label, locked, now_and_game,
                     require_able, require_fighter, running_event, someone)
from .schedule import fight_due_on_commit, timed_end


@transaction.atomic
def union_claim(*, claimant: Character, attacker_codes: list[str], defender_codes: list[str],
                weapon_drawn: bool, by) -> Union:
    event = running_event(claimant)
    spec, what = interaction(event, "union"), interaction_label(event, "union")
    if weapon_drawn:
        raise RuleRefused("union_weapon_drawn")
    attackers = _distinct([claimant] + [someone(event, c, not_=claimant, what=what) for c in attacker_codes])
    defenders = _distinct([someone(event, c, not_=claimant, what=what) for c in defender_codes])
    if not defenders or {c.pk for c in attackers} & {c.pk for c in defenders}:
        raise RuleRefused("bad_input", detail="name the defenders, and nobody on both sides")
    _require_majority(spec, len(attackers), len(defenders))
    now, game_s = now_and_game(event)
    rows = locked(event, attackers + defenders, now)
    for character in attackers:
        require_fighter(event, rows[character.pk], now, what, actor=claimant)
    for character in defenders:
        require_able(event, rows[character.pk], spec["in_states"], now, what, actor=claimant)
    _require_free(event, attackers + defenders, what)
    union = Union.objects.create(event=event, claimed_by=claimant, claimed_game_s=game_s,
                                 resolve_game_s=game_s + float(spec["window_s"]), created_by=by)
    UnionMember.objects.bulk_create(
        [UnionMember(union=union, character=c, side=UnionMember.ATTACKERS, joined_game_s=game_s)
         for c in attackers] +
        [UnionMember(union=union, character=c, side=UnionMember.DEFENDERS, joined_game_s=game_s)
         for c in defenders])
    _journal(union, "claimed", by, now, attackers, defenders)
    fighters_mark(character_ids=[c.pk for c in attackers + defenders])
    snapshots_changed(character_ids=[c.pk for c in attackers + defenders])
    fight_due_on_commit("union", union.pk, event, union.resolve_game_s)
    return union


@transaction.atomic
def union_join(*, joiner: Character, defender_code: str, by) -> Union:
    """Someone comes to the defenders' side within the window (its last instant included:
    rulesets/instants.py): when the attackers are no longer more than three times as
    many, the claim falls and nobody changes."""
    event = running_event(joiner)
    spec, what = interaction(event, "union"), interaction_label(event, "union")
    defender = someone(event, defender_code, not_=joiner, what=what)
    now, game_s = now_and_game(event)
    union = (Union.objects.select_for_update()
             .filter(event=event, status=Union.PENDING,
                     members__character=defender, members__side=UnionMember.DEFENDERS).first())
    # A join at the third second is in time (L28): it comes before the window's end.
    if union is None or not within(union.resolve_game_s, game_s):
        raise RuleRefused("no_union_against", name=defender.name)
    if union.members.filter(character=joiner).exists():
        raise RuleRefused("already_fighting", name=joiner.name, what=what)
    rows = locked(event, [joiner], now)
    require_able(event, rows[joiner.pk], spec["in_states"], now, what, actor=joiner)
    UnionMember.objects.create(union=union, character=joiner, side=UnionMember.DEFENDERS,
                               joined_game_s=game_s)
    fighters_mark(character_ids=[joiner.pk])
    attackers, defenders = _sides(union)
    if len(attackers) <= float(spec["ratio"]) * len(defenders):
        union.status, union.reason = Union.CANCELLED, "rebalanced"
        union.save()
    _journal(union, "joined" if union.status == Union.PENDING else "rebalanced", by, now,
             attackers, defenders, joiner=joiner.name)
    snapshots_changed(character_ids=[c.pk for c in attackers + defenders])
    return union


@transaction.atomic
def union_resolve(*, union_id: int) -> bool:
    """At the end of the window (task or sweeper): every defender loses. Idempotent: a
    second delivery finds it resolved; a row another worker holds is left to it."""
    union = (Union.objects.select_for_update(skip_locked=True).select_related("event")
             .filter(pk=union_id, status=Union.PENDING).first())
    if union is None:
        return False
    event = union.event
    now, game_s = now_and_game(event)
    if game_s < union.resolve_game_s:
        return False
    spec = interaction(event, "union")
    attackers, defenders = _sides(union)
    # The three seconds ran before this instant: their end comes before a timer due now.
    rows = locked(event, attackers + defenders, now, seen_by=ENDING)
    for character in defenders:
        character_apply_rules(health=rows[character.pk], event=event, by=None, now=now,
                              action=spec["minority"], detail={"union": union.pk},
                              seen_by=ENDING)
    for character in attackers:
        character_apply_rules(health=rows[character.pk], event=event, by=None, now=now,
                              action=spec["took_part"], detail={"union": union.pk},
                              seen_by=ENDING)
    union.status = Union.RESOLVED
    union.save()
    _journal(union, "resolved", None, now, attackers, defenders)
    return True


def _require_majority(spec: dict, attackers: int, defenders: int) -> None:
    ratio = float(spec["ratio"])
    if attackers <= ratio * defenders:  # strictly more than three times (A12 i)
        raise RuleRefused("union_outnumbered", ratio=f"{ratio:g}", attackers=attackers,
                          defenders=defenders)


def _require_free(event: Event, characters, what) -> None:
    busy = (UnionMember.objects.filter(union__event=event, union__status=Union.PENDING,
                                       character__in=characters)
            .select_related("character").first())
    if busy:
        raise RuleRefused("already_fighting", name=busy.character.name, what=what)


def _sides(union: Union) -> tuple[list[Character], list[Character]]:
    members = list(union.members.select_related("character").order_by("pk"))
    return ([m.character for m in members if m.side == UnionMember.ATTACKERS],
            [m.character for m in members if m.side == UnionMember.DEFENDERS])


def _distinct(characters: list[Character]) -> list[Character]:
    return list({c.pk: c for c in characters}.values())


def _journal(union: Union, what: str, by, now, attackers, defenders, **detail) -> None:
    journal_write_many(event=union.event, kind="union", what=what, at=now, by=by,
                       characters=attackers + defenders,
                       detail={"union": union.pk, "attackers": [c.name for c in attackers],
                               "defenders": [c.name for c in defenders], **detail})


# The union is decided at the end of its window (a task at the instant + the sweeper).
timed_end("union", due_field="resolve_game_s", end=lambda pk: union_resolve(union_id=pk),
          pending=lambda event: Union.objects.filter(event=event, status=Union.PENDING))
