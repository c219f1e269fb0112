"""Spending SPP on advancements (DB-11 Decision): the pure check, the service under
the team's lock, the form on the team page for every role; and the hire group
limit (DB-6/DB-12)."""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse

from league.dungeonbowl.teams import player_rules as r
from league.dungeonbowl.spending import services as spending
from league.dungeonbowl.models import Player, PlayerAdvancement, Position, Skill, Team
from tests.dungeonbowl.builders import db_season
from tests.support.factories import CoachFactory

A = r.Advancement


def test_skill_categories_read_the_roster_letters():
    assert r.skill_categories("Gs") == ("G", "S")
    assert r.skill_categories("Agp") == ("A", "G", "P")
    assert r.skill_categories("") == ()


def test_check_advancement_costs_values_and_refusals():
    profile = r.Profile(5, 3, 4, None, 9)
    first = r.check_advancement(A.CHOSEN_PRIMARY, advancements_taken=0, spp=6, category="G", primary="Gs")
    assert (first.spp_cost, first.value_increase, first.number) == (6, 20_000, 1)
    third = r.check_advancement(A.CHOSEN_SECONDARY, advancements_taken=2, spp=20, category="A", secondary="Ap")
    assert (third.spp_cost, third.value_increase, third.number) == (18, 40_000, 3)
    st = r.check_advancement(A.CHARACTERISTIC, advancements_taken=1, spp=20, characteristic="st", profile=profile)
    assert (st.spp_cost, st.value_increase) == (20, 80_000)
    with pytest.raises(ValueError, match="costs 8 SPP; the player has 7 \\(1 short\\)"):
        r.check_advancement(A.CHOSEN_PRIMARY, advancements_taken=1, spp=7, category="G", primary="G")
    with pytest.raises(ValueError, match="primary skill comes from General, Strength, not Agility"):
        r.check_advancement(A.CHOSEN_PRIMARY, advancements_taken=0, spp=10, category="A", primary="Gs")
    random = r.check_advancement(A.RANDOM_PRIMARY, advancements_taken=0, spp=3, category="G", primary="Gs")
    assert (random.spp_cost, random.value_increase) == (3, 20_000)
    with pytest.raises(ValueError, match="secondary skill comes from Agility, Passing, not General"):
        r.check_advancement(A.RANDOM_SECONDARY, advancements_taken=0, spp=10, category="G", secondary="Ap")
    with pytest.raises(ValueError, match="at most 6 advancements"):
        r.check_advancement(A.CHOSEN_PRIMARY, advancements_taken=6, spp=99, category="G", primary="G")
    with pytest.raises(ValueError, match="ST is already at its best"):
        r.check_advancement(A.CHARACTERISTIC, advancements_taken=0, spp=99, characteristic="st",
                            profile=r.Profile(5, 8, 4, None, 9))
    with pytest.raises(ValueError, match="no primary skill categories"):
        r.check_advancement(A.CHOSEN_PRIMARY, advancements_taken=0, spp=99, category="G", primary="")


@pytest.fixture
def team(organiser):
    db_season(organiser, teams=4)
    return Team.objects.get(name="Team 01")


def _slayer(team: Team, spp: int) -> Player:
    slayer = team.players.get(position__name="Troll Slayer")
    Player.objects.filter(pk=slayer.pk).update(spp=spp)
    slayer.refresh_from_db()
    return slayer


