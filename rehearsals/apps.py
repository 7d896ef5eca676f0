from django.apps import AppConfig


class RehearsalsConfig(AppConfig):
    name = "rehearsals"
