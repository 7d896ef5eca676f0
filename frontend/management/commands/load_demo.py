"""Demo events to try the games: a French GN evening (gn_fr), a Spanish Septenario de
Normas day (septenario_es), each with players, medics and a narrator, and an airsoft day at
the Terrier (airsoft_rats) whose players are club members checked in at the desk, with a
referee and its first game announced. Login links for everyone."""
from dataclasses import dataclass, field
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone

from players.models import Event, Membership
from club.services.register import member_check_in, member_create
from players.services import (character_create, event_create, login_token_issue, membership_grant,
                              team_get_or_create)
from schedule.services.games import game_announce
from race.demo import RUGLES_BY_NIGHT, race_demo_links, race_demo_setup


@dataclass
class Demo:
    name: str
    ruleset: str
    language: str
    narrator: str
    characters: list = field(default_factory=list)  # (name, team, sheet, kits)
    # Airsoft: (name, team, licence number) of club members checked in at the desk
    # (club/services/register.py), and the first game announced (schedule/services/games.py).
    members: list = field(default_factory=list)
    first_game: dict | None = None
    # Referees (Membership role "referee": sanctions and the chrony, js/referee.js): (user
    # name, first name).
    referees: list = field(default_factory=list)
    # The zombie race: courses, entries and zombies (race/demo.py).
    race: dict | None = None


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
    Demo("Démo — Airsoft au Terrier", "airsoft_rats", "fr", "orga", members=[
        ("Karim Benali", "Rouges", "RAT-DEMO-01"),
        ("Léa Roux", "Rouges", "RAT-DEMO-02"),
        ("Yanis Morel", "Rouges", "RAT-DEMO-03"),
        ("Hugo Petit", "Bleus", "RAT-DEMO-04"),
        ("Inès Garnier", "Bleus", "RAT-DEMO-05"),
        ("Sofia Lambert", "Bleus", "RAT-DEMO-06"),
    ], referees=[("arbitre", "Nadia")], first_game={
        "scenario": "Capture du drapeau",
        "description": "Chaque équipe garde son drapeau à son spawn et doit ramener celui "
                       "de l'autre. Mode médecin : un coéquipier vous soigne sur place.",
        "options": {"medic_mode": True}}),
    Demo("Démo — Rugles by Night", "zombie_race", "fr", "organisateur", race=RUGLES_BY_NIGHT),
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
            # An airsoft day's clock runs only during its games.
            event = event_create(name=demo.name, ruleset=demo.ruleset, language=demo.language,
                                 by=narrator, start_clock=demo.first_game is None)
            for name, team, sheet, kits in demo.characters:
                character_create(event=event, name=name, sheet=sheet, kits=kits,
                                 team=team_get_or_create(event=event, name=team), by=narrator)
            self._check_in(event, demo, narrator)
            if demo.race:
                race_demo_setup(event=event, data=demo.race, by=narrator)
            if demo.first_game:
                # The day's clock waits for the first game: starting it runs the clock.
                game_announce(event=event, by=narrator,
                              start_at=timezone.now() + timedelta(minutes=30), **demo.first_game)
        membership_grant(event=event, user=narrator, role=Membership.NARRATOR)
        links = [(f"{demo.narrator} (organiser)", login_token_issue(event=event, user=narrator))]
        for username, first_name in demo.referees:
            referee, _ = get_user_model().objects.get_or_create(
                username=username, defaults={"first_name": first_name})
            membership_grant(event=event, user=referee, role=Membership.REFEREE)
            links.append((f"{first_name} (referee)", login_token_issue(event=event, user=referee)))
        for character in event.characters.order_by("pk"):
            links.append((character.name, login_token_issue(event=event, user=character.user)))
        return event, links + race_demo_links(event)

    def _check_in(self, event, demo: Demo, narrator) -> None:
        """Each member registered at the desk of the new event, whose first member gives
        it a club (and a register) of its own, and checked in to this game."""
        for name, team, licence in demo.members:
            member = member_create(event=event, name=name, phone="+33 6 00 00 00 00",
                                   licence_number=licence, by=narrator)
            member_check_in(event=event, member=member, team_name=team, by=narrator)
