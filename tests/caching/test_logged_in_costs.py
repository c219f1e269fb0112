"""A logged-in page costs what an anonymous one does plus what is
the viewer's own: the same number of queries, at most 12, at 4 coaches and at
40; and pages stay bounded in size at 400 coaches."""

from __future__ import annotations

import datetime

import pytest
from django.db import connection
from django.db.models import Q
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from league.web import charts
from league.caching import versions
from league.models import Coach, Entry, Fixture, Result, Round, Season
from league.permissions import make_organiser
from tests.support.builders import season_with_results
from tests.support.factories import LeagueFactory, SeasonFactory, UserFactory
from tests.support.world import rolled_back

pytestmark = pytest.mark.django_db

BOUND = 12


def _sized(organiser, size: int, name: str = "size"):
    league = LeagueFactory(slug=f"{name}-{size}", organisers=[organiser])
    season = season_with_results(coaches=size, played_rounds=size // 2, season=SeasonFactory(league=league))
    pending = Fixture.objects.filter(round__season=season, result__isnull=True, away__isnull=False).order_by("pk").first()
    Result.objects.create(fixture=pending, home_score=12, away_score=1, outcome="home", summary="12 – 1",
                          reported_side="home")
    coach = pending.home.coach
    coach.user = UserFactory(username=f"home-{name}-{size}")
    coach.save()
    return season, pending, coach


def _pages(season, fixture, coach) -> list[str]:
    slug = season.league.slug
    return [
        reverse("league:league_detail", args=[slug]),
        reverse("league:league_detail", args=[slug]) + f"?follow={fixture.away_id}",
        reverse("league:fixture_detail", args=[fixture.pk]),
        reverse("league:my_fixtures"),
        reverse("league:coach_detail", args=[slug, coach.pk]),
        reverse("league:fixtures", args=[slug]),
    ]


@pytest.fixture(scope="module")
def both_sizes(django_db_setup, django_db_blocker):
    """A league of 4 and one of 40 coaches, each with a pending result and its
    reporting coach's login, and their organiser: built once for the tests that
    only read them."""
    with rolled_back(django_db_blocker):
        organiser = UserFactory(username="both-sizes-organiser")
        make_organiser(organiser)
        yield organiser, {size: _sized(organiser, size, name="both") for size in (4, 40)}


@pytest.mark.parametrize("who", ["coach", "organiser"])
def test_logged_in_pages_cost_the_same_few_queries_at_4_and_40_coaches(client, both_sizes, who):
    organiser, leagues = both_sizes
    counts = {}
    for size in (4, 40):
        season, fixture, coach = leagues[size]
        client.force_login(coach.user if who == "coach" else organiser)
        counts[size] = []
        for url in _pages(season, fixture, coach):
            assert client.get(url).status_code == 200, url  # cold: builds the shared fragments
            with CaptureQueriesContext(connection) as queries:
                response = client.get(url)
            assert response.status_code == 200, url
            assert len(queries) <= BOUND, (url, [q["sql"][:120] for q in queries.captured_queries])
            counts[size].append(len(queries))
    assert counts[4] == counts[40], counts


def test_the_coachs_own_line_and_a_followed_one_are_drawn_and_never_stale(client, organiser):
    """The logged-in coach's line is among the chart's lines (their own, cached per
    version like the rest); a line picked with ?follow= too; an approval shows at once."""
    season, fixture, coach = _sized(organiser, 40)
    slug = season.league.slug
    client.force_login(coach.user)
    page = client.get(reverse("league:league_detail", args=[slug])).content.decode()
    assert page.count("<polyline") <= charts.CHART_TOP + 1
    assert f'data-name="{coach.name}"' in page
    assert 'label for="follow-select"' in page
    other = Entry.objects.filter(season=season).exclude(coach=coach).select_related("coach").last()
    followed = client.get(reverse("league:league_detail", args=[slug]), {"follow": other.pk}).content.decode()
    assert f'data-name="{other.coach.name}"' in followed
    assert f'<option value="{other.pk}" selected>' in followed
    coach_page = client.get(reverse("league:coach_detail", args=[slug, coach.pk])).content.decode()
    assert f'data-name="{coach.name}"' in coach_page

    before = client.get(reverse("league:league_detail", args=[slug])).content
    result = Result.objects.get(fixture=fixture)
    result.status = Result.Status.APPROVED
    result.approved_at = timezone.now()
    result.save()  # tracked: a new version of the season
    lp = next(row["lp"] for row in client.get(reverse("league:standings_json", args=[slug])).json()["standings"]
              if row["coach"] == coach.name)
    coach_page = client.get(reverse("league:coach_detail", args=[slug, coach.pk])).content.decode()
    assert f"<strong>{lp} LP</strong>" in coach_page
    # The approved match's own line (other results may read "12 – 1" too: find this one's).
    line = coach_page[coach_page.index(f'<a href="{fixture.get_absolute_url()}"'):]
    assert "<strong>12 – 1</strong>" in line[:line.index("</a>")]
    assert client.get(reverse("league:league_detail", args=[slug])).content != before


def _big_league(size: int, rounds: int) -> Season:
    """``size`` coaches, ``rounds`` rounds of a round robin played, inserted in bulk
    (the pages are measured, not the services)."""
    league = LeagueFactory(slug="big")
    season = SeasonFactory(league=league, start_date=timezone.localdate() - datetime.timedelta(days=7 * rounds))
    coaches = Coach.objects.bulk_create(Coach(name=f"Coach {i:04d}") for i in range(size))
    entries = Entry.objects.bulk_create(Entry(season=season, coach=c, team="Brewer's") for c in coaches)
    made = Round.objects.bulk_create(
        Round(season=season, number=n, date=season.start_date + datetime.timedelta(days=7 * (n - 1)))
        for n in range(1, rounds + 2)
    )
    fixtures = []
    ring = entries[1:]
    for r in made:  # the circle method: each round pairs every entry once
        line = [entries[0], *ring]
        fixtures += [Fixture(round=r, home=line[i], away=line[-1 - i], date=r.date) for i in range(size // 2)]
        ring = ring[-1:] + ring[:-1]
    fixtures = Fixture.objects.bulk_create(fixtures, batch_size=2000)
    now = timezone.now()
    Result.objects.bulk_create(
        (Result(fixture=f, home_score=12, away_score=f.pk % 12, outcome="home", summary="", status=Result.Status.APPROVED,
                approved_at=now) for f in fixtures if f.round_id != made[-1].pk),
        batch_size=2000,
    )
    versions.bump(Q(pk=season.pk))  # bulk writes send no signals
    return Season.objects.select_related("league").get(pk=season.pk)


def test_pages_are_bounded_in_size_at_400_coaches(client):
    """The league page (any page of its table, any line followed) and a
    coach's page stay under 300 KB at 400 coaches and 130 rounds played."""
    season = _big_league(400, 130)
    slug = season.league.slug
    entry = season.entries.order_by("pk").last()
    urls = [
        reverse("league:league_detail", args=[slug]),
        reverse("league:league_detail", args=[slug]) + "?page=4",
        reverse("league:league_detail", args=[slug]) + f"?follow={entry.pk}",
        reverse("league:coach_detail", args=[slug, entry.coach_id]),
        reverse("league:coach_detail", args=[slug, entry.coach_id]) + "?page=3",
    ]
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, url
        assert len(response.content) <= 300_000, (url, len(response.content))
    page = client.get(urls[0]).content.decode()
    assert page.count("<polyline") == charts.CHART_TOP
    assert "Coach 0399" in client.get(urls[2]).content.decode().split("<svg", 1)[1]
