"""DR-5: the two teams of the boxed game, from the seed rulebook.

The seed names the teams and their races only; their Team Cards (players, stats,
costs) are not in it, so no published players are stored. Its one roster fact
(the All-Stars start with two Jacks) is kept in the notes."""

from django.db import migrations

BOXED = [
    ("Draconis All-Stars", "Robots", "Boxed game. Recommended starting team includes 2 Jacks."),
    ("Ninth Moon Tree Sharks", "Yndij", "Boxed game."),
]


def add_boxed_teams(apps, schema_editor):
    TeamType = apps.get_model("dreadball", "TeamType")
    for name, race, notes in BOXED:
        TeamType.objects.get_or_create(name=name, defaults={"race": race, "notes": notes})


def remove_boxed_teams(apps, schema_editor):
    TeamType = apps.get_model("dreadball", "TeamType")
    TeamType.objects.filter(name__in=[name for name, _, _ in BOXED], teams__isnull=True).delete()


class Migration(migrations.Migration):

    dependencies = [
        ("dreadball", "0001_initial"),
    ]

    operations = [
        migrations.RunPython(add_boxed_teams, remove_boxed_teams),
    ]
