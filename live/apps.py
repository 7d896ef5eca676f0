from django.apps import AppConfig


class LiveConfig(AppConfig):
    verbose_name = "Live updates to phones"
    name = "live"
