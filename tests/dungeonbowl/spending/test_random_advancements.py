"""DB-11's random skills (3/4/6/8/10/15 SPP primary, 6/8/12/16/20/30 secondary)
bought on the team page: rolled by the site on the category's skills of the
league's list, a roll on a skill the player has rolled again, or rolled at the
table and entered with its dice; every roll logged with who entered it (DB-16)."""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from league.dungeonbowl.teams import player_rules as r
from league.dungeonbowl import dice
from league.dungeonbowl.spending import services as spending
from league.dungeonbowl.models import DiceRoll, Player, PlayerAdvancement, Skill, Team
from tests.dungeonbowl.builders import db_season
from tests.support.factories import CoachFactory

pytestmark = pytest.mark.django_db

TWELVE = [f"S{n}" for n in range(1, 13)]


def test_the_dice_for_a_list_and_where_they_land():
    assert (r.skill_dice(12), r.skill_dice(4), r.skill_dice(1)) == ("2D6", "D4", "D1")
    assert r.skill_on_list(TWELVE, [2, 1]) == "S1" and r.skill_on_list(TWELVE, [4, 6]) == "S12"
    assert r.skill_on_list(["Block", "Dodge", "Pro"], [3]) == "Pro"
    with pytest.raises(ValueError, match="A D3 roll is a number from 1 to 3, not 4"):
        r.skill_on_list(["Block", "Dodge", "Pro"], [4])
    with pytest.raises(ValueError):
        r.skill_dice(0)


@pytest.fixture
def team(organiser):
    db_season(organiser, teams=4)
    # The seed puts only Dungeon Bowl's four skills in lists; the organiser's list adds
    # three General ones: General is Block, Dodge, Portal Navigator, Sure Hands (a D4).
    Skill.objects.filter(name__in=["Block", "Dodge", "Sure Hands"]).update(category="G")
    return Team.objects.get(name="Team 01")


def _slayer(team: Team, spp: int) -> Player:
    slayer = team.players.get(position__name="Troll Slayer")  # primary Gs, secondary Ap; has Block
    Player.objects.filter(pk=slayer.pk).update(spp=spp)
    slayer.refresh_from_db()
    return slayer


def _urls(team):
    args = [team.league.slug, team.slug]
    return reverse("dungeonbowl:advance_player", args=args), reverse("dungeonbowl:team_detail", args=args)


def _dice(monkeypatch, *values):
    rolls = iter(values)
    monkeypatch.setattr(dice._rng, "randint", lambda low, high: next(rolls))


def test_the_site_rolls_a_random_primary_and_rolls_again_on_a_skill_the_player_has(client, monkeypatch, team):
    slayer = _slayer(team, 3)
    url, page_url = _urls(team)
    client.force_login(team.coach.user)
    assert "Random primary skill (3/4/6/8/10/15 SPP, +20,000 gp)" in client.get(page_url).content.decode()
    _dice(monkeypatch, 1, 2)  # Block, which the Slayer has: rolled again, Dodge
    done = client.post(url, {"player": slayer.pk, "kind": "random_primary", "category": "G"}, follow=True)
    assert "takes advancement 1: Dodge for 3 SPP; value +20,000 gp. Rolled by the site" in done.content.decode()
    slayer.refresh_from_db()
    assert (slayer.skills_gained, slayer.spp, slayer.advancements, slayer.value_increase) == (["Dodge"], 0, 1, 20_000)
    line = PlayerAdvancement.objects.get(player=slayer)
    assert (line.kind, line.category, line.skill, line.spp_cost) == ("random_primary", "G", "Dodge", 3)
    rolls = list(DiceRoll.objects.filter(purpose="advancement").order_by("id"))
    assert [(roll.dice, roll.values, roll.source, roll.entered_by) for roll in rolls] == [
        ("D4", [1], "app", team.coach.user), ("D4", [2], "app", team.coach.user)]
    assert "rolled again" in rolls[1].description and rolls[0].team == team
    log = client.get(reverse("dungeonbowl:dice_log", args=[team.league.slug])).content.decode()
    assert "Random primary skill (General) for #1 Troll Slayer" in log


