from django.db import migrations


def one_club_for_the_existing_register(apps, schema_editor):
    """Before clubs, a server had one register: it becomes one club, holding every member
    and every event whose desk used it (a check-in, a sanction or a replica). It is named
    after the first of those events, as a new event's own club is (a superuser renames it
    in the admin). An event that never used the register stays without a club."""
    Club = apps.get_model("club", "Club")
    ClubEvent = apps.get_model("club", "ClubEvent")
    Member = apps.get_model("club", "Member")
    Event = apps.get_model("players", "Event")
    used = set()
    for model in ("CheckIn", "Sanction", "Replica"):
        used |= set(apps.get_model("club", model).objects.exclude(event__isnull=True)
                    .values_list("event_id", flat=True))
    if not used and not Member.objects.exists():
        return
    events = list(Event.objects.filter(pk__in=used).order_by("pk"))
    club = Club.objects.create(name=events[0].name[:200] if events else "Club")
    Member.objects.update(club=club)
    ClubEvent.objects.bulk_create(ClubEvent(club=club, event=event) for event in events)


def members_without_club(apps, schema_editor):
    apps.get_model("club", "Member").objects.update(club=None)
    apps.get_model("club", "ClubEvent").objects.all().delete()
    apps.get_model("club", "Club").objects.all().delete()


class Migration(migrations.Migration):

    dependencies = [
        ("club", "0002_clubs"),
    ]

    operations = [
        migrations.RunPython(one_club_for_the_existing_register, members_without_club),
    ]
