"""Every page runs a fixed number of queries whatever the league's size."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from league.models import Fixture, Result
from league.permissions import make_organiser
from tests.support.builders import season_with_results
from tests.support.factories import LeagueFactory, SeasonFactory, UserFactory
from tests.support.world import rolled_back

pytestmark = pytest.mark.django_db

# A cold league page: settings, standings sums, history (and the version read again
# before it is kept, league/standings/history.py), publication, the Big League panel.
MAX_QUERIES = 19


@pytest.fixture(scope="module", params=[4, 40], ids=["4-coaches", "40-coaches"])
def sized(request, django_db_setup, django_db_blocker):
    """A league of 4 or of 40 coaches with results, its organiser and a pending
    result: built once for the module, whose tests only read it."""
    with rolled_back(django_db_blocker):
        organiser = UserFactory(username="sized-organiser")
        make_organiser(organiser)
        league = LeagueFactory(slug="sized", organisers=[organiser])
        season = season_with_results(
            coaches=request.param, played_rounds=request.param // 2, season=SeasonFactory(league=league)
        )
        # One result awaiting confirmation, so the coach and organiser queues are not empty.
        pending = Fixture.objects.filter(round__season=season, result__isnull=True, away__isnull=False).first()
        Result.objects.create(fixture=pending, home_score=12, away_score=1, outcome="home", reported_side="home")
        yield season, pending, organiser


def _public_urls(season, fixture):
    slug = season.league.slug
    coach_id = fixture.home.coach_id
    return [
        reverse("league:league_list"),
        reverse("league:league_detail", args=[slug]),
        reverse("league:league_detail", args=[slug]) + "?sort=-vp_diff",
        reverse("league:fixtures", args=[slug]),
        reverse("league:coach_detail", args=[slug, coach_id]),
        reverse("league:standings_json", args=[slug]),
        reverse("league:standings_csv", args=[slug]),
        reverse("league:league_ics", args=[slug]),
        reverse("league:coach_ics", args=[slug, coach_id]),
        reverse("league:fixture_detail", args=[fixture.pk]),
    ]


def test_public_pages(client, sized, django_assert_max_num_queries):
    season, fixture, _ = sized
    for url in _public_urls(season, fixture):
        with django_assert_max_num_queries(MAX_QUERIES):
            assert client.get(url).status_code == 200, url


@pytest.mark.parametrize("who", ["home", "away", "organiser"])
def test_logged_in_pages(client, sized, who, django_assert_max_num_queries):
    season, fixture, organiser = sized
    user = organiser if who == "organiser" else getattr(fixture, who).coach.user
    client.force_login(user)
    for url in [reverse("league:my_fixtures"), reverse("league:fixture_detail", args=[fixture.pk])]:
        with django_assert_max_num_queries(MAX_QUERIES):
            assert client.get(url).status_code == 200, url


def test_counts_do_not_grow_with_the_league(client, organiser):
    """The same page costs the same number of queries at 4 and at 40 coaches."""
    counts = {}
    for size in (4, 40):
        league = LeagueFactory(slug=f"size-{size}", organisers=[organiser])
        # This week's and next week's rounds played at both sizes: with a match of
        # them left to play the league page knows the season is not over without its
        # third query (league/selectors.py ``publication``), whatever the size.
        season = season_with_results(coaches=size, played_rounds=max(size // 2, 4), season=SeasonFactory(league=league))
        fixture = Fixture.objects.filter(round__season=season, away__isnull=False).first()
        counts[size] = []
        for url in _public_urls(season, fixture)[1:]:  # the league list grows with leagues, not coaches
            with CaptureQueriesContext(connection) as queries:
                client.get(url)
            counts[size].append(len(queries))
    assert counts[4] == counts[40]
