"""Every leaderboard and records page and feed costs the same number of queries at
4 and at 40 coaches, cold (built) and warm (one version lookup and a cache read
for an anonymous visitor)."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.support.builders import season_with_results
from tests.support.factories import LeagueFactory, SeasonFactory


def addresses(slug: str, game: str) -> list[str]:
    league = [reverse(f"league:{name}", args=[slug]) for name in (
        "league_leaderboards", "league_leaderboards_json", "league_leaderboards_csv", "league_records")]
    site = [reverse(f"league:{name}", args=[game]) for name in (
        "game_leaderboards", "game_leaderboards_json", "game_leaderboards_csv", "game_records")]
    return league + [f"{league[0]}?board=campaign&sort=-favours_spent", f"{site[0]}?board=vp&sort=coach"] + site


def counts(client: Client, urls: list[str]) -> dict[str, tuple[int, int]]:
    """Each address's queries cold (the cache emptied first) and warm. (The hall
    of fame reads each finished season's table: its cost follows the seasons
    shown, at most ``SEASONS_SHOWN``, never the coaches.)"""
    found = {}
    for url in urls:
        cache.clear()
        measured = []
        for _ in range(2):
            with CaptureQueriesContext(connection) as queries:
                assert client.get(url).status_code == 200, url
            measured.append(len(queries))
        found[url.replace("size-40", "size").replace("size-4", "size")] = tuple(measured)
    return found


@pytest.mark.django_db
def test_the_same_queries_at_4_and_40_coaches():
    client = Client()
    measured = []
    for size in (4, 40):
        league = LeagueFactory(slug=f"size-{size}")
        # A finished season (every round played) and a season under way.
        season_with_results(coaches=size, played_rounds=size, season=SeasonFactory(league=league, name="Done"))
        season_with_results(coaches=size, played_rounds=2, season=SeasonFactory(
            league=league, name="Now", start_date=league.seasons.get().start_date.replace(year=2027)))
        measured.append(counts(client, addresses(league.slug, "guildball")))
        league.delete()  # the site's pages then show as many seasons at 40 coaches as at 4
    small, large = measured
    assert small == large
    assert all(warm == 1 for _, warm in small.values())  # the versions, then the cache
