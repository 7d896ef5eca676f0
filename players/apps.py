from django.apps import AppConfig


class PlayersConfig(AppConfig):
    name = "players"
    verbose_name = "Events, characters and players"
