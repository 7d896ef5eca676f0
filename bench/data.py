"""A big event for the benchmarks, made fast: rows are created in bulk (setting up is not
what is measured), in the same shape the services make them, and every player gets a
session so thousands of phones can connect without logging in one by one."""
from __future__ import annotations

import json
import secrets
from dataclasses import dataclass
from datetime import timedelta
from urllib.parse import urlparse

import psycopg


def reset_database(url: str) -> None:
    """Drop and re-create the benchmark database, then migrate it."""
    import django
    from django.apps import apps
    if apps.ready:   # a previous run's pooled connections point at the database dropped here
        from django.db import connections
        for connection in connections.all():
            connection.close()
            if hasattr(connection, "close_pool"):
                connection.close_pool()
    parts = urlparse(url)
    name = parts.path.lstrip("/")
    admin = parts._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    django.setup()
    from django.core.management import call_command
    call_command("migrate", verbosity=0)


@dataclass
class Population:
    event_id: int
    narrator_session: str
    players: list[dict]          # {"id", "session", "team"}

    def dump(self, path) -> None:
        path.write_text(json.dumps({"event_id": self.event_id, "players": self.players}))


def _session(user) -> str:
    from django.contrib.sessions.backends.db import SessionStore
    from django.utils import timezone
    store = SessionStore()
    data = {"_auth_user_id": str(user.pk),
            "_auth_user_backend": "django.contrib.auth.backends.ModelBackend",
            "_auth_user_hash": user.get_session_auth_hash()}
    key = secrets.token_hex(16)
    return key, store.encode(data), timezone.now() + timedelta(days=1)


def populate(players: int, team_size: int = 50, sessions: bool = True, **options) -> Population:
    from django.contrib.auth import get_user_model
    from django.contrib.sessions.models import Session

    from health.models import HealthState
    from players.models import Character, Membership, Team
    from players.services import event_create

    User = get_user_model()
    narrator = User.objects.create_user(username="bench-narrator", is_staff=True, is_superuser=True)
    event = event_create(name="Benchmark", ruleset="gn_fr", by=narrator, start_clock=True,
                         options=options)
    teams = Team.objects.bulk_create(Team(event=event, name=f"team-{i}")
                                     for i in range((players + team_size - 1) // team_size))
    users = User.objects.bulk_create((User(username=f"bench-{i}", password="!") for i in range(players)),
                                     batch_size=2000)
    characters = Character.objects.bulk_create(
        (Character(event=event, team=teams[i // team_size], user=users[i], name=f"Player {i}",
                   code=f"B{i:06d}", sheet={"combat_base": 2}) for i in range(players)), batch_size=2000)
    Membership.objects.bulk_create((Membership(event=event, user=u, role="player") for u in users),
                                   batch_size=2000)
    initial = event.rules().initial_state()
    HealthState.objects.bulk_create(
        (HealthState(character=c, event=event, status=initial.status, timers={},
                     values=dict(initial.values), version=1) for c in characters), batch_size=2000)
    sessions = [_session(u) for u in users] if sessions else [("", "", None)] * len(users)
    Session.objects.bulk_create((Session(session_key=k, session_data=d, expire_date=e)
                                 for k, d, e in sessions if k), batch_size=2000)
    narrator_key, data, expires = _session(narrator)
    Session.objects.create(session_key=narrator_key, session_data=data, expire_date=expires)
    return Population(event.pk, narrator_key, [
        {"id": c.pk, "session": sessions[i][0], "team": teams[i // team_size].name}
        for i, c in enumerate(characters)])


def sessions_for(population: Population, players: list[dict]) -> None:
    """Sessions for some players only (those whose phones a benchmark connects), written
    into their entries of `population.players`."""
    from django.contrib.sessions.models import Session

    from players.models import Character
    users = {c.pk: c.user for c in Character.objects.select_related("user")
             .filter(pk__in=[p["id"] for p in players])}
    made = []
    for player in players:
        key, data, expires = _session(users[player["id"]])
        player["session"] = key
        made.append(Session(session_key=key, session_data=data, expire_date=expires))
    Session.objects.bulk_create(made, batch_size=2000)
