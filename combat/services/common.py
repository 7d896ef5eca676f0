"""What every kind of fight needs: the ruleset's parameters for it, the people in it,
locked in a stable order and brought up to date, and refusals that name the problem."""
# Rule codes: docs/rules/gn_fr-coverage.md; their families: docs/glossary.md.
from __future__ import annotations

from django.utils import timezone
from django.utils.translation import gettext_noop

from common import i18n
from health.checks import require_in_game
from health.models import HealthState
from health.services import characters_lock, due_timers_publish
from players.models import Character, Event
from players.selectors import character_by_code
from rulesets import DECLARED, RuleRefused


def interaction(event: Event, name: str, *, sheet: dict | None = None) -> dict:
    """The ruleset's parameters for this kind of fight, options resolved (for the
    character whose `sheet` is given: its abilities may change them, a marksman's range)."""
    rules = event.rules().for_sheet(sheet)
    spec = rules.ruleset.interactions.get(name)
    if spec is None:
        raise RuleRefused("not_in_this_game", what=name)
    return {key: rules.resolve(value) for key, value in spec.items()}


def interaction_label(event: Event, name: str) -> dict:
    return event.rules().ruleset.interactions[name].get("labels", {"en": name})


def running_event(character: Character) -> Event:
    event = Event.objects.get(pk=character.event_id)
    if not event.running:
        raise RuleRefused("game_paused")
    return event


def someone(event: Event, code: str, *, not_: Character, what: dict) -> Character:
    other = character_by_code(event.pk, code)
    if other.pk == not_.pk:
        raise RuleRefused("not_yourself", what=what)
    return other


def locked(event: Event, characters, now, *, seen_by: str = DECLARED) -> dict[int, HealthState]:
    """Lock everyone's health (id order) with what has expired for what comes next applied
    (`seen_by`, rulesets/instants.py: a fight's result comes before a timer due now)."""
    rows = characters_lock(c.pk for c in characters)
    for health in rows.values():
        due_timers_publish(health, event, now, seen_by=seen_by)
    return rows


def state_label(event: Event, health: HealthState, now) -> dict:
    rules = event.rules()
    if rules.is_inert(health.as_core(), event.game_time(now)) and \
            not rules.ruleset.states[health.status].get("inert"):
        return i18n.label(gettext_noop("inert"))
    return rules.ruleset.states[health.status]["labels"]


def require_able(event: Event, health: HealthState, in_states: list, now, what: dict, *,
                 actor: Character) -> None:
    """In the game (not hors-jeu), in one of the states the fight allows, and not inert
    (A25: an inert character can only be beaten or searched)."""
    rules = event.rules()
    require_in_game(rules, health)
    if health.status not in in_states or rules.is_inert(health.as_core(), event.game_time(now)):
        raise _unable(event, health, now, what, actor)


def require_fighter(event: Event, health: HealthState, now, what: dict, *,
                    actor: Character) -> None:
    """Whoever attacks must be able to fight: in the game, not inert, in a state that can."""
    rules = event.rules()
    require_in_game(rules, health)
    can = rules.ruleset.states[health.status].get("can", [])
    if "fight" not in can or rules.is_inert(health.as_core(), event.game_time(now)):
        raise _unable(event, health, now, what, actor)


def _unable(event: Event, health: HealthState, now, what: dict, actor: Character) -> RuleRefused:
    """The actor may be told their own state; of anyone else, only that the fight needs
    them able to take part: someone else's health is the rules' secret."""
    if health.character_id == actor.pk:
        return RuleRefused("actor_cannot", action=what, state=state_label(event, health, now))
    return RuleRefused("cannot_fight_now", what=what, name=health.character.name)


def now_and_game(event: Event):
    now = timezone.now()
    return now, event.game_time(now)


def fighters_mark(*, character_ids) -> None:
    """They are in a fight now: from here on their snapshots read the fights (a character
    never marked is in none, and its snapshot skips those queries)."""
    Character.objects.filter(pk__in=list(character_ids), has_fought=False).update(has_fought=True)
