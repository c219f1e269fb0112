"""The colleges as migrated (DB-7) against the seed's rosters, and their admin."""

import pytest
from django.db import IntegrityError, transaction
from django.urls import reverse

from league.dungeonbowl.teams import rules as team_rules
from league.dungeonbowl.models import College, Position, PositionGroup
from tests.support.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "college,name,cost,ma,st,ag,pa,av,skills",
    [
        ("College of Fire", "Dwarf Blocker Lineman", 70_000, 4, 3, 4, 5, 10, ["Block", "Tackle", "Thick Skull"]),
        ("College of Fire", "Gnoblar Lineman", 15_000, 5, 1, 3, 5, 6, ["Dodge", "Right Stuff", "Sidestep", "Stunty", "Titchy"]),
        ("College of Fire", "Troll Slayer", 95_000, 5, 3, 4, None, 9, ["Block", "Dauntless", "Frenzy", "Thick Skull"]),
        ("College of Fire", "Ogre Blocker", 140_000, 5, 5, 4, 5, 10, ["Bone Head", "Mighty Blow (+1)", "Thick Skull", "Throw Team-mate"]),
        ("College of Shadows", "Dark Elf Lineman", 70_000, 6, 3, 2, 4, 9, []),
        ("College of Shadows", "Gutter Runner", 85_000, 9, 2, 2, 4, 8, ["Dodge"]),
        ("College of Shadows", "Woodland Fox", 50_000, 7, 2, 2, None, 6, ["Dodge", "My Ball", "Sidestep", "Stunty"]),
        ("College of Shadows", "Skaven Blitzer", 90_000, 7, 3, 3, 5, 9, ["Block"]),
    ],
)
def test_positions_match_the_seed(college, name, cost, ma, st, ag, pa, av, skills):
    p = Position.objects.get(college__name=college, name=name)
    assert (p.cost, p.ma, p.st, p.ag, p.pa, p.av, p.skills) == (cost, ma, st, ag, pa, av, skills)


def test_every_group_limit_and_the_college_facts():
    groups = {
        (g.college.name, g.name): (g.max_count, sorted(p.name for p in g.positions.all()))
        for g in PositionGroup.objects.select_related("college").prefetch_related("positions")
    }
    assert groups == {
        ("College of Fire", "Linemen"): (16, ["Bloodborn Marauder Lineman", "Dwarf Blocker Lineman", "Gnoblar Lineman"]),
        ("College of Fire", "Runners"): (2, ["Dwarf Runner"]),
        ("College of Fire", "Blitzers"): (2, ["Dwarf Blitzer"]),
        ("College of Fire", "Blockers"): (4, ["Chaos Dwarf Blocker"]),
        ("College of Fire", "Special"): (2, ["Chaos Dwarf Flamesmith", "Troll Slayer"]),
        ("College of Fire", "Big Guys"): (3, ["Ogre Blocker"]),
        ("College of Shadows", "Linemen"): (16, ["Dark Elf Lineman", "Gnome Lineman", "Goblin Lineman", "Hobgoblin Lineman", "Skaven Clanrat Lineman"]),
        ("College of Shadows", "Runners"): (4, ["Dark Elf Runner", "Gutter Runner", "Woodland Fox"]),
        ("College of Shadows", "Blitzers"): (2, ["Dark Elf Blitzer", "Skaven Blitzer"]),
    }
    facts = {c.name: (c.wizard, c.reroll_cost, c.wizard_cost) for c in College.objects.all()}
    assert facts == {
        "College of Fire": ("Bright Wizard", 50_000, 100_000),
        "College of Shadows": ("Grey Wizard", 50_000, 100_000),
    }


def test_the_roster_feeds_the_draft_rules():
    roster = College.objects.get(slug="college-of-fire").roster()
    check = team_rules.check_draft(roster, ["Troll Slayer", "Troll Slayer", "Chaos Dwarf Flamesmith"], 0, 1_000_000)
    assert check.refusals == ("0-2 Special: Troll Slayer and Chaos Dwarf Flamesmith together, you have 3 (1 too many).",)


