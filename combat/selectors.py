"""What a phone shows of the fights its character is in: challenges to answer, its own
duel results (never a score), unions, beatings and airsoft heals with their countdowns.
Outcomes stay visible a few minutes so that both sides read them."""
# Rule codes: docs/rules/airsoft_rats-coverage.md; their families: docs/glossary.md.
from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable

from django.db.models import Q
from django.utils.translation import gettext_noop

from common.i18n import Labels
from players.models import Event

from .models import Acharnement, Duel, Heal, Union, UnionMember

SHOWN_AFTER_END_S = 300

REASONS = Labels({
    "hit": gettext_noop("stopped by a weapon hit"),
    "duel_armed_defender": gettext_noop("the defender holds a weapon"),
    "cannot_fight_now": gettext_noop("one side cannot fight"),
    "rebalanced": gettext_noop("the sides were rebalanced"),
})
# Why a medic's heal or extraction ended early (combat/services/heals.py).
HEAL_REASONS = Labels({
    "hands_off": gettext_noop("the medic took their hands off"),
    "fired": gettext_noop("the medic fired (the shot does not count)"),
    "hit": gettext_noop("the medic was hit"),
    "medic_out": gettext_noop("the medic was hit or taken out"),
    "patient_out": gettext_noop("the patient is no longer waiting for a heal"),
    "to_heal": gettext_noop("the heal started"),
})


# What each kind of fight shows, in the order a phone lists them: a function that loads
# its rows for these characters (running, or ended less than SHOWN_AFTER_END_S ago) and
# adds each side's view: (event, character_ids, since, game_s, wanted, shown) -> None.
SHOWN: dict[str, Callable] = {}


def fight_shown(kind: str):
    def register(load: Callable) -> Callable:
        SHOWN[kind] = load
        return load
    return register


def fights_by_character(event: Event, character_ids: list[int], game_s: float) -> dict[int, list]:
    """One query per kind of fight the ruleset has, for any number of characters (gn_fr:
    duels, unions, beatings; airsoft: heals). A kind the ruleset lacks cannot have rows
    (its services refuse with not_in_this_game), so it is not queried."""
    shown: dict[int, list] = defaultdict(list)
    interactions = event.rules().ruleset.interactions
    if not interactions or not character_ids:
        return shown
    since, wanted = game_s - SHOWN_AFTER_END_S, set(character_ids)
    for kind, load in SHOWN.items():
        if kind in interactions:
            load(event, character_ids, since, game_s, wanted, shown)
    return shown


def _each_side(event: Event, model, roles: tuple[str, str], view, *, shown_while: Q,
               character_ids, since: float, game_s: float, wanted: set, shown: dict) -> None:
    """A two-sided fight: its rows with one of our characters on either side, shown while
    `shown_while` holds or for a while after they closed, each side with its own view."""
    rows = (model.objects.filter(event=event)
            .filter(Q(**{f"{roles[0]}_id__in": character_ids})
                    | Q(**{f"{roles[1]}_id__in": character_ids}))
            .filter(shown_while | Q(closed_game_s__gte=since))
            .select_related(*roles))
    for row in rows:
        for role in roles:
            if getattr(row, f"{role}_id") in wanted:
                shown[getattr(row, f"{role}_id")].append(view(event, row, role, game_s))


@fight_shown("duel")
def _duels(event, character_ids, since, game_s, wanted, shown) -> None:
    _each_side(event, Duel, ("challenger", "defender"), _duel_view,
               shown_while=Q(status=Duel.PROPOSED, expires_game_s__gte=game_s),
               character_ids=character_ids, since=since, game_s=game_s, wanted=wanted, shown=shown)


@fight_shown("union")
def _unions(event: Event, character_ids: list[int], since: float, game_s: float, wanted: set,
            shown: dict) -> None:
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
            shown[member.character_id].append(
                _union_view(event, member, counts[member.union_id], game_s))


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


@fight_shown("acharnement")
def _beatings(event, character_ids, since, game_s, wanted, shown) -> None:
    _each_side(event, Acharnement, ("attacker", "victim"), _beating_view,
               shown_while=Q(status=Acharnement.RUNNING),
               character_ids=character_ids, since=since, game_s=game_s, wanted=wanted, shown=shown)


# Whether the medic may shoot meanwhile (spec §4.1): the scenario's option, else the
# rulebook ("ne peut pas tirer pendant le soin"; "pendant l'extraction ... peut tirer").
MEDIC_CAN_SHOOT = {Heal.HEAL: "healing_medic_can_shoot",
                   Heal.EXTRACTION: "extraction_medic_can_shoot"}


def _heal_view(event: Event, heal: Heal, role: str, game_s: float) -> dict:
    """The medic reads "healing X, 0:07 left, cannot shoot"; the patient "being healed by
    Y", counting aloud to the same end instant (B2: the count follows the ten of the hit,
    11 to 20 by default)."""
    rules = event.rules()
    running = heal.status == Heal.RUNNING
    view = {"kind": "heal", "id": heal.pk, "role": role,
            "other": (heal.patient if role == "medic" else heal.medic).name,
            "type": {"key": heal.kind, "label": heal_kind_label(event, heal.kind)},
            "status": heal.status, "reason": HEAL_REASONS.get(heal.reason),
            "ends": _countdown(event, heal.ends_game_s, game_s)
            if running and heal.ends_game_s is not None else None}
    if running and heal.ends_game_s is not None:
        first = int(rules.option("hit_count_s") or 0) + 1
        view["count"] = {"from": first,
                         "to": first + round(heal.ends_game_s - heal.started_game_s) - 1}
    if running and role == "medic":
        can_shoot = bool(rules.option(MEDIC_CAN_SHOOT[heal.kind]))
        view["can_shoot"] = can_shoot
        view["cannot"] = [] if can_shoot or "shoot" not in rules.ruleset.capabilities else \
            [{"key": "shoot", "label": rules.ruleset.capabilities["shoot"]["labels"]}]
        view["can_stop"] = True
    return view


@fight_shown("heal")
def _heals(event, character_ids, since, game_s, wanted, shown) -> None:
    _each_side(event, Heal, ("medic", "patient"), _heal_view, shown_while=Q(status=Heal.RUNNING),
               character_ids=character_ids, since=since, game_s=game_s, wanted=wanted, shown=shown)


def heal_kind_label(event: Event, kind: str) -> dict:
    """"Teammate heal" or "Extraction", as the ruleset names them."""
    ruleset = event.rules().ruleset
    spec = ruleset.interactions["heal"]
    if kind == Heal.HEAL:
        return spec.get("labels", {"en": "heal"})
    return ruleset.actions[spec["extraction_starts"]]["labels"]
