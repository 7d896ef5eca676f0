import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

# Celery's Django fixup, keeping the database pool from one task to the next.
app = Celery("config", fixups=["config.worker_fixup:fixup"])
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
