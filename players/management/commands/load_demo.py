"""A demo event to try the game: a player, two medics and a narrator, with login links."""
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from players.models import Event, Membership
from players.services import character_create, event_create, login_token_issue, team_get_or_create

DEMO_NAME = "Démo — Le Manoir"
CHARACTERS = [
    ("Alice Martin", "Les Invités", {"combat_base": 2}, {}),
    ("Denis Roux", "Les Invités", {"combat_base": 3}, {}),
    ("Bruno Lefèvre", "Le Personnel", {"combat_base": 2, "skills": {
        "first_aid": "novice", "surgery": "expert", "metabolic_analysis": True}}, {"kps": 5, "koc": 2}),
    ("Chloé Durand", "Le Personnel", {"combat_base": 1, "skills": {
        "first_aid": "expert", "surgery": "novice"}}, {"kps": 5, "koc": 2}),
]


class Command(BaseCommand):
    help = "Create the demo event (once) and print a fresh login link for each person."

    def handle(self, *args, **options):
        with transaction.atomic():
            narrator, _ = get_user_model().objects.get_or_create(
                username="narrateur", defaults={"is_staff": True})
            event = Event.objects.filter(name=DEMO_NAME).first()
            if event is None:
                event = event_create(name=DEMO_NAME, ruleset="gn_fr", by=narrator, start_clock=True)
                for name, team, sheet, kits in CHARACTERS:
                    character_create(event=event, name=name, sheet=sheet, kits=kits,
                                     team=team_get_or_create(event=event, name=team), by=narrator)
            Membership.objects.get_or_create(event=event, user=narrator, role=Membership.NARRATOR)
            links = [("Narrateur (organiser)", login_token_issue(event=event, user=narrator))]
            for character in event.characters.order_by("pk"):
                links.append((character.name, login_token_issue(event=event, user=character.user)))
        self.stdout.write(f"\nDemo event: {event.name} (id {event.pk}, ruleset {event.ruleset})")
        self.stdout.write("Open each link on a phone or in a private window (each works once):")
        for who, raw in links:
            self.stdout.write(f"  {who:24} {settings.PUBLIC_URL}/login/{raw}")
        self.stdout.write(f"API docs: {settings.PUBLIC_URL}/api/docs/\n")
