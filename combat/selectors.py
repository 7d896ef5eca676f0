"""What a phone shows of the fights its character is in: challenges to answer, its own
duel results (never a score), unions and beatings with their countdowns. Outcomes stay
visible a few minutes so that both sides read them."""
from __future__ import annotations

from collections import defaultdict

from django.db.models import Q

from players.models import Event

from .models import Acharnement, Duel, Union, UnionMember

SHOWN_AFTER_END_S = 300

REASONS = {
    "hit": {"fr": "interrompu par un coup d'arme", "es": "interrumpido por un golpe de arma",
            "en": "stopped by a weapon hit"},
    "duel_armed_defender": {"fr": "le défenseur a une arme en main", "es": "el defensor tiene un arma en la mano",
                            "en": "the defender holds a weapon"},
    "cannot_fight_now": {"fr": "l'un des deux ne peut pas se battre", "es": "uno de los dos no puede pelear",
                         "en": "one side cannot fight"},
    "rebalanced": {"fr": "la balance a été rééquilibrée", "es": "se ha reequilibrado la balanza",
                   "en": "the sides were rebalanced"},
}


def fights_by_character(event: Event, character_ids: list[int], game_s: float) -> dict[int, list]:
    """Three queries for any number of characters."""
    shown: dict[int, list] = defaultdict(list)
    if not event.rules().ruleset.interactions or not character_ids:
        return shown
    since = game_s - SHOWN_AFTER_END_S
    duels = (Duel.objects.filter(event=event)
             .filter(Q(challenger_id__in=character_ids) | Q(defender_id__in=character_ids))
             .filter(Q(status=Duel.PROPOSED, expires_game_s__gte=game_s) | Q(closed_game_s__gte=since))
             .select_related("challenger", "defender"))
    wanted = set(character_ids)
    for duel in duels:
        for role in ("challenger", "defender"):
            if getattr(duel, f"{role}_id") in wanted:
                shown[getattr(duel, f"{role}_id")].append(_duel_view(event, duel, role, game_s))
    # Every member of the unions our characters are in, in one query: the counts of both
    # sides come from the same rows.
    ours = (UnionMember.objects.filter(character_id__in=character_ids, union__event=event)
            .filter(Q(union__status=Union.PENDING) | Q(union__resolve_game_s__gte=since))
            .values("union_id"))
    members = list(UnionMember.objects.filter(union_id__in=ours).select_related("union"))
    counts: dict[int, dict] = defaultdict(lambda: {"attackers": 0, "defenders": 0})
    for member in members:
        counts[member.union_id][member.side] += 1
    for member in members:
        if member.character_id in wanted:
            shown[member.character_id].append(_union_view(event, member, counts[member.union_id], game_s))
    beatings = (Acharnement.objects.filter(event=event)
                .filter(Q(attacker_id__in=character_ids) | Q(victim_id__in=character_ids))
                .filter(Q(status=Acharnement.RUNNING) | Q(closed_game_s__gte=since))
                .select_related("attacker", "victim"))
    for beating in beatings:
        for role in ("attacker", "victim"):
            if getattr(beating, f"{role}_id") in wanted:
                shown[getattr(beating, f"{role}_id")].append(_beating_view(event, beating, role, game_s))
    return shown


def _countdown(event: Event, due: float, game_s: float) -> dict:
    wall = event.wall_time(due)
    return {"game_s": due, "remaining_s": round(max(0.0, due - game_s), 3),
            "at": wall.isoformat() if wall else None}


def _duel_view(event: Event, duel: Duel, role: str, game_s: float) -> dict:
    other = duel.defender if role == "challenger" else duel.challenger
    return {"kind": "duel", "id": duel.pk, "role": role, "other": other.name,
            "status": duel.status, "result": getattr(duel, f"{role}_result") or None,
            "reason": REASONS.get(duel.reason),
            "can_answer": role == "defender" and duel.status == Duel.PROPOSED,
            "ends": _countdown(event, duel.expires_game_s, game_s)
            if duel.status == Duel.PROPOSED else None}


def _union_view(event: Event, member: UnionMember, counts: dict, game_s: float) -> dict:
    union = member.union
    return {"kind": "union", "id": union.pk, "role": member.side, "status": union.status,
            "attackers": counts["attackers"], "defenders": counts["defenders"],
            "reason": REASONS.get(union.reason),
            "ends": _countdown(event, union.resolve_game_s, game_s)
            if union.status == Union.PENDING else None}


def _beating_view(event: Event, beating: Acharnement, role: str, game_s: float) -> dict:
    kinds = event.rules().ruleset.interactions["acharnement"]["kinds"]
    other = beating.victim if role == "attacker" else beating.attacker
    return {"kind": "acharnement", "id": beating.pk, "role": role, "other": other.name,
            "type": {"key": beating.kind, "label": kinds.get(beating.kind, {}).get("labels")},
            "status": beating.status,
            "ends": _countdown(event, beating.ends_game_s, game_s)
            if beating.status == Acharnement.RUNNING else None}
