"""`manage.py rehearse FILE.yaml ...`: play organisers' timelines against the game's
services on a simulated clock and check every expectation (docs/rehearse.md). The
database is left unchanged."""
from django.core.management.base import BaseCommand, CommandError

from rehearsals.runner import rehearse
from rehearsals.file_reading import load_scripts
from rehearsals.script import ScriptError


class Command(BaseCommand):
    help = ("Play rehearsal files (YAML timelines) against the rules and check their "
            "expectations; nothing is saved. See docs/rehearse.md.")

    def add_arguments(self, parser):
        parser.add_argument("files", nargs="+", metavar="FILE.yaml")

    def handle(self, *args, files, **options):
        try:
            scripts = load_scripts(files)  # every file is checked before any is played
        except ScriptError as exc:
            raise CommandError("invalid rehearsal file(s):\n" + str(exc)) from None
        failed, steps = [], 0
        for script in scripts:
            self.stdout.write(f"{script.path.name} ({script.event['ruleset']})")
            result = rehearse(script, self.stdout.write)
            steps += result.passed
            if result.failure:
                failed.append(result.headline)
        if failed:
            raise CommandError(f"{len(failed)} of {len(scripts)} file(s) failed:\n"
                               + "\n".join(failed))
        self.stdout.write(self.style.SUCCESS(
            f"All {steps} steps of {len(scripts)} file(s) passed."))
