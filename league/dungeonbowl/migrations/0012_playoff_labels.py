"""Play-off games and rounds made before they had names get them:
"Semi-final 1", "Semi-final 2", "Final", "Third place"; the rounds "Semi-finals"
and "Final and third place"."""

from django.db import migrations

GAME_TITLES = {1: "Semi-final 1", 2: "Semi-final 2", 3: "Final", 4: "Third place"}


def name_playoffs(apps, schema_editor):
    PlayoffGame = apps.get_model("dungeonbowl", "PlayoffGame")
    Fixture = apps.get_model("league", "Fixture")
    Round = apps.get_model("league", "Round")
    for game in PlayoffGame.objects.select_related("fixture").iterator():
        Fixture.objects.filter(pk=game.fixture_id, label="").update(label=GAME_TITLES[game.slot])
        round_label = "Semi-finals" if game.slot in (1, 2) else "Final and third place"
        Round.objects.filter(pk=game.fixture.round_id, label="").update(label=round_label)


class Migration(migrations.Migration):

    dependencies = [
        ("dungeonbowl", "0011_college_wizard"),
        ("league", "0010_round_and_fixture_labels"),
    ]

    operations = [migrations.RunPython(name_playoffs, migrations.RunPython.noop)]
