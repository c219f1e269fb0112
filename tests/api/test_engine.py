"""The engine's read endpoints: what they answer, the same figures as the pages'
feeds, ETag and 304, and the same number of queries at 4 and 40 coaches."""

from __future__ import annotations

import pytest

from league.models import Division, Entry, Fixture
from tests.api.costs import cold
from tests.support.builders import season_with_results
from tests.support.factories import LeagueFactory, SeasonFactory

ENDPOINTS = [
    "/api/v1/leagues/{slug}/",
    "/api/v1/leagues/{slug}/seasons/",
    "/api/v1/leagues/{slug}/divisions/",
    "/api/v1/leagues/{slug}/standings/",
    "/api/v1/leagues/{slug}/rounds/",
    "/api/v1/leagues/{slug}/fixtures/?limit=100",
    "/api/v1/leagues/{slug}/fixtures/?round=2",
    "/api/v1/leagues/{slug}/fixtures/?coach={coach}",
    "/api/v1/leagues/{slug}/fixtures/?date_from=2000-01-01&date_to=2100-01-01",
    "/api/v1/leagues/{slug}/results/?limit=100",
    "/api/v1/leagues/{slug}/coaches/?limit=100",
    "/api/v1/leagues/{slug}/coaches/{coach}/",
    "/api/v1/leagues/{slug}/coaches/{coach}/results/?limit=100",
    "/api/v1/leagues/?limit=100",
]


def _league_of(coaches: int, slug: str):
    league = LeagueFactory(slug=slug, name=f"League of {coaches}")
    season = season_with_results(coaches=coaches, played_rounds=2, season=SeasonFactory(league=league))
    division = Division.objects.create(season=season, name="North")
    Entry.objects.filter(season=season).update(division=division)
    return league, season


def _queries(client, url: str) -> int:
    return cold(client, url)[0]


@pytest.mark.django_db
def test_every_endpoint_costs_the_same_at_4_and_40_coaches(client):
    small, small_season = _league_of(4, "small")
    large, large_season = _league_of(40, "large")
    for pattern in ENDPOINTS:
        counts = []
        for league, season in ((small, small_season), (large, large_season)):
            coach = Entry.objects.filter(season=season).order_by("pk").first().coach_id
            counts.append(_queries(client, pattern.format(slug=league.slug, coach=coach)))
        assert counts[0] == counts[1], (pattern, counts)


@pytest.mark.django_db
def test_standings_are_the_figures_of_standings_json(client):
    league, season = _league_of(4, "midlands")
    api = client.get(f"/api/v1/leagues/{league.slug}/standings/").json()
    feed = client.get(f"/leagues/{league.slug}/standings.json").json()
    assert api == feed
    assert len(api["standings"]) == 4


@pytest.mark.django_db
def test_fixtures_by_round_coach_and_date_and_results(client):
    league, season = _league_of(4, "midlands")
    everything = client.get(f"/api/v1/leagues/{league.slug}/fixtures/?limit=100").json()
    assert everything["count"] == Fixture.objects.filter(round__season=season).count()
    second = client.get(f"/api/v1/leagues/{league.slug}/fixtures/?round=2").json()
    assert second["count"] == 2 and {f["round"] for f in second["items"]} == {2}
    coach = Entry.objects.filter(season=season).first().coach_id
    theirs = client.get(f"/api/v1/leagues/{league.slug}/fixtures/?coach={coach}&limit=100").json()["items"]
    assert theirs and all(coach in (f["home"]["coach_id"], (f["away"] or {}).get("coach_id")) for f in theirs)
    first_date = everything["items"][0]["date"]
    on_day = client.get(f"/api/v1/leagues/{league.slug}/fixtures/?date_from={first_date}&date_to={first_date}").json()
    assert on_day["count"] and all(f["date"] == first_date for f in on_day["items"])
    played = client.get(f"/api/v1/leagues/{league.slug}/results/?limit=100").json()
    assert played["count"] == 4 and all(f["result"]["status"] == "approved" for f in played["items"])
    mine = client.get(f"/api/v1/leagues/{league.slug}/coaches/{coach}/results/").json()
    assert mine["count"] == 2
    detail = client.get(f"/api/v1/leagues/{league.slug}/coaches/{coach}/").json()
    assert detail["seasons"][0]["season"] == season.name and detail["seasons"][0]["division"] == "North"


@pytest.mark.django_db
def test_unknown_things_are_404_and_bad_parameters_4xx(client):
    league, season = _league_of(4, "midlands")
    assert client.get("/api/v1/leagues/nowhere/").status_code == 404
    assert client.get("/api/v1/leagues/nowhere/standings/").status_code == 404
    assert client.get(f"/api/v1/leagues/{league.slug}/standings/?season=Nope").status_code == 404
    assert client.get(f"/api/v1/leagues/{league.slug}/coaches/999999/").status_code == 404
    assert client.get(f"/api/v1/leagues/{league.slug}/coaches/{2**64}/").status_code == 404  # not an id
    assert client.get(f"/api/v1/leagues/{league.slug}/fixtures/?limit=101").status_code == 422
    assert client.get(f"/api/v1/leagues/{league.slug}/fixtures/?date_from=yesterday").status_code == 422
    empty = LeagueFactory(slug="empty")
    assert client.get(f"/api/v1/leagues/{empty.slug}/").status_code == 200
    assert client.get(f"/api/v1/leagues/{empty.slug}/rounds/").status_code == 404


@pytest.mark.django_db
def test_an_answer_has_an_etag_304_and_is_never_stale(client):
    league, season = _league_of(4, "midlands")
    url = f"/api/v1/leagues/{league.slug}/standings/"
    first = client.get(url)
    etag = first["ETag"]
    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    # A write shown in the table (a coach renamed, through the ORM: a signal bumps the season).
    entry = Entry.objects.filter(season=season).select_related("coach").first()
    entry.coach.name = "Renamed"
    entry.coach.save()
    again = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 200 and again["ETag"] != etag
    assert "Renamed" in again.content.decode()
