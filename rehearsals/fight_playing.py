"""Playing the fight steps of a rehearsal (docs/rehearse.md) through the combat services
a phone's API calls, and ending the timed fights (a union's three seconds, an
acharnement's five minutes, an airsoft medic's count from 11 to 20) each at its own
instant, as its task would on the server.
"""
from __future__ import annotations

from datetime import datetime, timedelta

from django.db.models import Min

from combat.models import Acharnement, Duel, Heal, Union, UnionMember
from combat.selectors import REASONS
from combat.services.beatings import acharnement_start, acharnement_stop
from combat.services.duels import duel_answer, duel_propose
from combat.services.heals import heal_start, heal_stop
from combat.services.schedule import fights_sweep
from combat.services.searches import character_search
from combat.services.shots import shot_declare
from combat.services.unions import union_claim, union_join
from rulesets import RuleRefused

from rehearsals.script import Step, StepFailed, format_time


class DuelRefused(RuleRefused):
    """The answer was taken but the duel did not happen (recorded as refused, so that both
    phones show why): to the rehearsal, a refusal with the recorded reason."""

    def message(self, lang: str = "en") -> str:
        why = REASONS.get(self.code, {}).get(lang, self.code)
        return f"The duel did not happen: {why}."


class FightSteps:
    """The fight steps of runner._Player: the same service calls as combat/apis.py,
    each character acting through its own player. A step may return a note shown after
    `ok` (a duel's results, when a timed fight ends)."""

    def code(self, key: str) -> str:
        return self.character(key).code

    def key_of(self, character_id: int) -> str:
        return next(k for k, pk in self.ids.items() if pk == character_id)

    def wall_at(self, game_s: float) -> str:
        """The `at` time (wall time since the start) at which the game clock reads game_s."""
        wall = self.event().wall_time(game_s)
        return format_time((wall - self.start).total_seconds()) if wall else "resume"

    def _duel(self, step: Step) -> str:
        spec = step.fight
        duel = duel_propose(challenger=self.character(step.by),
                            opponent_code=self.code(spec["opponent"]), by=self.user(step.by))
        if spec["answer"] == "pending":
            return f"{spec['opponent']} may answer until {self.wall_at(duel.expires_game_s)}"
        return self.answer(duel, spec["opponent"], spec)

    def _answer_duel(self, step: Step) -> str:
        """The latest challenge still open to this character; failing that its latest one,
        so that answering twice meets the service's own refusal."""
        mine = Duel.objects.filter(event_id=self.event_id, defender_id=self.ids[step.by]).order_by("-pk")
        duel = mine.filter(status=Duel.PROPOSED).first() or mine.first()
        if duel is None:
            raise StepFailed([f"nobody challenged {step.by} to a duel"])
        return self.answer(duel, step.by, step.fight)

    def answer(self, duel: Duel, defender: str, spec: dict) -> str:
        duel = duel_answer(duel=duel, defender=self.character(defender),
                           accept=spec["answer"] == "accept",
                           weapon_in_hand=spec["weapon_in_hand"], by=self.user(defender))
        if duel.status == Duel.REFUSED:
            raise DuelRefused(duel.reason)
        if duel.status == Duel.DECLINED:
            return "declined"
        if duel.challenger_result == Duel.TIE:
            return "a tie: both lose"
        return (f"{self.key_of(duel.challenger_id)} {duel.challenger_result}, "
                f"{self.key_of(duel.defender_id)} {duel.defender_result}")

    def _union(self, step: Step) -> str:
        spec = step.fight
        union = union_claim(claimant=self.character(step.by),
                            attacker_codes=[self.code(k) for k in spec["attackers"]],
                            defender_codes=[self.code(k) for k in spec["defenders"]],
                            weapon_drawn=spec["weapon_drawn"], by=self.user(step.by))
        return f"{self.sides(union)}, resolves at {self.wall_at(union.resolve_game_s)}"

    def _join_union(self, step: Step) -> str:
        union = union_join(joiner=self.character(step.by),
                           defender_code=self.code(step.fight["defender"]), by=self.user(step.by))
        if union.status == Union.CANCELLED:
            return f"{self.sides(union)}: rebalanced, the claim falls"
        return f"{self.sides(union)}, resolves at {self.wall_at(union.resolve_game_s)}"

    def sides(self, union: Union) -> str:
        members = list(union.members.values_list("side", flat=True))
        return (f"{members.count(UnionMember.ATTACKERS)} against "
                f"{members.count(UnionMember.DEFENDERS)}")

    def _acharnement(self, step: Step) -> str:
        beating = acharnement_start(attacker=self.character(step.by),
                                    victim_code=self.code(step.fight["victim"]),
                                    kind=step.fight["kind"], by=self.user(step.by))
        return f"ends at {self.wall_at(beating.ends_game_s)}"

    def _stop_acharnement(self, step: Step) -> str | None:
        """This attacker's running acharnement; failing that its latest one."""
        mine = Acharnement.objects.filter(event_id=self.event_id,
                                          attacker_id=self.ids[step.by]).order_by("-pk")
        beating = mine.filter(status=Acharnement.RUNNING).first() or mine.first()
        if beating is None:
            raise StepFailed([f"{step.by} never started an acharnement"])
        beating = acharnement_stop(acharnement=beating, attacker=self.character(step.by),
                                   by=self.user(step.by))
        return "completed: the full duration was over" if beating.status == Acharnement.COMPLETED else None

    def _search(self, step: Step) -> None:
        spec = step.fight
        character_search(searcher=self.character(step.by), target_code=self.code(spec["target"]),
                         location=spec["location"], strip=spec["strip"], by=self.user(step.by))

    def _heal(self, step: Step) -> str | None:
        """The medic starts healing (or extracting) the patient whose code they scanned."""
        spec = step.fight
        heal = heal_start(medic=self.character(step.by), patient_code=self.code(spec["patient"]),
                          kind=spec["kind"], by=self.user(step.by))
        return f"ends at {self.wall_at(heal.ends_game_s)}" if heal.ends_game_s is not None else None

    def _stop_heal(self, step: Step) -> str | None:
        """This medic's running heal or extraction; failing that their latest one."""
        mine = Heal.objects.filter(event_id=self.event_id, medic_id=self.ids[step.by]).order_by("-pk")
        heal = mine.filter(status=Heal.RUNNING).first() or mine.first()
        if heal is None:
            raise StepFailed([f"{step.by} never started a heal or an extraction"])
        heal = heal_stop(heal=heal, medic=self.character(step.by), reason=step.fight["reason"],
                         by=self.user(step.by))
        return "completed: the count was over" if heal.status == Heal.COMPLETED else None

    def _hit_by(self, step: Step) -> str:
        """The one hit names the shooter (shot_declare): a hit, or a void shot."""
        shooter = step.fight["shooter"]
        shot = shot_declare(target=self.character(step.by), shooter_code=self.code(shooter),
                            by=self.user(step.by))
        if shot["hit"]:
            return "hit"
        return f"void: {shooter} may not shoot now" + \
            (f"; recorded on {shooter}" if shot["recorded"] else "")

    # -- timed fights ----------------------------------------------------------------
    def end_fights_before(self, instant: datetime) -> None:
        """End every timed fight due before the step's instant, each at its own instant, so
        that what follows (a defender's ten Tired minutes, a victim's fifteen Wounded ones)
        counts from there. At the step's own instant an acharnement or a heal ends before
        the step (a completion, spec §0) and a union's window after it (a timer; see
        play())."""
        while (due := self._next_fight_end(instant)) is not None:
            self.sweep(due)
            if not fights_sweep():
                return  # cannot happen; never loop forever

    def _next_fight_end(self, instant: datetime) -> datetime | None:
        event = self.event()
        if not event.running:
            return None                          # a paused clock ends nothing
        game_s = event.game_time(instant)
        ends = [Union.objects.filter(event=event, status=Union.PENDING, resolve_game_s__lt=game_s)
                .aggregate(due=Min("resolve_game_s"))["due"],
                Acharnement.objects.filter(event=event, status=Acharnement.RUNNING,
                                           ends_game_s__lte=game_s)
                .aggregate(due=Min("ends_game_s"))["due"],
                Heal.objects.filter(event=event, status=Heal.RUNNING, kind=Heal.HEAL,
                                    ends_game_s__lte=game_s)
                .aggregate(due=Min("ends_game_s"))["due"]]
        due = min((d for d in ends if d is not None), default=None)
        if due is None:
            return None
        wall = event.wall_time(due)
        while event.game_time(wall) < due:       # microsecond rounding
            wall += timedelta(microseconds=1)
        return wall
