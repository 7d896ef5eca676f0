from django.db import migrations


class Migration(migrations.Migration):
    """The idempotency records (common/), the days and games (schedule/) and the club
    register (club/) live in their own apps now. Their tables stay as they are; only the
    character's member column goes, copied into club's check-ins first."""

    dependencies = [
        ("players", "0005_membership_zombie_role"),
        ("common", "0001_initial"),
        ("schedule", "0001_initial"),
        ("club", "0001_initial"),
        ("combat", "0004_chrony_to_club"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(state_operations=[
            migrations.DeleteModel(name="IdempotencyRecord"),
            migrations.DeleteModel(name="GameDay"),
            migrations.DeleteModel(name="Game"),
            migrations.DeleteModel(name="Sanction"),
        ]),
        migrations.RemoveConstraint(model_name="character", name="character_unique_member"),
        migrations.RemoveField(model_name="character", name="member"),
        migrations.SeparateDatabaseAndState(state_operations=[
            migrations.DeleteModel(name="Member"),
        ]),
    ]
