from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('players', '0007_personal_data_retention'),
    ]

    operations = [
        migrations.AddField(
            model_name='character',
            name='has_fought',
            field=models.BooleanField(
                default=False,
                help_text="Has been in a fight (duel, union, beating, heal): only then does its "
                          "snapshot read the fights."),
        ),
    ]
