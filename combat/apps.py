from django.apps import AppConfig


class CombatConfig(AppConfig):
    name = "combat"

    def ready(self):
        from health import observers as health
        from live import snapshot_answers, snapshots
        from players import observers as players

        from . import answers, snapshot
        # Each kind of fight registers its timed end when its module loads.
        from .services import beatings, duels, heals, schedule, unions  # noqa: F401

        snapshots.snapshot_loader(snapshot.fights_loader)
        snapshots.snapshot_section(snapshot.fights_section)
        snapshots.snapshot_changes_at(snapshot.fights_change_at)
        snapshot_answers.snapshot_answer_part(answers.FightsSnapshotPart)
        # A medic taken out, or a patient moved by a referee, ends the heal they were in;
        # a weapon or a bullet on a participant ends a duel.
        health.states_recorded.register(heals.heals_interrupted)
        health.action_declared.register(duels.duels_interrupted)
        players.clock_resumed.register(schedule.fights_schedule_on_commit)

        from players import privacy

        from .models import Acharnement, Duel, Heal, Union, UnionMember
        # Only states and message codes: nothing a person types.
        privacy.texts_declare(Duel, not_personal=("status", "challenger_result", "defender_result", "reason"))
        privacy.texts_declare(Union, not_personal=("status", "reason"))
        privacy.texts_declare(UnionMember, not_personal=("side",))
        privacy.texts_declare(Acharnement, not_personal=("kind", "status"))
        privacy.texts_declare(Heal, not_personal=("kind", "status", "patient_status", "reason"))
