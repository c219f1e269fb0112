"""GB-8's VP target is Guild Ball's own setting now (guildball.GuildBallSettings)."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("league", "0002_divisions_stages_result_details"),
        ("guildball", "0001_initial"),
    ]

    operations = [
        migrations.RemoveField(model_name="league", name="vp_target"),
    ]
