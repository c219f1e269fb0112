"""Issue 19.1: rows written before text refused control characters are made plain
text, in every text column of every app (league/text/plaintext.py ``clean_rows``), so
that the README's backup can be taken of them."""

from django.db import migrations

from league.text import plaintext


def clean_every_text_column(apps, schema_editor):
    plaintext.clean_rows(apps, schema_editor.connection.alias)


class Migration(migrations.Migration):

    # Every app whose rows the backup holds, at its latest migration.
    dependencies = [
        ("league", "0011_coach_invitation_nonce"),
        ("guildball", "0001_initial"),
        ("campaigns", "0006_bounded_ledgers_and_unlocks"),
        ("dungeonbowl", "0013_team_accepted"),
        ("dreadball", "0004_published_roster"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("admin", "0003_logentry_add_action_flag_choices"),
        ("axes", "0010_accessattemptexpiration"),
    ]

    operations = [
        migrations.RunPython(clean_every_text_column, migrations.RunPython.noop),
    ]
