import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('players', '0008_character_has_fought'),
    ]

    operations = [
        migrations.CreateModel(
            name='PhoneReadiness',
            fields=[
                ('character', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, primary_key=True,
                                                   related_name='phone_readiness', serialize=False,
                                                   to='players.character')),
                ('checked_at', models.DateTimeField(help_text="When the phone ran the check (server's clock).")),
                ('received_at', models.DateTimeField()),
                ('checks', models.JSONField(default=dict)),
                ('failing', models.JSONField(default=list)),
                ('clock_offset_ms', models.IntegerField(blank=True, null=True,
                                                        help_text="Server time minus the phone's own clock.")),
                ('battery_level', models.FloatField(blank=True, null=True,
                                                    help_text='0 to 1; empty when the browser does not tell.')),
            ],
        ),
    ]
