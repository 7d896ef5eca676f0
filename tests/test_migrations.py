"""A database created before the rooms moved (club, days and games, idempotency records
in players/; replicas in combat/) migrates forward with its data."""
from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

BEFORE = [("players", "0005_membership_zombie_role"), ("combat", "0003_heals"),
          ("health", "0001_initial"), ("effects", "0005_item_load_effect_catalogue"),
          ("push", "0001_initial"), ("race", "0001_initial"),
          ("common", None), ("club", None), ("schedule", None)]


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    executor.loader.build_graph()
    return executor.loader.project_state(
        [t for t in targets if t[1] is not None]).apps


def _latest():
    executor = MigrationExecutor(connection)
    return [key for key in executor.loader.graph.leaf_nodes()]


@pytest.mark.django_db(transaction=True)
def test_an_airsoft_day_of_the_old_schema_keeps_its_members_sanctions_games_and_replicas():
    old = _migrate(BEFORE)
    now = timezone.now()
    User = old.get_model("auth", "User")
    Event = old.get_model("players", "Event")
    Character = old.get_model("players", "Character")
    Member = old.get_model("players", "Member")
    referee = User.objects.create(username="arbitre")
    day = Event.objects.create(name="Terrier", ruleset="airsoft_rats", options={})
    alice = Member.objects.create(name="Alice", phone="0600", licence_number="RAT-1")
    rat = Character.objects.create(event=day, name="Alice", code="AAAAAA", member=alice)
    Character.objects.create(event=day, name="Bob", code="BBBBBB")
    old.get_model("players", "Sanction").objects.create(
        member=alice, event=day, character=rat, level="light", kind="warning", reason="pas crié out",
        decided_by=referee, decided_at=now)
    old.get_model("players", "Game").objects.create(
        event=day, number=1, scenario="Drapeau", start_at=now, announced_at=now)
    old.get_model("players", "GameDay").objects.create(event=day, kind="dawn", due_at=now)
    old.get_model("players", "IdempotencyRecord").objects.create(
        user=referee, key="k1", request_hash="h", status_code=201, body={"ok": True})
    replica = old.get_model("combat", "Replica").objects.create(
        member=alice, event=day, label="M4", type="rifle", calibre_mm=6, code="R1")
    old.get_model("combat", "ChronyCheck").objects.create(
        replica=replica, kind="check_in", checked_at=now, bb_weight_g=0.2, energy_j=1.0,
        calibre_mm=6, passed=True)

    new = _migrate(_latest())

    member = new.get_model("club", "Member").objects.get(licence_number="RAT-1")
    check_ins = new.get_model("club", "CheckIn").objects.all()
    assert [(c.member_id, c.character_id, c.event_id) for c in check_ins] == [(member.pk, rat.pk, day.pk)]
    assert new.get_model("club", "Sanction").objects.get().reason == "pas crié out"
    assert new.get_model("club", "Replica").objects.get().checks.get().passed is True
    assert new.get_model("schedule", "Game").objects.get().scenario == "Drapeau"
    assert new.get_model("schedule", "GameDay").objects.get().kind == "dawn"
    assert new.get_model("common", "IdempotencyRecord").objects.get().body == {"ok": True}
    assert new.get_model("players", "Character").objects.filter(event_id=day.pk).count() == 2


@pytest.mark.django_db(transaction=True)
def test_the_register_before_clubs_becomes_one_club_with_the_events_that_used_it():
    latest = _latest()
    old = _migrate([("club", "0001_initial")] + [key for key in latest if key[0] != "club"])
    now = timezone.now()
    Event = old.get_model("players", "Event")
    Member = old.get_model("club", "Member")
    terrier = Event.objects.create(name="Terrier", ruleset="airsoft_rats", options={})
    tuesday = Event.objects.create(name="Mardi", ruleset="airsoft_rats", options={})
    sunday = Event.objects.create(name="Dimanche", ruleset="airsoft_rats", options={})
    larp = Event.objects.create(name="Le Manoir", ruleset="gn_fr", options={})
    alice = Member.objects.create(name="Alice", phone="0600", licence_number="RAT-1")
    Member.objects.create(name="Bob", phone="0601", licence_number="RAT-2")  # never played
    rat = old.get_model("players", "Character").objects.create(event=terrier, name="Alice",
                                                               code="AAAAAA")
    old.get_model("club", "CheckIn").objects.create(member=alice, character=rat, event=terrier)
    old.get_model("club", "Replica").objects.create(member=alice, event=tuesday, label="M4",
                                                    type="rifle", calibre_mm=6, code="R1")
    old.get_model("club", "Sanction").objects.create(
        member=alice, event=sunday, level="light", kind="warning", reason="pas crié out",
        decided_at=now)

    new = _migrate(latest)

    club = new.get_model("club", "Club").objects.get()
    assert club.name == "Terrier"
    assert sorted(new.get_model("club", "Member").objects.filter(club=club)
                  .values_list("licence_number", flat=True)) == ["RAT-1", "RAT-2"]
    assert sorted(new.get_model("club", "ClubEvent").objects.filter(club=club)
                  .values_list("event__name", flat=True)) == ["Dimanche", "Mardi", "Terrier"]
    assert not new.get_model("club", "ClubEvent").objects.filter(event_id=larp.pk).exists()
    # Now numbered in its club only: another club may have its own RAT-1.
    other = new.get_model("club", "Club").objects.create(name="Les Sangliers")
    new.get_model("club", "Member").objects.create(club=other, name="Aude", phone="0700",
                                                   licence_number="RAT-1")
