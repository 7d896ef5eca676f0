"""Prints the first-run link while the server has no administrator: opened in a browser,
it makes the first organiser's account, so that nobody needs a shell after `./run`."""
from django.conf import settings
from django.core.management.base import BaseCommand

from players.setup_services import setup_token_issue


class Command(BaseCommand):
    help = "Print a one-time link that creates the first organiser (while there is no administrator)."

    def handle(self, *args, **options):
        raw = setup_token_issue()
        if raw is None:
            return
        self.stdout.write(f"\nFirst organiser: open {settings.PUBLIC_URL}/setup/{raw} "
                          "in your browser (valid 24 h, once).\n")