@pytest.mark.django_db
def test_advance_player_spends_spp_and_raises_value(team):
    slayer = _slayer(team, 30)
    before = team.value().team_value
    line = spending.advance_player(player=slayer, kind="chosen_primary", category="S", skill="Mighty Blow (+1)",
                                   by=team.coach.user)
    slayer.refresh_from_db()
    assert (slayer.spp, slayer.advancements, slayer.value_increase) == (24, 1, 20_000)
    assert "Mighty Blow (+1)" in slayer.skills and line.spp_cost == 6
    spending.advance_player(player=slayer, kind="characteristic", characteristic="ma", by=team.coach.user)
    slayer.refresh_from_db()
    assert (slayer.ma, slayer.spp, slayer.advancements, slayer.value) == (6, 4, 2, 95_000 + 40_000)
    assert team.value().team_value == before + 40_000
    assert list(PlayerAdvancement.objects.values_list("number", "spp_cost")) == [(1, 6), (2, 20)]

    with pytest.raises(ValidationError, match="costs 12 SPP; the player has 4 \\(8 short\\)"):
        spending.advance_player(player=slayer, kind="chosen_primary", category="G", skill="Dodge", by=team.coach.user)
    with pytest.raises(ValidationError, match="already has Block"):
        spending.advance_player(player=slayer, kind="chosen_primary", category="G", skill="block", by=team.coach.user)
    wrong = Team.objects.get(name="Team 02").coach.user
    with pytest.raises(PermissionDenied):
        spending.advance_player(player=slayer, kind="characteristic", characteristic="av", by=wrong)
    slayer.refresh_from_db()
    assert (slayer.spp, slayer.advancements) == (4, 2)


@pytest.mark.django_db
def test_the_advance_form_for_every_role(client, organiser, team):
    slayer = _slayer(team, 12)
    page = reverse("dungeonbowl:team_detail", args=[team.league.slug, team.slug])
    url = reverse("dungeonbowl:advance_player", args=[team.league.slug, team.slug])
    data = {"player": slayer.pk, "kind": "chosen_secondary", "category": "A", "skill": Skill.objects.get(name="Sidestep").pk}
    assert client.post(url, data).status_code == 302 and not PlayerAdvancement.objects.exists()  # anonymous
    assert "Spend Star Player Points" not in client.get(page).content.decode()
    client.force_login(CoachFactory(name="Nobody").user)
    assert client.post(url, data).status_code == 403
    client.force_login(Team.objects.get(name="Team 02").coach.user)
    assert client.post(url, data).status_code == 403 and not PlayerAdvancement.objects.exists()
    client.force_login(team.coach.user)
    body = client.get(page).content.decode()
    assert "Spend Star Player Points" in body and "Random primary skill (3/4/6/8/10/15 SPP" in body
    done = client.post(url, data, follow=True).content.decode()
    assert "takes advancement 1: Sidestep for 12 SPP; value +40,000 gp." in done
    refused = client.post(url, {**data, "skill": Skill.objects.get(name="Dodge").pk}, follow=True).content.decode()
    assert "costs 14 SPP; the player has 0 (14 short)" in refused
    bad = client.post(url, {**data, "kind": "lucky"}, follow=True).content.decode()
    assert "Choose a skill (chosen or random) or a characteristic." in bad
    client.force_login(organiser)
    Player.objects.filter(pk=slayer.pk).update(spp=20)
    done = client.post(url, {"player": slayer.pk, "kind": "characteristic", "characteristic": "av"}, follow=True)
    slayer.refresh_from_db()
    assert "+1 AV" in done.content.decode() and (slayer.av, slayer.spp) == (10, 0)


@pytest.mark.django_db
def test_the_skill_list_holds_the_seeds_skills():
    """DB-11: the data migration loads every skill the seed's rosters
    name and Dungeon Bowl's four new skills in the lists the seed gives them."""
    names = set(Skill.objects.values_list("name", flat=True))
    assert {"Block", "Thick Skull", "Mighty Blow (+1)", "Throw Team-mate", "Dump-off", "My Ball", "Jump Up",
            "Wrestle", "Breathe Fire", "Sidestep"} <= names
    assert dict(Skill.objects.filter(name__in=["Portal Navigator", "Give and Go", "Portal Passer", "Wall Thrower"])
                .values_list("name", "category")) == {"Portal Navigator": "G", "Give and Go": "P",
                                                      "Portal Passer": "P", "Wall Thrower": "P"}
    assert "Banana Throwing" not in names


