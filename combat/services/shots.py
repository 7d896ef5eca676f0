"""A hit declared with its shooter (airsoft C1, P13, B10): the player hit names who shot
them (the code on the shooter's QR; a referee may pick them). The hit counts only from a
shooter in a state the ruleset's `shot` interaction allows (`shooter_in`: in play); a
shot fired before the shooter called "retour en jeu", or while out, is void: the target
stays as they were, and the shooter's state records it where it has the `void` action
(P13: `acted_before_call`, counted in `invalid_actions`). A medic's shot during a heal is
B6, the heal's business (`heal_stop(reason: fired)`)."""
# Rule codes: docs/rules/airsoft_rats-coverage.md; their families: docs/glossary.md.
from __future__ import annotations

from django.db import transaction

from health.services import character_apply_rules, game_running_require
from players.models import Character, Event
from players.services import journal_write

from .common import interaction, interaction_label, locked, now_and_game, someone


@transaction.atomic
def shot_declare(*, target: Character, shooter_code: str, by, as_narrator: bool = False) -> dict:
    """Returns {hit, void, shooter, recorded}: whether the hit was applied to the target,
    or the shot was void (and whether the shooter's rules recorded it)."""
    event = Event.objects.get(pk=target.event_id)
    game_running_require(event, as_narrator)
    spec = interaction(event, "shot")
    shooter = someone(event, shooter_code, not_=target, what=interaction_label(event, "shot"))
    now, game_s = now_and_game(event)
    rows = locked(event, [target, shooter], now)
    detail = {"shooter": {"id": shooter.pk, "name": shooter.name},
              "target": {"id": target.pk, "name": target.name}}
    if rows[shooter.pk].status in spec["shooter_in"]:
        character_apply_rules(health=rows[target.pk], event=event, action=spec["hit"], by=by,
                              now=now, detail={"shot": detail})
        return {"hit": True, "void": False, "shooter": shooter.name, "recorded": False}
    rules = event.rules()
    shooter_row = rows[shooter.pk]
    recorded = rules.available(rules.advance(shooter_row.as_core(), shooter.sheet, game_s).state,
                               spec["void"])
    if recorded:
        character_apply_rules(health=shooter_row, event=event, action=spec["void"], by=by,
                              now=now, detail={"shot": detail})
    journal_write(event=event, kind="shot", what="void", at=now, by=by, character=shooter,
                  detail={**detail, "shooter_state": shooter_row.status, "recorded": recorded})
    return {"hit": False, "void": True, "shooter": shooter.name, "recorded": recorded}
