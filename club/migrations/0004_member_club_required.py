import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    """Every member is in a club (0003); a licence number is unique in its club only."""

    dependencies = [
        ("club", "0003_existing_register_one_club"),
    ]

    operations = [
        migrations.AlterField(
            model_name="member",
            name="club",
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="members", to="club.club"),
        ),
        migrations.AlterField(
            model_name="member",
            name="licence_number",
            field=models.CharField(help_text="Licence or club member number.", max_length=40),
        ),
        migrations.AddConstraint(
            model_name="member",
            constraint=models.UniqueConstraint(fields=("club", "licence_number"), name="member_unique_licence_in_club"),
        ),
    ]
