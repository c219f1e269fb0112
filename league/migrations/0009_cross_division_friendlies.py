"""DB-5a (Decision): a fixture between entries of two divisions is a friendly
however it was made. Fixtures an organiser added between divisions before this
were stored as regular fixtures and earned League points; they become friendlies."""

from django.db import migrations
from django.db.models import F


def cross_division_fixtures_are_friendlies(apps, schema_editor):
    Fixture = apps.get_model("league", "Fixture")
    (
        Fixture.objects.filter(stage="regular", home__division__isnull=False, away__division__isnull=False)
        .exclude(home__division=F("away__division"))
        .update(stage="friendly")
    )


class Migration(migrations.Migration):
    dependencies = [("league", "0008_league_list_order")]

    operations = [migrations.RunPython(cross_division_fixtures_are_friendlies, migrations.RunPython.noop)]
