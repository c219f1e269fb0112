"""Skills as data (DB-11): a chosen advancement picks a skill from this
list instead of any text. Loaded here: every skill and trait the colleges' rosters
name (the seed's College of Fire and College of Shadows from 0002, and any
position a superuser added since), and the four skills Dungeon Bowl introduces
with the skill list the seed puts them in. The seed prints no list for the
rosters' skills, so their category is left empty for the organiser to fill in."""

import django.db.models.functions.text
from django.db import migrations, models

# The seed's "Skills and Traits" section: new General and Passing skills.
DUNGEON_BOWL_SKILLS = {"Portal Navigator": "G", "Give and Go": "P", "Portal Passer": "P", "Wall Thrower": "P"}


def load_skills(apps, schema_editor):
    Position = apps.get_model("dungeonbowl", "Position")
    Skill = apps.get_model("dungeonbowl", "Skill")
    names = {}
    for skills in Position.objects.values_list("skills", flat=True):
        for name in skills or []:
            name = " ".join(str(name).split())[:40]
            if name:
                names.setdefault(name.lower(), (name, ""))
    for name, category in DUNGEON_BOWL_SKILLS.items():
        names[name.lower()] = (name, category)
    Skill.objects.bulk_create([Skill(name=name, category=category) for name, category in sorted(names.values())])


def unload_skills(apps, schema_editor):
    apps.get_model("dungeonbowl", "Skill").objects.all().delete()


class Migration(migrations.Migration):

    dependencies = [
        ("dungeonbowl", "0008_redraft"),
    ]

    operations = [
        migrations.CreateModel(
            name='Skill',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('name', models.CharField(max_length=40, unique=True)),
                ('category', models.CharField(blank=True, choices=[('G', 'General'), ('A', 'Agility'), ('S', 'Strength'), ('P', 'Passing'), ('M', 'Mutation')], help_text='The skill list it belongs to; empty when the rulebooks at hand do not say.', max_length=1)),
            ],
            options={
                'ordering': ['name'],
                'constraints': [models.UniqueConstraint(django.db.models.functions.text.Lower('name'), name='dbskill_name_unique_in_any_case'), models.CheckConstraint(condition=models.Q(('category__in', ['', 'G', 'A', 'S', 'P', 'M'])), name='dbskill_category_valid')],
            },
        ),
        migrations.RunPython(load_skills, unload_skills),
    ]
