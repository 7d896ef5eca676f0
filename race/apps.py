from django.apps import AppConfig


class RaceConfig(AppConfig):
    name = "race"
    verbose_name = "Zombie orienteering race"
