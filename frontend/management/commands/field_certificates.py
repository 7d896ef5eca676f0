"""python manage.py field_certificates [NAME_OR_ADDRESS ...]: the event's certificate
authority and the server certificate for the LAN address or local name the phones open
(frontend/field_tls.py, docs/field-network.md). `./run --https` runs it itself."""
from urllib.parse import urlsplit

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from frontend.field_tls import ca_fingerprint, field_certificates_ensure, field_tls_folder


class Command(BaseCommand):
    help = ("Make (once) the event's certificate authority under var/field-tls/ and a server "
            "certificate for the given LAN addresses and local names (default: PUBLIC_URL's host).")

    def add_arguments(self, parser):
        parser.add_argument("names", nargs="*",
                            help="LAN addresses and local names the phones open (192.168.1.10, game.lan)")
        parser.add_argument("--event-name", default="Live game",
                            help="shown on the phones as the authority's name")

    def handle(self, *args, names, event_name, **options):
        names = names or [urlsplit(settings.PUBLIC_URL).hostname or ""]
        tls = field_tls_folder(settings.VAR_DIR)
        try:
            made = field_certificates_ensure(tls=tls, names=names, event_name=event_name)
        except ValueError as error:
            raise CommandError(str(error)) from None
        if "authority" in made:
            self.stdout.write(f"New certificate authority: {tls.ca_cert} (every phone installs it once, "
                              "from /field/ca/)")
        if "server" in made:
            self.stdout.write(f"New server certificate for {', '.join(names)}: {tls.server_cert}")
        self.stdout.write(f"Authority's SHA-256 fingerprint: {ca_fingerprint(tls.ca_cert)}")
