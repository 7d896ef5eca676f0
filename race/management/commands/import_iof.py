"""`python manage.py import_iof EVENT_ID FILE.xml [--duration-s N]`: an IOF XML 3.0
EntryList or CourseData into a race (race/services/iof_import.py), from a terminal: all or
nothing, every bad element printed with its line and reason in the race's language."""
from django.core.management.base import BaseCommand, CommandError

from common.csv_rows import CsvRejected
from common.i18n import localize, refusal_text
from players.models import Event
from race.labels import say
from race.options import RULESET
from race.services.iof_import import iof_import
from rulesets import RuleRefused


class Command(BaseCommand):
    help = "Import an IOF XML 3.0 EntryList or CourseData into a race: all or nothing."

    def add_arguments(self, parser):
        parser.add_argument("event_id", type=int)
        parser.add_argument("file")
        parser.add_argument("--duration-s", type=int, default=None,
                            help="time allowed on a new course whose name is not a standard one")

    def handle(self, *args, event_id, file, duration_s, **options):
        event = Event.objects.filter(pk=event_id, ruleset=RULESET).first()
        if event is None:
            raise CommandError(f"no race {event_id}")
        try:
            with open(file, "rb") as raw:
                data = raw.read()
        except OSError as exc:
            raise CommandError(f"{file}: {exc.strerror}") from exc
        try:
            summary = iof_import(event=event, raw=data, by=None, duration_s=duration_s)
        except CsvRejected as rejected:
            for row in rejected.rows:
                self.stderr.write(f"{file}:{row['line']}: {localize(row['reason'], event.language)}")
            raise CommandError(localize(say("xml_rejected", count=str(len(rejected.rows))),
                                        event.language)) from None
        except RuleRefused as refused:
            raise CommandError(refusal_text(refused, event.language)) from None
        self.stdout.write(f"{summary['message']}: {summary['imported']} imported in {event.name} "
                          f"(id {event.pk})")
