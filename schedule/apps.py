from django.apps import AppConfig


class ScheduleConfig(AppConfig):
    name = "schedule"
    verbose_name = "Game clock, days and games"

    def ready(self):
        from players import observers as players

        from .services import days

        players.clock_resumed.register(days.days_tasks_on_commit)  # a dawn due in a pause runs now