@pytest.mark.parametrize("field,value", [("ma", 0), ("st", 9), ("ag", 7), ("pa", 0), ("av", 2), ("cost", 2_000_000)])
def test_position_numbers_are_bounded_in_the_database(field, value):
    p = Position.objects.get(name="Dwarf Runner")
    setattr(p, field, value)
    with pytest.raises(IntegrityError), transaction.atomic():
        p.save()


def test_organisers_read_the_colleges_and_a_superuser_edits_them(client, organiser):
    fire = College.objects.get(slug="college-of-fire")
    client.force_login(organiser)
    page = client.get(reverse("admin:dungeonbowl_college_change", args=[fire.pk]))
    assert page.status_code == 200 and b"Troll Slayer" in page.content
    assert client.get(reverse("admin:dungeonbowl_position_changelist")).status_code == 200
    assert client.get(reverse("admin:dungeonbowl_college_add")).status_code == 403
    assert client.post(reverse("admin:dungeonbowl_college_change", args=[fire.pk]), {"name": "X"}).status_code == 403
    assert College.objects.get(pk=fire.pk).name == "College of Fire"

    client.force_login(UserFactory(username="root", is_superuser=True, is_staff=True))
    assert client.get(reverse("admin:dungeonbowl_college_add")).status_code == 200
    assert client.get(reverse("admin:dungeonbowl_position_add")).status_code == 200
    response = client.post(
        reverse("admin:dungeonbowl_college_add"),
        {
            "name": "College of Metal", "slug": "college-of-metal", "reroll_cost": "60000", "wizard": "Gold Wizard",
            "wizard_cost": "100000",
            "groups-TOTAL_FORMS": "1", "groups-INITIAL_FORMS": "0",
            "groups-0-order": "0", "groups-0-name": "Linemen", "groups-0-max_count": "16",
        },
    )
    assert response.status_code == 302, response.context["adminform"].errors if response.context else response
    metal = College.objects.get(slug="college-of-metal")
    assert list(metal.groups.values_list("name", "max_count")) == [("Linemen", 16)]
    group = metal.groups.get()
    response = client.post(
        reverse("admin:dungeonbowl_college_change", args=[metal.pk]),
        {
            "name": "College of Metal", "slug": "college-of-metal", "reroll_cost": "60000", "wizard": "Gold Wizard",
            "wizard_cost": "100000",
            "groups-TOTAL_FORMS": "1", "groups-INITIAL_FORMS": "1",
            "groups-0-id": str(group.pk), "groups-0-college": str(metal.pk), "groups-0-order": "0",
            "groups-0-name": "Linemen", "groups-0-max_count": "16",
            "positions-TOTAL_FORMS": "1", "positions-INITIAL_FORMS": "0",
            "positions-0-order": "0", "positions-0-group": str(group.pk), "positions-0-name": "Dwarf Lineman",
            "positions-0-cost": "60000", "positions-0-ma": "4", "positions-0-st": "3", "positions-0-ag": "4",
            "positions-0-pa": "", "positions-0-av": "10", "positions-0-skills": '["Block"]',
            "positions-0-primary": "G", "positions-0-secondary": "",
        },
    )
    assert response.status_code == 302
    assert Position.objects.get(college=metal).pa is None


def test_a_position_takes_a_group_of_its_own_college_and_a_list_of_skills():
    from django.core.exceptions import ValidationError

    p = Position.objects.get(name="Dwarf Runner")
    p.group = PositionGroup.objects.get(college__slug="college-of-shadows", name="Runners")
    with pytest.raises(ValidationError, match="this position's college"):
        p.full_clean()
    p = Position.objects.get(name="Dwarf Runner")
    p.skills = "Sure Hands"
    with pytest.raises(ValidationError, match="list of skill names"):
        p.full_clean()
