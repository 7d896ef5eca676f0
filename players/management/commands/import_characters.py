"""`python manage.py import_characters EVENT_ID FILE.csv`: the roster import of the
organisers' screen (players/roster_services.py), from a terminal. A file with a bad line
imports nothing; every bad line is printed with its number and reason, in the event's
language, and the command fails."""
from django.core.management.base import BaseCommand, CommandError

from common.csv_rows import csv_file_import
from players.models import Event
from players.roster_services import characters_import, say


class Command(BaseCommand):
    help = "Create an event's characters from a CSV file (name, team, then sheet fields): all or none."

    def add_arguments(self, parser):
        parser.add_argument("event_id", type=int)
        parser.add_argument("file")

    def handle(self, *args, event_id, file, **options):
        event = Event.objects.filter(pk=event_id).first()
        if event is None:
            raise CommandError(f"no event {event_id}")
        summary = csv_file_import(
            path=file, language=event.language, write=self.stderr.write, fail=CommandError,
            run=lambda text: characters_import(event=event, text=text, by=None),
            rejected_label=lambda count: say("roster_rejected", count=str(count)))
        self.stdout.write(f"{summary['imported']} characters imported into {event.name} (id {event.pk}); "
                          f"teams created: {', '.join(summary['teams_created']) or '-'}")
        self.stdout.write(f"Print their sheets at /events/{event.pk}/sheets/")
