"""The campaign ledgers' models are "lines" (the league's Entry is a coach's place
in a season): rename the models and their tables, keeping every row."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("campaigns", "0002_catalogue"),
    ]

    operations = [
        migrations.RenameModel("CampaignPointEntry", "CampaignPointLine"),
        migrations.RenameModel("FavourEntry", "FavourLine"),
        migrations.AlterModelOptions(
            name="favourline",
            options={
                "abstract": False,
                "ordering": ["-created_at", "-id"],
                "verbose_name": "Favour entry",
                "verbose_name_plural": "Favour entries",
            },
        ),
        migrations.AlterField(
            model_name="favourline",
            name="carried_from",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=models.deletion.RESTRICT,
                related_name="carried_over_lines",
                to="campaigns.campaign",
            ),
        ),
    ]