@pytest.mark.django_db
def test_a_skill_not_on_the_list_or_of_another_list_is_refused(team):
    """DB-11: "Banana Throwing" is no skill; a skill the list puts in
    another category is refused; a skill the player has is refused. Nothing is spent."""
    slayer = _slayer(team, 30)
    for skill, category, reason in [
        ("Banana Throwing", "G", "Banana Throwing is not a skill of the league's list"),
        ("Wall Thrower", "G", "Wall Thrower is a Passing skill, not General"),
        ("thick skull", "G", "already has Thick Skull"),
        ("", "G", "Choose the skill"),
    ]:
        with pytest.raises(ValidationError, match=reason):
            spending.advance_player(player=slayer, kind="chosen_primary", category=category, skill=skill,
                                    by=team.coach.user)
    slayer.refresh_from_db()
    assert (slayer.spp, slayer.advancements, slayer.value_increase, slayer.skills_gained) == (30, 0, 0, [])
    assert not PlayerAdvancement.objects.exists()
    line = spending.advance_player(player=slayer, kind="chosen_primary", category="", skill="portal navigator",
                                   by=team.coach.user)
    assert (line.skill, line.category) == ("Portal Navigator", "G")  # the list's spelling and category


@pytest.mark.django_db
def test_the_advance_form_picks_a_skill_from_the_list(client, team):
    slayer = _slayer(team, 30)
    url = reverse("dungeonbowl:advance_player", args=[team.league.slug, team.slug])
    client.force_login(team.coach.user)
    page = client.get(reverse("dungeonbowl:team_detail", args=[team.league.slug, team.slug])).content.decode()
    assert f'<option value="{Skill.objects.get(name="Wall Thrower").pk}">Wall Thrower (Passing)</option>' in page
    typed = client.post(url, {"player": slayer.pk, "kind": "chosen_primary", "category": "G",
                              "skill": "Banana Throwing"}, follow=True).content.decode()
    assert "Choose a skill from the list." in typed
    owned = client.post(url, {"player": slayer.pk, "kind": "chosen_primary", "category": "G",
                              "skill": Skill.objects.get(name="Block").pk}, follow=True).content.decode()
    assert "already has Block" in owned
    slayer.refresh_from_db()
    assert (slayer.spp, slayer.value_increase) == (30, 0) and not PlayerAdvancement.objects.exists()


@pytest.mark.django_db
def test_a_superuser_adds_a_skill_and_an_organiser_only_reads_the_list(client, organiser, team):
    from tests.support.factories import UserFactory

    add = reverse("admin:dungeonbowl_skill_add")
    client.force_login(organiser)
    assert client.get(reverse("admin:dungeonbowl_skill_changelist")).status_code == 200
    assert client.post(add, {"name": "Pro", "category": "G"}).status_code == 403
    client.force_login(UserFactory(username="root", is_staff=True, is_superuser=True))
    assert client.post(add, {"name": "Pro", "category": "G"}).status_code == 302
    twice = client.post(add, {"name": "pro", "category": "G"})
    assert twice.status_code == 200 and Skill.objects.filter(name__iexact="pro").count() == 1
    slayer = _slayer(team, 6)
    line = spending.advance_player(player=slayer, kind="chosen_primary", category="G", skill="Pro", by=team.coach.user)
    assert line.skill == "Pro"


@pytest.mark.django_db
def test_hiring_over_a_group_limit_is_refused(team):
    """Team 01 already fields a Troll Slayer: the 0-2 Special group takes one more,
    Slayer or Flamesmith, and then refuses."""
    flamesmith = Position.objects.get(name="Chaos Dwarf Flamesmith")
    from league.dungeonbowl.models import TreasuryLine

    before = team.treasury()
    spending.hire_player(team=team, position=flamesmith, by=team.coach.user)
    with pytest.raises(ValidationError, match="allows 0-2 Special; Team 01 already has 2"):
        spending.hire_player(team=team, position=Position.objects.get(name="Troll Slayer"), by=team.coach.user)
    assert team.treasury() == before - 80_000
    assert TreasuryLine.objects.filter(team=team, kind="purchase").count() == 1
