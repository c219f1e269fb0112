"""A Dungeon Bowl league's own Colleges of Magic (DB-6, DB-7): its organiser adds
one the site lacks and gives it a roster on the site, beside every league's
(read-only); its coaches draft from it, another league's cannot; a hired
position stays; nobody else writes."""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from league.dungeonbowl.teams import services
from league.dungeonbowl.models import College, Position, PositionGroup, Team
from tests.dungeonbowl.builders import db_league
from tests.support.factories import CoachFactory, LeagueFactory, UserFactory

pytestmark = pytest.mark.django_db

POSITION = {"name": "Ember Runner", "cost": "60000", "ma": "7", "st": "3", "ag": "3", "pa": "4", "av": "8",
            "primary": "GA", "secondary": "S", "skill_names": "Dodge,  Sure Feet"}


def url(league):
    return reverse("dungeonbowl:league_colleges", args=[league.slug])


def add_college(client, league, name="College of Embers"):
    return client.post(url(league), {"action": "add_college", "new-name": name, "new-reroll_cost": "60000",
                                     "new-wizard": "Ember Wizard", "new-wizard_cost": "100000"})


def add_position(client, league, college, group, **changes):
    values = {**POSITION, "group": group.pk, **changes}
    return client.post(url(league), {"action": "add_position", "college": college.pk,
                                     **{f"position{college.pk}-{k}": v for k, v in values.items()}})


def test_the_organiser_adds_a_college_and_its_roster_and_a_coach_drafts_from_it(client, organiser):
    league = db_league(organiser)
    client.force_login(organiser)
    settings_page = client.get(reverse("league:organiser_settings", args=[league.slug])).content.decode()
    assert f'href="{url(league)}"' in settings_page
    assert "College of Fire" in client.get(url(league)).content.decode()
    assert add_college(client, league).status_code == 302
    embers = College.objects.get(name="College of Embers")
    assert (embers.league, embers.slug, embers.reroll_cost) == (league, "college-of-embers", 60000)
    response = client.post(url(league), {"action": "add_group", "college": embers.pk,
                                         f"group{embers.pk}-name": "Runners", f"group{embers.pk}-max_count": "16"})
    assert response.status_code == 302
    group = PositionGroup.objects.get(college=embers)
    assert add_position(client, league, embers, group).status_code == 302
    runner = Position.objects.get(college=embers)
    assert (runner.cost, runner.skills, runner.group) == (60000, ["Dodge", "Sure Feet"], group)
    assert "Remove Ember Runner" in client.get(url(league)).content.decode()
    coach = CoachFactory(name="Ada")
    client.force_login(coach.user)
    new_team = reverse("dungeonbowl:create_team", args=[league.slug])
    assert "College of Embers" in client.get(new_team).content.decode()
    team = services.submit_draft(league=league, coach=coach, name="Ember Owls", college=embers,
                                 picks=["Ember Runner"] * 11, rerolls=0, by=coach.user)
    assert team.college == embers and team.players.count() == 11


def test_another_leagues_coaches_cannot_draft_from_it(client, organiser):
    league = db_league(organiser)
    embers = College.objects.create(name="College of Embers", slug="college-of-embers", wizard="W", league=league)
    other = db_league(UserFactory(username="elsewhere"), slug="elsewhere")
    coach = CoachFactory(name="Tavi")
    client.force_login(coach.user)
    assert "College of Embers" not in client.get(reverse("dungeonbowl:create_team", args=[other.slug])).content.decode()
    response = client.post(reverse("dungeonbowl:create_team", args=[other.slug]),
                           {"name": "Stolen Fire", "college": embers.pk})
    assert "Choose one of the colleges listed." in response.content.decode()
    with pytest.raises(ValidationError, match="Choose one of the colleges this league offers"):
        services.create_team(league=other, coach=coach, name="Stolen Fire", college=embers, by=coach.user)
    assert not Team.objects.exists()


def test_a_taken_name_or_a_bad_position_is_refused_and_nothing_written(client, organiser):
    league = db_league(organiser)
    client.force_login(organiser)
    response = add_college(client, league, name="college of fire")
    assert response.status_code == 400
    assert "can already draft from a college called college of fire" in response.content.decode()
    assert not College.objects.filter(league=league).exists()
    embers = College.objects.create(name="College of Embers", slug="college-of-embers", wizard="W", league=league)
    group = PositionGroup.objects.create(college=embers, name="Runners", max_count=16)
    assert add_position(client, league, embers, group, ma="99").status_code == 400
    fire_group = PositionGroup.objects.filter(college__slug="college-of-fire").first()
    assert add_position(client, league, embers, fire_group).status_code == 400
    assert not Position.objects.filter(college=embers).exists()


def test_every_leagues_colleges_are_not_the_leagues_to_change(client, organiser):
    league = db_league(organiser)
    fire = College.objects.get(slug="college-of-fire")
    position = fire.positions.first()
    client.force_login(organiser)
    assert client.post(url(league), {"action": "edit_college", "college": fire.pk, f"college{fire.pk}-name": "Mine",
                                     f"college{fire.pk}-reroll_cost": "1", f"college{fire.pk}-wizard": "W",
                                     f"college{fire.pk}-wizard_cost": "1"}).status_code == 400
    assert client.post(url(league), {"action": "remove_position", "position": position.pk}).status_code == 400
    fire.refresh_from_db()
    assert fire.name == "College of Fire" and Position.objects.filter(pk=position.pk).exists()


def test_a_hired_position_stays(client, organiser):
    league = db_league(organiser)
    embers = College.objects.create(name="College of Embers", slug="college-of-embers", wizard="W", league=league)
    group = PositionGroup.objects.create(college=embers, name="Runners", max_count=16)
    runner = Position.objects.create(college=embers, group=group, name="Ember Runner", cost=50000, ma=6, st=3, ag=3,
                                     pa=4, av=8)
    coach = CoachFactory(name="Ada")
    services.submit_draft(league=league, coach=coach, name="Ember Owls", college=embers,
                          picks=["Ember Runner"] * 11, rerolls=0, by=coach.user)
    client.force_login(organiser)
    response = client.post(url(league), {"action": "remove_position", "position": runner.pk})
    assert response.status_code == 400
    assert "A team has hired a Ember Runner" in response.content.decode()
    assert Position.objects.filter(pk=runner.pk).exists()


def test_every_role(client, organiser, other_organiser):
    league = db_league(organiser)
    assert client.get(url(league)).status_code == 302
    for user in (CoachFactory(name="Ada").user, other_organiser):
        client.force_login(user)
        assert client.get(url(league)).status_code == 403
        assert add_college(client, league).status_code == 403
    assert not College.objects.filter(league=league).exists()
    gb = LeagueFactory(name="Harbour", slug="harbour", organisers=[organiser])
    client.force_login(organiser)
    assert client.get(url(gb)).status_code == 404
