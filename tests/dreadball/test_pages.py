"""DreadBall pages and feeds: the standings' JSON and CSV shapes, the roster on
the coach's page, and a fixed number of queries at 4 and at 40 coaches."""

import csv
import io

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from league.services import results as services
from league.dreadball.models import DreadBallSettings
from league.models import Fixture, Result
from tests.dreadball.builders import dreadball_season
from tests.support.factories import LeagueFactory, SeasonFactory

pytestmark = pytest.mark.django_db

MAX_QUERIES = 15  # the engine's bound for every page (tests/web/test_query_counts.py)
COLUMNS = ["division", "position", "tied", "coach", "team", "played", "won", "drawn", "lost", "landslides", "lp", "strike_diff",
           "withdrawn_on"]


def _league(organiser, slug):
    league = LeagueFactory(name=f"DreadBall {slug}", slug=slug, game_system="dreadball", organisers=[organiser])
    DreadBallSettings.objects.create(league=league)
    return league


@pytest.fixture(params=[4, 40], ids=["4-coaches", "40-coaches"])
def sized(request, organiser):
    size = request.param
    season = dreadball_season(
        season=SeasonFactory(league=_league(organiser, "sized")), coaches=size, played_rounds=size // 2,
        players=3 if size == 4 else 12,
    )
    pending = Fixture.objects.filter(round__season=season, result__isnull=True, away__isnull=False).first()
    services.report_result(fixture=pending, by=pending.home.coach.user, winner="away", difference=2, rush=14)
    return season, pending


def _urls(season, fixture):
    slug = season.league.slug
    return [
        reverse("league:league_detail", args=[slug]),
        reverse("league:league_detail", args=[slug]) + "?sort=-strike_diff",
        reverse("league:standings_json", args=[slug]),
        reverse("league:standings_csv", args=[slug]),
        reverse("league:fixtures", args=[slug]),
        reverse("league:coach_detail", args=[slug, fixture.home.coach_id]),
        reverse("league:fixture_detail", args=[fixture.pk]),
    ]


def test_public_pages_have_a_fixed_query_bound(client, sized, django_assert_max_num_queries):
    season, fixture = sized
    for url in _urls(season, fixture):
        with django_assert_max_num_queries(MAX_QUERIES):
            assert client.get(url).status_code == 200, url


@pytest.mark.parametrize("who", ["home", "away", "organiser"])
def test_logged_in_fixture_page_has_a_fixed_query_bound(client, sized, organiser, who, django_assert_max_num_queries):
    season, fixture = sized
    client.force_login(organiser if who == "organiser" else getattr(fixture, who).coach.user)
    for url in [reverse("league:fixture_detail", args=[fixture.pk]), reverse("league:my_fixtures"),
                reverse("league:coach_detail", args=[season.league.slug, fixture.home.coach_id])]:
        with django_assert_max_num_queries(MAX_QUERIES):
            assert client.get(url).status_code == 200, url


def test_counts_do_not_grow_with_the_league(client, organiser):
    counts = {}
    for size in (4, 40):
        # This week's and next week's rounds played at both sizes, as in
        # tests/web/test_query_counts.py: the same week state, whatever the size.
        season = dreadball_season(
            season=SeasonFactory(league=_league(organiser, f"size-{size}")), coaches=size,
            played_rounds=max(size // 2, 4),
            players=2 if size == 4 else 12,
        )
        fixture = Fixture.objects.filter(round__season=season, away__isnull=False, result__isnull=False).first()
        counts[size] = []
        for url in _urls(season, fixture):
            with CaptureQueriesContext(connection) as queries:
                assert client.get(url).status_code == 200
            counts[size].append(len(queries))
    assert counts[4] == counts[40]


def test_standings_json_and_csv_have_their_documented_shape(client, organiser):
    season = SeasonFactory(league=_league(organiser, "feeds"), name="Season 1")
    dreadball_season(season=season, coaches=4, played_rounds=3)

    feed = client.get(reverse("league:standings_json", args=["feeds"])).json()
    assert list(feed) == ["league", "season", "standings"]
    assert (feed["league"], feed["season"]) == ("feeds", "Season 1")
    assert [list(row) for row in feed["standings"]] == [COLUMNS] * 4
    first = feed["standings"][0]
    assert first["division"] is None and isinstance(first["tied"], bool)
    assert sum(row["played"] for row in feed["standings"]) == 2 * Result.objects.count()
    assert sum(row["strike_diff"] for row in feed["standings"]) == 0  # every difference won is one lost
    assert sum(row["landslides"] for row in feed["standings"]) == Result.objects.filter(summary__contains="landslide").count()
    assert [row["position"] for row in feed["standings"]] == sorted(row["position"] for row in feed["standings"])

    response = client.get(reverse("league:standings_csv", args=["feeds"]))
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0] == COLUMNS
    assert [row[3] for row in rows[1:]] == [row["coach"] for row in feed["standings"]]
    assert [int(row[11]) for row in rows[1:]] == [row["strike_diff"] for row in feed["standings"]]


def test_coach_page_shows_the_team_and_roster(client, organiser):
    season = dreadball_season(season=SeasonFactory(league=_league(organiser, "roster")), coaches=4, played_rounds=1, players=3)
    entry = season.entries.select_related("dreadball_team__team_type").first()
    page = client.get(reverse("league:coach_detail", args=["roster", entry.coach_id])).content.decode()
    assert f"Team: {entry.team}" in page
    assert f"Plays the {entry.dreadball_team.team_type.name}" in page
    assert "3 players · 33 mc" in page
    # A card per player on a phone: each figure under its label.
    assert ('Player 0</td><td class="wide" data-label="Role">Guard</td>'
            '<td class="num" data-label="MV">5</td><td class="num" data-label="STR">4+</td>') in page
    assert "Strike Difference" in page


def test_league_page_orders_by_dr4_and_says_so(client, organiser):
    season = dreadball_season(season=SeasonFactory(league=_league(organiser, "order")), coaches=4, played_rounds=3)
    page = client.get(reverse("league:league_detail", args=["order"])).content.decode()
    assert "then Strike Difference (differences won minus lost), then landslides won" in page
    assert "7–0, landslide" in page
    assert "SD±" in page and "LS" in page  # the game's own columns
