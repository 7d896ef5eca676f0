from django.db import migrations, models


class Migration(migrations.Migration):
    """Card codes: printed login codes that last until replaced (players/login_cards.py)."""

    dependencies = [
        ('players', '0008_character_has_fought'),
    ]

    operations = [
        migrations.AddField(
            model_name='logintoken',
            name='kind',
            field=models.CharField(choices=[('link', 'One-time link'), ('card', 'Card code')],
                                   default='link', max_length=8),
        ),
        migrations.AddField(
            model_name='logintoken',
            name='salt',
            field=models.CharField(blank=True, default='', max_length=32),
        ),
        migrations.AlterField(
            model_name='logintoken',
            name='expires_at',
            field=models.DateTimeField(blank=True, help_text='None: until replaced.', null=True),
        ),
        migrations.AlterField(
            model_name='logintoken',
            name='used_at',
            field=models.DateTimeField(blank=True, help_text='Last used.', null=True),
        ),
    ]
