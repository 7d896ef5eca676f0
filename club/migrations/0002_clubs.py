import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    """Clubs, their events, and each member's club (filled by 0003, required by 0004:
    PostgreSQL cannot alter a table whose rows the same transaction just updated)."""

    dependencies = [
        ("club", "0001_initial"),
        ("players", "0006_rooms"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="Club",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("name", models.CharField(max_length=200)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
            ],
        ),
        migrations.CreateModel(
            name="ClubEvent",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("attached_at", models.DateTimeField(auto_now_add=True)),
                ("attached_by", models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name="+", to=settings.AUTH_USER_MODEL)),
                ("club", models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="event_links", to="club.club")),
                ("event", models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name="club_link", to="players.event")),
            ],
        ),
        migrations.AddField(
            model_name="member",
            name="club",
            field=models.ForeignKey(null=True, on_delete=django.db.models.deletion.PROTECT, related_name="members", to="club.club"),
        ),
    ]
