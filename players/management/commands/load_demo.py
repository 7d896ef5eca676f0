"""Demo events to try the games: a French GN evening (gn_fr) and a Spanish Septenario de
Normas day (septenario_es), each with players, medics and a narrator, with login links."""
from dataclasses import dataclass, field

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from players.models import Event, Membership
from players.services import character_create, event_create, login_token_issue, team_get_or_create


@dataclass
class Demo:
    name: str
    ruleset: str
    language: str
    narrator: str
    characters: list = field(default_factory=list)  # (name, team, sheet, kits)


DEMOS = [
    Demo("Démo — Le Manoir", "gn_fr", "fr", "narrateur", [
        ("Alice Martin", "Les Invités", {"combat_base": 2}, {}),
        ("Denis Roux", "Les Invités", {"combat_base": 3}, {}),
        ("Bruno Lefèvre", "Le Personnel", {"combat_base": 2, "skills": {
            "first_aid": "novice", "surgery": "expert", "metabolic_analysis": True}},
         {"kps": 5, "koc": 2}),
        ("Chloé Durand", "Le Personnel", {"combat_base": 1, "skills": {
            "first_aid": "expert", "surgery": "novice"}}, {"kps": 5, "koc": 2}),
    ]),
    Demo("Demo — Septenario: La Fortaleza", "septenario_es", "es", "narrador", [
        ("Lucía Ferrer", "La Compañía", {
            "trauma": 3, "coraje": 2, "armour": "light", "abilities": ["evasion"],
            "carried": [{"name": "Espada", "load": 1}, {"name": "Armadura ligera", "load": 2}]}, {}),
        ("Mateo Ibáñez", "La Compañía", {
            "trauma": 2, "coraje": 3, "armour": "heavy", "abilities": ["fuerza"],
            "carried": [{"name": "Hacha pesada", "load": 2}, {"name": "Armadura pesada", "load": 3}]}, {}),
        ("Inés Robles", "Los Peregrinos", {
            "trauma": 2, "coraje": 1, "abilities": ["primeros_auxilios", "medicina"],
            "carried": [{"name": "Bolsa de vendas", "load": 1}]}, {}),
        ("Tomás Vidal", "Los Peregrinos", {
            "trauma": 1, "coraje": 1, "abilities": ["tirador"],
            "carried": [{"name": "Pistola de chispa", "load": 1}]}, {}),
    ]),
]


class Command(BaseCommand):
    help = "Create the demo events (once each) and print a fresh login link for each person."

    def handle(self, *args, **options):
        for demo in DEMOS:
            event, links = self._load(demo)
            self.stdout.write(f"\nDemo event: {event.name} (id {event.pk}, ruleset {event.ruleset}, "
                              f"language {event.language})")
            self.stdout.write("Open each link on a phone or in a private window (each works once):")
            for who, raw in links:
                self.stdout.write(f"  {who:24} {settings.PUBLIC_URL}/login/{raw}")
        self.stdout.write(f"API docs: {settings.PUBLIC_URL}/api/docs/\n")

    @transaction.atomic
    def _load(self, demo: Demo):
        narrator, _ = get_user_model().objects.get_or_create(
            username=demo.narrator, defaults={"is_staff": True})
        event = Event.objects.filter(name=demo.name).first()
        if event is None:
            event = event_create(name=demo.name, ruleset=demo.ruleset, language=demo.language,
                                 by=narrator, start_clock=True)
            for name, team, sheet, kits in demo.characters:
                character_create(event=event, name=name, sheet=sheet, kits=kits,
                                 team=team_get_or_create(event=event, name=team), by=narrator)
        Membership.objects.get_or_create(event=event, user=narrator, role=Membership.NARRATOR)
        links = [(f"{demo.narrator} (organiser)", login_token_issue(event=event, user=narrator))]
        for character in event.characters.order_by("pk"):
            links.append((character.name, login_token_issue(event=event, user=character.user)))
        return event, links
