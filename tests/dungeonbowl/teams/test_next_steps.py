"""The coach's home (/me/): what their Dungeon Bowl teams wait on, through the
league.layers "my_fixtures" panel, at a fixed number of queries."""

import datetime

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from league.services import results as engine
from league.dungeonbowl.teams import services
from league.dungeonbowl.models import College, Player, Team
from league.models import Fixture, Round
from tests.dungeonbowl.builders import db_league, db_season
from tests.support.factories import CoachFactory

pytestmark = pytest.mark.django_db


def test_a_new_team_is_told_to_draft(client, organiser):
    league = db_league(organiser)
    coach = CoachFactory(name="Gotrek")
    services.create_team(league=league, coach=coach, name="Karak Scorchers",
                         college=College.objects.get(slug="college-of-fire"), by=coach.user)
    client.force_login(coach.user)
    page = client.get(reverse("league:my_fixtures")).content.decode()
    assert "Dungeon Bowl: what to do next" in page
    assert "Draft:</strong>" in page and "Karak Scorchers (Altdorf Colleges): draft your players" in page
    assert reverse("dungeonbowl:draft", args=[league.slug]) in page


def test_report_confirm_spend_and_advance_each_listed_once(client, organiser):
    season = db_season(organiser, teams=4)
    Round.objects.filter(season=season).update(date=datetime.date(2020, 1, 1))
    Fixture.objects.filter(round__season=season).update(date=datetime.date(2020, 1, 1))
    team = Team.objects.get(name="Team 01")
    other = Team.objects.get(name="Team 02")
    mine = Fixture.objects.with_related().filter(round__season=season, home__dungeonbowl__team=team).order_by("round__number")
    played, pending = mine[0], mine[1]
    engine.record_result(fixture=played, by=organiser, reason="sheet", home_score=1, away_score=0, ending="touchdown",
                         home_gather=0, away_gather=0, home_journeymen=0, away_journeymen=0, dice=[5, 3])
    opponent = pending.away.coach
    engine.report_result(fixture=pending, by=opponent.user, home_score=1, away_score=0, ending="touchdown",
                         home_gather=0, away_gather=0, home_journeymen=0, away_journeymen=0)
    Player.objects.filter(team=team, position__name="Troll Slayer").update(spp=7)
    client.force_login(team.coach.user)
    page = client.get(reverse("league:my_fixtures")).content.decode()
    assert "Spend:</strong>" in page and "Team 01 has 395,000 gp in the Treasury" in page
    assert "Advance:</strong>" in page and "Troll Slayer has 7 SPP (a chosen primary skill costs 6)" in page
    # The games to report and confirm are listed once, in "Waiting on you".
    assert "Confirm:</strong>" not in page and "Confirm or dispute:</strong>" in page
    assert page.count(f'href="{pending.get_absolute_url()}"') == 1
    to_report = [f for f in mine.exclude(pk__in=[played.pk, pending.pk])] + list(
        Fixture.objects.filter(round__season=season, away__dungeonbowl__team=team))
    assert to_report and all(page.count(f'href="{f.get_absolute_url()}"') == 1 for f in to_report)
    assert "Draft:</strong>" not in page
    client.force_login(other.coach.user)
    theirs = client.get(reverse("league:my_fixtures")).content.decode()
    assert "Troll Slayer has 7 SPP" not in theirs


def _count(client, user) -> int:
    """The queries of building the page (the kept one, league/caching/kept_pages.py, is
    three whatever the coach has: tests/caching/test_kept_pages.py)."""
    client.force_login(user)
    cache.clear()
    with CaptureQueriesContext(connection) as queries:
        assert client.get(reverse("league:my_fixtures")).status_code == 200
    return len(queries)


def test_the_panel_costs_the_same_for_one_team_or_three(client, organiser):
    db_season(organiser, teams=4)
    coach = Team.objects.get(name="Team 01").coach
    one = _count(client, coach.user)
    for slug in ("nuln", "middenheim"):
        league = db_league(organiser, slug=slug)
        services.submit_draft(league=league, coach=coach, name=f"{slug} team",
                              college=College.objects.get(slug="college-of-shadows"),
                              picks=["Dark Elf Lineman"] * 11, rerolls=0, by=coach.user)
    Player.objects.filter(team__coach=coach).update(spp=9)
    assert _count(client, coach.user) == one


def test_a_team_in_the_off_season_is_told_to_redraft(client, organiser):
    """DB-15: once the season is over, the coach's home points at the re-draft page,
    at the same cost in queries, until the team is re-drafted."""
    from league.dungeonbowl.redraft import services as redraft
    from tests.dungeonbowl.offseason import finished_season

    season = finished_season(organiser, teams=4)
    team = Team.objects.get(league=season.league, name="Team 01")
    before = _count(client, team.coach.user)
    page = client.get(reverse("league:my_fixtures")).content.decode()
    assert "the season is over; re-draft the team, next step: Scouting" in page
    assert reverse("dungeonbowl:redraft", args=[season.league.slug, team.slug]) in page
    redraft.scout(team=team, by=organiser, table={p.pk: 1 for p in team.players.filter(mvp_awards__gt=0)})
    assert "next step: R&amp;R" in client.get(reverse("league:my_fixtures")).content.decode()
    assert _count(client, team.coach.user) == before
    for act in (redraft.recover, redraft.raise_funds):
        act(team=team, by=organiser)
    redraft.redraft_team(team=team, by=organiser, rehire=[], rookies=["Dwarf Blocker Lineman"] * 11, rerolls=0)
    assert "re-draft the team" not in client.get(reverse("league:my_fixtures")).content.decode()
