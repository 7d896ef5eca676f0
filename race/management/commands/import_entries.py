"""`python manage.py import_entries EVENT_ID FILE.csv`: the entries import of the race
organisers' screen (race/services/entries_import.py), from a terminal: all or nothing,
every bad line printed with its number and reason in the race's language."""
from django.core.management.base import BaseCommand, CommandError

from common.csv_rows import csv_file_import
from players.models import Event
from race.labels import say
from race.options import RULESET
from race.services.entries_import import entries_import


class Command(BaseCommand):
    help = "Register a race's entries from a CSV file (name, course, finger, phone, ...): all or none."

    def add_arguments(self, parser):
        parser.add_argument("event_id", type=int)
        parser.add_argument("file")

    def handle(self, *args, event_id, file, **options):
        event = Event.objects.filter(pk=event_id, ruleset=RULESET).first()
        if event is None:
            raise CommandError(f"no race {event_id}")
        summary = csv_file_import(
            path=file, language=event.language, write=self.stderr.write, fail=CommandError,
            run=lambda text: entries_import(event=event, text=text, by=None),
            rejected_label=lambda count: say("entries_rejected", count=str(count)))
        self.stdout.write(f"{summary['imported']} entries registered in {event.name} (id {event.pk})")
