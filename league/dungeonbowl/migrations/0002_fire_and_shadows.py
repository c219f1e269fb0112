"""The two colleges of the base game (DB-7), exactly as the seed's rosters list them.

Each position: (group, group max, name, cost, MA, ST, AG, PA, AV, skills, primary,
secondary). AG, PA and AV are target numbers (3 for "3+"); PA None is the roster's
"-". Where the roster prints no skill categories (Ogre Blocker, Skaven Blitzer) they
are left empty. The other six colleges come from supplements: a superuser adds them
in the admin.
"""

from django.db import migrations

COLLEGES = [
    {
        "name": "College of Fire",
        "slug": "college-of-fire",
        "reroll_cost": 50_000,
        "wizard": "Bright Wizard",
        "wizard_cost": 100_000,
        "positions": [
            ("Linemen", 16, "Dwarf Blocker Lineman", 70_000, 4, 3, 4, 5, 10, ["Block", "Tackle", "Thick Skull"], "Gs", "A"),
            ("Linemen", 16, "Gnoblar Lineman", 15_000, 5, 1, 3, 5, 6,
             ["Dodge", "Right Stuff", "Sidestep", "Stunty", "Titchy"], "A", "G"),
            ("Linemen", 16, "Bloodborn Marauder Lineman", 50_000, 6, 3, 3, 4, 8, ["Frenzy"], "Gm", "As"),
            ("Runners", 2, "Dwarf Runner", 85_000, 6, 3, 3, 4, 9, ["Sure Hands", "Thick Skull"], "GP", "As"),
            ("Blitzers", 2, "Dwarf Blitzer", 80_000, 5, 3, 3, 4, 10, ["Block", "Thick Skull"], "Gs", "Ap"),
            ("Blockers", 4, "Chaos Dwarf Blocker", 70_000, 4, 3, 4, 6, 10,
             ["Block", "Iron Hard Skin", "Thick Skull"], "Gs", "Am"),
            ("Special", 2, "Troll Slayer", 95_000, 5, 3, 4, None, 9,
             ["Block", "Dauntless", "Frenzy", "Thick Skull"], "Gs", "Ap"),
            ("Special", 2, "Chaos Dwarf Flamesmith", 80_000, 5, 3, 4, 6, 10,
             ["Brawler", "Breathe Fire", "Disturbing Presence", "Thick Skull"], "Gs", "Am"),
            ("Big Guys", 3, "Ogre Blocker", 140_000, 5, 5, 4, 5, 10,
             ["Bone Head", "Mighty Blow (+1)", "Thick Skull", "Throw Team-mate"], "", ""),
        ],
    },
    {
        "name": "College of Shadows",
        "slug": "college-of-shadows",
        "reroll_cost": 50_000,
        "wizard": "Grey Wizard",
        "wizard_cost": 100_000,
        "positions": [
            ("Linemen", 16, "Dark Elf Lineman", 70_000, 6, 3, 2, 4, 9, [], "AG", "S"),
            ("Linemen", 16, "Skaven Clanrat Lineman", 50_000, 7, 3, 3, 4, 8, [], "G", "Ams"),
            ("Linemen", 16, "Goblin Lineman", 40_000, 6, 2, 3, 4, 8, ["Dodge", "Right Stuff", "Stunty"], "A", "Gs"),
            ("Linemen", 16, "Gnome Lineman", 40_000, 5, 2, 3, 4, 7,
             ["Jump Up", "Right Stuff", "Stunty", "Wrestle"], "A", "Gs"),
            ("Linemen", 16, "Hobgoblin Lineman", 40_000, 6, 3, 3, 4, 8, [], "G", "As"),
            ("Runners", 4, "Dark Elf Runner", 80_000, 7, 3, 2, 3, 8, ["Dump-off"], "Agp", "S"),
            ("Runners", 4, "Gutter Runner", 85_000, 9, 2, 2, 4, 8, ["Dodge"], "AG", "Mps"),
            ("Runners", 4, "Woodland Fox", 50_000, 7, 2, 2, None, 6,
             ["Dodge", "My Ball", "Sidestep", "Stunty"], "", "A"),
            ("Blitzers", 2, "Dark Elf Blitzer", 100_000, 7, 3, 2, 4, 9, ["Block"], "AG", "Ps"),
            ("Blitzers", 2, "Skaven Blitzer", 90_000, 7, 3, 3, 5, 9, ["Block"], "", ""),
        ],
    },
]


def load(apps, schema_editor):
    College = apps.get_model("dungeonbowl", "College")
    PositionGroup = apps.get_model("dungeonbowl", "PositionGroup")
    Position = apps.get_model("dungeonbowl", "Position")
    for data in COLLEGES:
        college = College.objects.create(
            **{key: value for key, value in data.items() if key != "positions"}
        )
        groups = {}
        for order, row in enumerate(data["positions"]):
            group_name, group_max, name, cost, ma, st, ag, pa, av, skills, primary, secondary = row
            if group_name not in groups:
                groups[group_name] = PositionGroup.objects.create(
                    college=college, name=group_name, max_count=group_max, order=len(groups)
                )
            Position.objects.create(
                college=college, group=groups[group_name], name=name, cost=cost, ma=ma, st=st, ag=ag, pa=pa,
                av=av, skills=skills, primary=primary, secondary=secondary, order=order,
            )


def unload(apps, schema_editor):
    apps.get_model("dungeonbowl", "College").objects.filter(
        slug__in=[data["slug"] for data in COLLEGES]
    ).delete()


class Migration(migrations.Migration):
    dependencies = [("dungeonbowl", "0001_colleges")]

    operations = [migrations.RunPython(load, unload)]
