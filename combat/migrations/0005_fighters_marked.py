"""Characters already in a fight keep reading their fights in their snapshots."""
from django.db import migrations

SIDES = {"Duel": ("challenger_id", "defender_id"), "UnionMember": ("character_id",),
         "Acharnement": ("attacker_id", "victim_id"), "Heal": ("medic_id", "patient_id")}


def mark(apps, schema_editor):
    Character = apps.get_model("players", "Character")
    fought = set()
    for model, columns in SIDES.items():
        for column in columns:
            fought.update(apps.get_model("combat", model).objects.values_list(column, flat=True))
    Character.objects.filter(pk__in=fought).update(has_fought=True)


class Migration(migrations.Migration):
    dependencies = [
        ("combat", "0004_chrony_to_club"),
        ("players", "0008_character_has_fought"),
    ]

    operations = [migrations.RunPython(mark, migrations.RunPython.noop)]
