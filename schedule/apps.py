from django.apps import AppConfig


class ScheduleConfig(AppConfig):
    name = "schedule"
    verbose_name = "Game clock, days and games"

    def ready(self):
        from players import observers as players
        from players import privacy

        from . import selectors
        from .services import days

        players.clock_resumed.register(days.days_tasks_on_commit)  # a dawn due in a pause runs now
        # An event ends after its last day and game, even those still to come.
        privacy.event_activity.register(selectors.last_day_instant)
        privacy.event_activity.register(selectors.last_game_instant)
        from .models import Game, GameDay
        privacy.texts_declare(GameDay, not_personal=("kind",))
        privacy.texts_declare(Game, scrubbed=("description",),
                              not_personal=("scenario", "options", "day_options"))