def test_a_random_secondary_rolled_at_the_table_is_entered_with_its_dice(client, organiser, team):
    slayer = _slayer(team, 6)
    url, _ = _urls(team)
    client.force_login(organiser)
    done = client.post(url, {"player": slayer.pk, "kind": "random_secondary", "category": "P",
                             "skill": Skill.objects.get(name="Wall Thrower").pk, "table_dice": "4 2"}, follow=True)
    assert "takes advancement 1: Wall Thrower for 6 SPP; value +40,000 gp. Rolled at the table" in \
        done.content.decode()
    roll = DiceRoll.objects.get(purpose="advancement")
    assert (roll.dice, roll.values, roll.source, roll.entered_by) == ("2D6", [4, 2], "table", organiser)
    slayer.refresh_from_db()
    assert (slayer.skills_gained, slayer.spp, slayer.value_increase) == (["Wall Thrower"], 0, 40_000)


@pytest.mark.parametrize("data, reason", [
    # A table roll on a skill the player has: roll again at the table.
    ({"kind": "random_primary", "category": "G", "skill": "Block", "table_dice": "1 1"},
     "already has Block: roll again at the table"),
    ({"kind": "random_primary", "category": "G", "skill": "Dodge"}, "Enter the 2D6 rolled at the table"),
    ({"kind": "random_primary", "category": "G", "skill": "Dodge", "table_dice": "7 1"},
     "Enter the two D6 rolled at the table"),
    ({"kind": "random_primary", "category": "G", "skill": "Wall Thrower", "table_dice": "3 3"},
     "Wall Thrower is not a General skill of the league"),
    ({"kind": "random_primary", "category": "G", "table_dice": "3 3"}, "come with the skill they gave"),
    ({"kind": "random_primary", "category": "P"}, "primary skill comes from General, Strength, not Passing"),
    ({"kind": "random_primary", "category": "S"}, "holds no Strength skills to roll on"),
    ({"kind": "random_primary", "category": ""}, "primary skill comes from General, Strength, not none"),
    ({"kind": "random_secondary", "category": "P"}, "costs 6 SPP; the player has 3 (3 short)"),
])
def test_a_refused_random_advancement_writes_nothing(client, team, data, reason):
    slayer = _slayer(team, 3)
    url, _ = _urls(team)
    if "skill" in data:
        data = {**data, "skill": Skill.objects.get(name=data["skill"]).pk}
    client.force_login(team.coach.user)
    body = client.post(url, {"player": slayer.pk, **data}, follow=True).content.decode()
    assert reason in body.replace("&#x27;", "'")
    slayer.refresh_from_db()
    assert (slayer.spp, slayer.advancements, slayer.value_increase, slayer.skills_gained) == (3, 0, 0, [])
    assert not PlayerAdvancement.objects.exists() and not DiceRoll.objects.filter(purpose="advancement").exists()


def test_a_player_with_every_skill_of_the_list_is_told_so(team):
    slayer = _slayer(team, 20)
    Skill.objects.filter(name__in=["Dodge", "Sure Hands"]).update(category="")
    Player.objects.filter(pk=slayer.pk).update(skills_gained=["Portal Navigator"])
    slayer.refresh_from_db()
    with pytest.raises(ValidationError, match="already has every General skill of the league's list"):
        spending.advance_player(player=slayer, kind="random_primary", category="G", by=team.coach.user)
    assert not DiceRoll.objects.filter(purpose="advancement").exists()


def test_only_the_coach_or_the_commissioner_rolls(client, monkeypatch, other_organiser, team):
    slayer = _slayer(team, 3)
    url, _ = _urls(team)
    data = {"player": slayer.pk, "kind": "random_primary", "category": "G"}
    _dice(monkeypatch, 2)
    assert client.post(url, data).status_code == 302  # anonymous: to the login page
    for outsider in (Team.objects.get(name="Team 02").coach.user, CoachFactory(name="Nobody").user, other_organiser):
        client.force_login(outsider)
        assert client.post(url, data).status_code == 403
    assert not DiceRoll.objects.filter(purpose="advancement").exists() and not PlayerAdvancement.objects.exists()
