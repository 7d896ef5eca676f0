"""What a medic's (or anyone's) action on another character checks before it applies, and
how its refusals stay silent about the other's health."""
from __future__ import annotations

from contextlib import contextmanager

from django.utils.translation import gettext_noop

from common.i18n import label
from players.models import Character
from rulesets import RuleRefused


@contextmanager
def state_kept_private(rules, action: str):
    """A refusal that would name the patient's (or victim's) state (\"applies to Wounded;
    this character is Healthy\") tells the one acting only that it does not apply: what
    someone else's health is, only the rules reveal (an analysis)."""
    try:
        yield
    except RuleRefused as refused:
        if refused.code not in ("not_in_state", "not_now"):
            raise
        allowed = [rules.ruleset.states[s]["labels"] for s in rules.target_states(action)]
        raise RuleRefused("not_applicable", action=rules.ruleset.actions[action]["labels"],
                          allowed=allowed) from None


def require_actor_able(rules, action: str, actor: Character, game_s: float) -> None:
    """An action that names what its actor must be able to do (`actor_needs`: giving
    First Aid) is refused to an actor whose own state does not allow it."""
    needed = rules.ruleset.actions[action].get("actor_needs")
    if not needed:
        return
    state = rules.advance(actor.health.as_core(), actor.sheet, game_s).state
    status = rules.ruleset.states[state.status]
    inert = rules.is_inert(state, game_s)
    if needed not in status.get("can", []) or inert:
        # Lying inert in a state that is not (gn_fr L17, Tired's first minute): say so.
        shown = label(gettext_noop("inert")) if inert and not status.get("inert") else status["labels"]
        raise RuleRefused("actor_cannot", action=rules.ruleset.actions[action]["labels"],
                          state=shown)


def require_in_game(rules, health) -> None:
    """Hors-jeu (gn_fr L58: "Les autres personnages vous ignoreront mais pas les
    organisateurs !"): a character hors-jeu takes no part in what characters do to each
    other (a fight, a treatment), whichever side they are on. The organisers' own
    declarations do not come here: they still land."""
    if rules.ruleset.has("out_of_game") and (health.values or {}).get("out_of_game"):
        raise RuleRefused("character_out_of_game", name=health.character.name)


def require_kit(rules, action: str, medic: Character) -> str | None:
    kit = rules.ruleset.actions[action].get("kit")
    if kit and int(medic.kits.get(kit, 0)) < 1:
        raise RuleRefused("no_kit", kit=rules.ruleset.kits[kit]["labels"])
    return kit


def outcome_known(rules, action: str) -> tuple[str, list[str]] | None:
    """The state an action leaves its target in, and the timers it sets there, when the
    rules decide them whatever the target's state was (a surgery: "ton niveau de santé
    est maintenant fatigué", announced by the medic); None when the result depends on
    the state (a first aid: "si tu es blessé… si tu es dans le coma…"), which the one
    acting does not learn."""
    entered, timers = set(), set()
    for state in rules.target_states(action):
        steps = rules.ruleset.actions[action]["outcomes"][state]
        states = [step["enter"] for step in steps if "enter" in step]
        if len(states) != 1 or not isinstance(states[0], str):
            return None                   # no change, or one that depends on the target
        entered.add(states[0])
        timers.update(step["set_timer"]["timer"] for step in steps if "set_timer" in step)
    return (entered.pop(), sorted(timers)) if len(entered) == 1 else None
