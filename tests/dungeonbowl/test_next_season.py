"""The commissioner opens the next Dungeon Bowl season (DB-3) with the re-drafted
teams (DB-15) and the new ones, divisions kept or drawn again (DB-2), fixtures
generated; the season that ended stays as it was."""

import datetime

import pytest
from django.core.exceptions import ValidationError
from django.http import HttpRequest
from django.urls import reverse

from league.dungeonbowl import redraft, redraft_selectors
from league.dungeonbowl.league_models import TeamSeason
from league.dungeonbowl.models import Team
from league.dungeonbowl.redraft_models import Redraft
from league.models import Entry, Fixture, Result, Season
from tests.dungeonbowl.builders import db_league, db_team
from tests.dungeonbowl.offseason import finished_season
from tests.factories import PASSWORD, CoachFactory

pytestmark = pytest.mark.django_db


def login(client, user):
    assert client.login(request=HttpRequest(), username=user.username, password=PASSWORD)


def redraft_keeping_everyone(team, by):
    """DB-15 run through: app rolls, everyone re-hired who is still there, re-rolls kept."""
    redraft.scout(team=team, by=by)
    redraft.recover(team=team, by=by)
    redraft.raise_funds(team=team, by=by)
    keep = list(team.players.on_draft_list().values_list("pk", flat=True))
    return redraft.redraft_team(team=team, by=by, rehire=keep, rookies=[], rerolls=team.rerolls)


@pytest.fixture
def season(organiser):
    return finished_season(organiser, teams=8, divisions=2)


def url(league):
    return reverse("dungeonbowl:next_season", args=[league.slug])


def test_only_the_commissioner_sees_and_opens_it(client, organiser, other_organiser, season):
    league = season.league
    response = client.get(url(league))
    assert response.status_code == 302 and "login" in response["Location"]
    login(client, Team.objects.filter(league=league).first().coach.user)
    assert client.get(url(league)).status_code == 403
    assert client.post(url(league), {"name": "Season 2", "start_date": "2027-09-01", "divisions": "keep"}).status_code == 403
    client.logout()
    db_league(other_organiser, slug="elsewhere")
    login(client, other_organiser)
    assert client.get(url(league)).status_code == 403
    assert client.post(url(league), {"name": "Season 2", "start_date": "2027-09-01", "divisions": "keep"}).status_code == 403
    client.logout()
    login(client, organiser)
    page = client.get(url(league)).content.decode()
    assert "Still re-drafting" in page and "Team 01" in page
    # Nobody re-drafted yet: refused with the reason, nothing created.
    page = client.post(url(league), {"name": "Season 2", "start_date": "2027-09-01", "divisions": "keep"}).content.decode()
    assert "at least 4 teams" in page and Season.objects.filter(league=league).count() == 1


def test_redrafted_and_new_teams_enter_in_the_kept_divisions(client, organiser, season):
    league = season.league
    teams = list(Team.objects.filter(league=league).order_by("name"))
    before = {d.name: set(Entry.objects.filter(division=d).values_list("team", flat=True)) for d in season.divisions.all()}
    retiring = teams[0]
    for team in teams[1:]:
        redraft_keeping_everyone(team, organiser)
    redraft.retire_team(team=retiring, by=retiring.coach.user)
    fresh = db_team(league, "Second Wind", coach=retiring.coach)  # DB-15: a coach who did not re-draft drafts anew
    newcomer = db_team(league, "New Blood", college="college-of-shadows", coach=CoachFactory(name="Newcomer"))
    plan = redraft_selectors.next_season(league)
    assert {t.name for t in plan.ready} == {t.name for t in teams[1:]} | {"Second Wind", "New Blood"} and not plan.waiting

    login(client, organiser)
    response = client.post(url(league), {"name": "Season 2", "start_date": "2027-09-01", "divisions": "keep"})
    assert response.status_code == 302
    second = Season.objects.get(league=league, name="Season 2")
    assert second.entries.count() == 9
    assert set(TeamSeason.objects.filter(entry__season=second).values_list("team__name", flat=True)) == (
        {t.name for t in teams[1:]} | {"Second Wind", "New Blood"})
    after = {d.name: set(Entry.objects.filter(division=d).values_list("team", flat=True)) for d in second.divisions.all()}
    assert set(after) == set(before)
    for name, members in before.items():
        assert members - {retiring.name} <= after[name]
    assert sorted(len(m) for m in after.values()) == [4, 5]
    sizes = [len(m) for m in sorted(after.values(), key=len)]
    assert Fixture.objects.filter(round__season=second, away__isnull=False).count() == sum(n * (n - 1) // 2 for n in sizes)
    # The season that ended is untouched: its entries, games and results stay.
    assert season.entries.count() == 8
    assert Result.objects.filter(fixture__round__season=season, status="approved").count() == 12
    # Its off-season is closed: no correction once the next season has started.
    with pytest.raises(ValidationError, match="no re-draft under way"):
        redraft.go_back(team=teams[1], to=1, by=organiser)
    assert Redraft.objects.filter(season=season, step=5).count() == 7


def test_divisions_drawn_again_or_none(client, organiser, season):
    league = season.league
    for team in Team.objects.filter(league=league):
        redraft_keeping_everyone(team, organiser)
    opened = redraft.open_next_season(league=league, by=organiser, name="Season 2",
                                      start_date=datetime.date(2027, 9, 1), divisions=0, seed=1)
    assert not opened.divisions.exists() and Fixture.objects.filter(round__season=opened, away__isnull=False).count() == 28
    with pytest.raises(ValidationError, match="opens once this season is over"):
        redraft.open_next_season(league=league, by=organiser, name="Season 3", start_date=datetime.date(2028, 9, 1))


def test_a_refused_next_season_answers_400_with_each_reason_once_in_plain_english(client, organiser, season):
    """Issue 18.4: the form answers 400 as every refused form does; the reason
    appears once ("1 team is ready"); the date picker shows the start date (ISO)."""
    league = season.league
    redraft_keeping_everyone(Team.objects.filter(league=league).order_by("name").first(), organiser)
    login(client, organiser)
    page = client.get(url(league)).content.decode()
    assert f'type="date" name="start_date" value="{datetime.date.today().isoformat()}"' in page
    response = client.post(url(league), {"name": "Season 2", "start_date": "2027-09-01", "divisions": "keep"})
    page = response.content.decode()
    assert response.status_code == 400
    assert page.count("A season needs at least 4 teams (DB-1); 1 is ready.") == 1 and "are ready" not in page
    assert 'value="2027-09-01"' in page  # what was typed stays, in the picker's format
    response = client.post(url(league), {"name": "", "start_date": "not a date", "divisions": "keep"})
    assert response.status_code == 400 and "Name the new season." in response.content.decode()
    assert Season.objects.filter(league=league).count() == 1
