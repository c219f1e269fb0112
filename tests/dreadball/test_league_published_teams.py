"""A DreadBall league's own published teams (DR-5): its organiser adds one the
site does not have and enters its roster on the site, beside every league's
(read-only); its coaches pick it, another league's do not; nobody else edits it."""

import pytest
from django.urls import reverse

from league.dreadball.models import DreadBallTeam, PublishedPlayer, TeamType
from league.models import League
from tests.support.factories import EntryFactory, LeagueFactory, UserFactory

pytestmark = pytest.mark.django_db

LINE = {"name": "Striker", "role": "striker", "move": "6", "strength": "5", "agility": "3", "speed": "3",
        "skill": "4", "armour": "5", "cost": "12", "starting": "2", "maximum": "4"}


def url(league):
    return reverse("dreadball:published_teams", args=[league.slug])


def add_team(client, league, name="Void Sirens", race="Sirens"):
    return client.post(url(league), {"action": "add_team", "new-name": name, "new-race": race, "new-notes": ""})


def add_line(client, league, team, **changes):
    values = {**LINE, **changes}
    return client.post(url(league), {"action": "add_line", "team": team.pk,
                                     **{f"line{team.pk}-{k}": v for k, v in values.items()}})


def test_the_organiser_adds_a_team_and_its_roster_and_a_coach_starts_with_it(client, dr_league, dr_season, organiser):
    client.force_login(organiser)
    settings_page = client.get(reverse("league:organiser_settings", args=[dr_league.slug])).content.decode()
    assert f'href="{url(dr_league)}"' in settings_page
    page = client.get(url(dr_league)).content.decode()
    assert "Draconis All-Stars" in page and "None yet" in page and "Remove" not in page
    assert add_team(client, dr_league).status_code == 302
    sirens = TeamType.objects.get(name="Void Sirens")
    assert sirens.league == dr_league
    assert add_line(client, dr_league, sirens).status_code == 302
    line = PublishedPlayer.objects.get(team_type=sirens)
    assert (line.name, line.role, line.cost, line.starting, line.maximum) == ("Striker", "striker", 12, 2, 4)
    assert "Remove Striker" in client.get(url(dr_league)).content.decode()
    entry = EntryFactory(season=dr_season, coach__name="Dana", team="")
    client.force_login(entry.coach.user)
    register = reverse("dreadball:register_team", args=[dr_league.slug])
    assert "Void Sirens" in client.get(register).content.decode()
    assert client.post(register, {"name": "Siren Song", "team_type": sirens.pk}).status_code == 302
    team = DreadBallTeam.objects.get(entry=entry)
    assert sorted(team.players.values_list("name", flat=True)) == ["Striker 1", "Striker 2"]


def test_another_leagues_coaches_cannot_pick_it(client, dr_league, organiser):
    sirens = TeamType.objects.create(name="Void Sirens", race="Sirens", league=dr_league)
    other = LeagueFactory(name="Far Dome", slug="far", game_system="dreadball")
    season = other.seasons.create(name="Season 1", start_date=dr_league.created_at.date())
    entry = EntryFactory(season=season, coach__name="Tavi", team="")
    client.force_login(entry.coach.user)
    register = reverse("dreadball:register_team", args=[other.slug])
    assert "Void Sirens" not in client.get(register).content.decode()
    assert client.post(register, {"name": "Stolen", "team_type": sirens.pk}).status_code == 400
    assert not DreadBallTeam.objects.exists()


def test_a_name_a_coach_can_already_pick_is_refused(client, dr_league, organiser):
    client.force_login(organiser)
    response = add_team(client, dr_league, name="draconis all-stars")
    assert response.status_code == 400
    assert "can already pick a published team called draconis all-stars" in response.content.decode()
    assert not TeamType.objects.filter(league=dr_league).exists()


def test_a_bad_roster_line_is_refused_and_nothing_written(client, dr_league, organiser):
    sirens = TeamType.objects.create(name="Void Sirens", race="Sirens", league=dr_league)
    client.force_login(organiser)
    response = add_line(client, dr_league, sirens, starting="5", maximum="2")
    assert response.status_code == 400
    assert "A team starts with at most the limit of 2." in response.content.decode()
    assert not PublishedPlayer.objects.exists()


def test_the_site_wide_teams_are_not_the_leagues_to_change(client, dr_league, organiser):
    robots = TeamType.objects.get(name="Draconis All-Stars")
    line = PublishedPlayer.objects.create(team_type=robots, name="Keeper", role="guard", move=4, strength=3,
                                          agility=5, speed=5, skill=5, armour=3, cost=10)
    lines = robots.roster.count()
    client.force_login(organiser)
    assert add_line(client, dr_league, robots).status_code == 400
    assert client.post(url(dr_league), {"action": "edit_team", "team": robots.pk, f"team{robots.pk}-name": "Mine",
                                        f"team{robots.pk}-race": "Robots"}).status_code == 400
    assert client.post(url(dr_league), {"action": "remove_line", "line": line.pk}).status_code == 400
    robots.refresh_from_db()
    assert (robots.name, robots.league, robots.roster.count()) == ("Draconis All-Stars", None, lines)


def test_a_line_is_removed_and_the_team_renamed(client, dr_league, organiser):
    sirens = TeamType.objects.create(name="Void Sirens", race="Sirens", league=dr_league)
    line = PublishedPlayer.objects.create(team_type=sirens, name="Guard", role="guard", move=4, strength=3,
                                          agility=5, speed=5, skill=5, armour=3, cost=10)
    client.force_login(organiser)
    assert client.post(url(dr_league), {"action": "remove_line", "line": line.pk}).status_code == 302
    assert not PublishedPlayer.objects.exists()
    response = client.post(url(dr_league), {"action": "edit_team", "team": sirens.pk,
                                            f"team{sirens.pk}-name": "Void Singers", f"team{sirens.pk}-race": "Sirens"})
    assert response.status_code == 302
    sirens.refresh_from_db()
    assert sirens.name == "Void Singers"


def test_every_role(client, dr_league, dr_season, organiser, other_organiser, outsider):
    sirens = TeamType.objects.create(name="Void Sirens", race="Sirens", league=dr_league)
    coach = EntryFactory(season=dr_season, coach__name="Dana").coach.user
    assert client.get(url(dr_league)).status_code == 302
    for user in (coach, other_organiser, outsider):
        client.force_login(user)
        assert client.get(url(dr_league)).status_code == 403
        assert add_line(client, dr_league, sirens).status_code == 403
    assert not PublishedPlayer.objects.exists()
    gb = LeagueFactory(name="Harbour", slug="harbour", organisers=[UserFactory(username="harbourmaster")])
    client.force_login(gb.organisers.get())
    assert client.get(url(gb)).status_code == 404
    assert League.objects.count() == 2
