from django.db import migrations


class Migration(migrations.Migration):
    """The chrony station's replicas and checks now belong to the club register (club/);
    their tables stay as they are."""

    dependencies = [
        ("combat", "0003_heals"),
        ("club", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(state_operations=[
            migrations.DeleteModel(name="ChronyCheck"),
            migrations.DeleteModel(name="Replica"),
        ]),
    ]
