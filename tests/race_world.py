"""The zombie race of the permissions matrix (tests/test_permissions.py): a race of the
same narrator where Alice (the matrix's player) runs in a team, Denis (other_player) is a
zombie, and nobody else takes part. Built with the services."""
from __future__ import annotations

from players.models import Character, Membership
from players.services import event_create
from race.models import Checkpoint, LifeLoss
from race.services.courses import checkpoint_create, course_create, course_points_confirm
from race.services.entries import entry_gear_check, entry_register
from race.services.lives import grab_record
from race.services.running import entry_finish, entry_start

# What each {placeholder} of a race row is when only its route is checked.
RACE_PLACEHOLDERS = {"race": 1, "race_course": 1, "race_entry": 1, "ready_entry": 1,
                     "finished_entry": 1, "race_loss": 1, "bib": "ABC", "qr31": "RBN-x",
                     "alice_finger": 1}
CONFIRMED = ["not_fast_running", "not_near_checkpoint", "no_contact", "not_on_open_road",
             "target_not_panicking"]


def race_world(narrator_user, player, other_player) -> dict:
    race = event_create(name="Rugles by Night", ruleset="zombie_race", by=narrator_user,
                        start_clock=True)
    course = course_create(event=race, name="famille", by=narrator_user)
    for code in ("31", "32", "33", "34"):
        checkpoint_create(course=course, code=code, by=narrator_user)
    course_points_confirm(course=course, points_per_checkpoint=20, by=narrator_user)
    Membership.objects.create(event=race, user=other_player.user, role=Membership.ZOMBIE)

    def entry(name, finger, **kwargs):
        made = entry_register(event=race, course=course, name=name, finger=finger,
                              phone="0612345678", by=narrator_user, **kwargs)
        return entry_gear_check(entry=made, gear={"vest": True, "light": True, "phone": True},
                                by=narrator_user)

    runners = entry("Les Rescapés", 11, kind="team", members=["Alice", "Ben"])
    # Alice's own login is the team's: her phone reads and punches for it.
    Character.objects.filter(pk=runners.character_id).update(user=player.user)
    Membership.objects.create(event=race, user=player.user, role=Membership.PLAYER)
    entry_start(entry=runners, by=narrator_user)
    grab_record(entry=runners, by=other_player.user, confirmations=CONFIRMED)
    ready = entry("Prêts", 12, kind="solo")
    finished = entry("Arrivés", 13, kind="solo")
    entry_start(entry=finished, by=narrator_user)
    entry_finish(entry=finished, by=narrator_user)
    runners.character.refresh_from_db()
    return {"race": race.pk, "race_course": course.pk, "race_entry": runners.pk,
            "ready_entry": ready.pk, "finished_entry": finished.pk,
            "race_loss": LifeLoss.objects.get(entry=runners).pk, "bib": runners.character.code,
            "qr31": Checkpoint.objects.get(course=course, code="31").qr, "alice_finger": 11}
