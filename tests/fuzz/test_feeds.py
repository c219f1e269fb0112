"""The pages and feeds' query parameters, fuzzed (R3): ``season``, ``round``,
``sort``, ``q``, ``page``, ``college`` and made-up ones, with any value, on the
league page, the fixtures, standings.json and .csv, the calendars, the coach
page, the Big League's table and feed, and Dungeon Bowl's team JSON, dice log and
draft form, for every game. Never a 5xx, and a GET writes nothing."""

from __future__ import annotations

import pytest
from django.urls import reverse
from hypothesis import given, note
from hypothesis import strategies as st

from league.dungeonbowl.models import Team
from tests.fuzz.conftest import Attempt
from tests.fuzz.test_forms import DATES, NUMBERS, TEXT
from tests.support.world import GAMES

PARAMS = ["season", "round", "sort", "q", "page", "college", "division", "format", "coach"]
VALUES = st.one_of(NUMBERS, TEXT, DATES, st.sampled_from(["Season One", "Season%20One", "-lp", "lp", "name", "college-of-fire"]))
QUERIES = st.dictionaries(st.one_of(st.sampled_from(PARAMS), st.text(min_size=1, max_size=10)), VALUES, max_size=4)


def feeds(world, game: str) -> list[str]:
    g = world.games[game]
    slug = g.league.slug
    urls = [reverse("league:league_list")] + [
        reverse(name, args=[slug]) for name in
        ("league:league_detail", "league:fixtures", "league:standings_json", "league:standings_csv", "league:league_ics")
    ] + [reverse(name, args=[slug, g.right.pk]) for name in ("league:coach_detail", "league:coach_ics")]
    if game == "guildball":
        urls += [reverse("campaigns:campaign_table", args=[slug]), reverse("campaigns:campaign_json", args=[slug])]
    if game == "dungeonbowl":
        team = Team.objects.get(league=g.league, coach=g.right)
        urls += [reverse("dungeonbowl:team_json", args=[slug, team.slug]), reverse("dungeonbowl:dice_log", args=[slug]),
                 reverse("dungeonbowl:draft", args=[slug])]
    return urls


@pytest.mark.django_db
@pytest.mark.parametrize("game", GAMES)
def test_query_parameters_never_give_a_5xx(game, world, clients):
    urls = feeds(world, game)
    client = clients[game, "right"]

    @given(url=st.sampled_from(urls), query=QUERIES)
    def fuzz(url, query):
        note(f"GET {url} {query!r}"[:2000])
        with Attempt() as attempt:
            response = client.get(url, query)
        assert response.status_code < 500, f"{url} {query!r}: {response.status_code}"
        assert not attempt.wrote, f"GET {url} wrote {attempt.writes}"

    fuzz()
