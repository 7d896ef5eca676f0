import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('players', '0001_initial'),
    ]

    operations = [
        migrations.CreateModel(
            name='GameDay',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('kind', models.CharField(choices=[('dawn', 'Dawn'), ('day_end', 'Day end')], max_length=10)),
                ('due_at', models.DateTimeField()),
                ('done_at', models.DateTimeField(blank=True, null=True)),
                ('reached_id', models.BigIntegerField(default=0)),
                ('characters_changed', models.PositiveIntegerField(default=0)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('event', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='days', to='players.event')),
            ],
            options={
                'ordering': ['due_at', 'pk'],
                'indexes': [models.Index(fields=['done_at', 'due_at'], name='players_gam_done_at_0b0e08_idx')],
                'constraints': [models.UniqueConstraint(fields=('event', 'kind', 'due_at'), name='game_day_unique_instant')],
            },
        ),
    ]
