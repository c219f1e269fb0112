"""The games' read endpoints: what they answer and the same number of queries at
4 and 40 coaches."""

from __future__ import annotations

import pytest

from league.dreadball.models import DreadBallSettings
from league.dungeonbowl.models import Team, TreasuryLine
from tests.api.costs import cold
from tests.support.builders import season_with_results
from tests.dreadball.builders import dreadball_season
from tests.dungeonbowl.builders import db_league, db_season
from tests.support.factories import LeagueFactory, SeasonFactory


def _queries(client, url: str) -> tuple[int, dict]:
    count, answer = cold(client, url)
    return count, answer.json()


def _same_cost(client, urls_small: list[str], urls_large: list[str]) -> list[dict]:
    answers = []
    for small, large in zip(urls_small, urls_large):
        (small_count, answer), (large_count, _) = _queries(client, small), _queries(client, large)
        assert small_count == large_count, (small, small_count, large_count)
        answers.append(answer)
    return answers


@pytest.mark.django_db
def test_dungeon_bowl_teams_roster_treasury_and_playoffs(client, organiser):
    def urls(slug: str) -> list[str]:
        team = Team.objects.filter(league__slug=slug).order_by("pk").first()
        base = f"/api/v1/leagues/{slug}/dungeonbowl"
        return [f"{base}/teams/?limit=100", f"{base}/teams/{team.slug}/", f"{base}/teams/{team.slug}/treasury/",
                f"{base}/playoffs/"]

    db_season(organiser, teams=4, league=db_league(organiser, slug="small"))
    db_season(organiser, teams=40, league=db_league(organiser, slug="large"), prefix="Large")
    teams, roster, treasury, playoffs = _same_cost(client, urls("small"), urls("large"))
    assert teams["count"] == 4 and teams["items"][0]["college"]
    first = Team.objects.filter(league__slug="small").order_by("pk").first()
    assert roster["team"] == first.name and roster["players"]
    assert roster == client.get(f"/leagues/small/teams/{first.slug}.json").json()  # the team feed's figures
    assert treasury["count"] == TreasuryLine.objects.filter(team=first).count() > 0
    assert sum(line["amount"] for line in treasury["items"]) == roster["treasury"]
    assert playoffs == []
    assert client.get("/api/v1/leagues/small/dungeonbowl/teams/no-such-team/").status_code == 404


@pytest.mark.django_db
def test_dreadball_teams_with_their_rosters(client, organiser):
    for slug, coaches in (("small", 4), ("large", 40)):
        league = LeagueFactory(slug=slug, game_system="dreadball")
        DreadBallSettings.objects.create(league=league)
        dreadball_season(season=SeasonFactory(league=league), coaches=coaches, played_rounds=1)
    (teams,) = _same_cost(client, ["/api/v1/leagues/small/dreadball/teams/?limit=100"],
                          ["/api/v1/leagues/large/dreadball/teams/?limit=100"])
    assert teams["count"] == 4 and len(teams["items"][0]["players"]) == 6
    assert client.get("/api/v1/leagues/small/dungeonbowl/teams/").status_code == 404


@pytest.mark.django_db
def test_the_big_league_campaign_table(client):
    for slug, coaches in (("small", 4), ("large", 40)):
        league = LeagueFactory(slug=slug, game_system="guildball")
        season_with_results(coaches=coaches, played_rounds=2, season=SeasonFactory(league=league))
    (table,) = _same_cost(client, ["/api/v1/leagues/small/campaign/"], ["/api/v1/leagues/large/campaign/"])
    assert len(table["coaches"]) == 4
    assert table == client.get("/leagues/small/campaign.json").json()
