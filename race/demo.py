"""The demo race "Démo — Rugles by Night" (players/management/commands/load_demo.py):
two courses with their balises, solo and team entries, a zombie. The points per balise
are set but not confirmed, so the organisers' screens and the results show the warning."""
from __future__ import annotations

from players.models import Event, Membership
from players.services import login_token_issue

from .services.courses import checkpoint_create, course_create
from .services.entries import entry_gear_check, entry_register, zombie_create

GEAR_OK = {"vest": True, "light": True, "phone": True}
RUGLES = (48.8227, 0.7064)

RUGLES_BY_NIGHT = {
    "courses": [
        # (name, points per balise (unconfirmed), [(code, name), ...])
        ("famille", 20, [("31", "Église Saint-Germain"), ("32", "Pont sur la Risle"),
                         ("33", "Lavoir"), ("34", "Ancienne tréfilerie"), ("35", "Stade")]),
        ("enfant", 20, [("11", "Mairie"), ("12", "Aire de jeux"), ("13", "Boulangerie")]),
    ],
    "entries": [
        # (name, course, finger, phone, team members, gear checked)
        ("Lucie Martin", "famille", 2001, "06 12 34 56 01", [], True),
        ("Les Rescapés", "famille", 2002, "06 12 34 56 02", ["Marc Petit", "Julie Petit"], True),
        ("Zoé et Papa", "enfant", 2003, "06 12 34 56 03", ["Zoé Durand", "Thomas Durand"], True),
        ("Hugo Lambert", "enfant", 2004, "06 12 34 56 04", [], False),
    ],
    "zombies": ["Igor le Zombie"],
}


def race_demo_setup(*, event: Event, data: dict, by) -> None:
    """Once, when the demo event is created."""
    courses = {}
    for name, points, balises in data["courses"]:
        courses[name] = course_create(event=event, name=name, by=by, points_per_checkpoint=points)
        for i, (code, label) in enumerate(balises):
            checkpoint_create(course=courses[name], code=code, name=label, by=by,
                              lat=RUGLES[0] + 0.0012 * i, lon=RUGLES[1] + 0.0008 * (i % 2))
    for name, course, finger, phone, members, ready in data["entries"]:
        entry = entry_register(event=event, course=courses[course], name=name,
                               kind="team" if members else "solo", finger=finger, phone=phone,
                               members=members, deposit_taken=True, by=by)
        if ready:
            entry_gear_check(entry=entry, gear=GEAR_OK, by=by)
    for name in data["zombies"]:
        zombie_create(event=event, name=name, by=by)


def race_demo_links(event: Event) -> list[tuple[str, str]]:
    """A fresh login link for each zombie of the event (none outside a race)."""
    zombies = (Membership.objects.filter(event=event, role=Membership.ZOMBIE)
               .select_related("user").order_by("pk"))
    return [(f"{m.user.first_name} (zombie)", login_token_issue(event=event, user=m.user))
            for m in zombies]
