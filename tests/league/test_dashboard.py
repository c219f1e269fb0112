"""The organiser's dashboard: what it lists, who may see it, one-click approval of
confirmed results (one or all), the counts on the home page, and a fixed number
of queries at 4 and 40 coaches."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from league import dashboard
from league.models import Fixture, Result
from tests.builders import season_with_results
from tests.factories import CoachFactory, EntryFactory, FixtureFactory, LeagueFactory, ResultFactory, SeasonFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def board(season):
    """One of each: confirmed, disputed, reported long ago, reported today, overdue,
    a future fixture and an approved result."""
    today = timezone.localdate()
    past = today - datetime.timedelta(days=10)

    def fixture(home, away, date):
        return FixtureFactory(round__season=season, home__coach__name=home, away__coach__name=away, date=date)

    made = {
        "confirmed": ResultFactory(fixture=fixture("Ann", "Bob", past), status=Result.Status.CONFIRMED),
        "disputed": ResultFactory(
            fixture=fixture("Cat", "Dan", past), status=Result.Status.DISPUTED, dispute_reason="Wrong VP"
        ),
        "stale": ResultFactory(
            fixture=fixture("Eve", "Fay", past), status=Result.Status.REPORTED, reported_side="home",
            reported_at=timezone.now() - datetime.timedelta(days=4),
        ),
        "fresh": ResultFactory(
            fixture=fixture("Gus", "Hal", past), status=Result.Status.REPORTED, reported_side="home",
            reported_at=timezone.now() - datetime.timedelta(hours=5),
        ),
        "approved": ResultFactory(
            fixture=fixture("Ivy", "Jon", past), status=Result.Status.APPROVED, approved_at=timezone.now()
        ),
    }
    made["overdue"] = fixture("Kim", "Lou", past)
    made["future"] = fixture("Max", "Ned", today + datetime.timedelta(days=3))
    return made


def test_queue_sorts_what_waits_on_the_organiser(board, season):
    found = dashboard.queue(season)
    assert found.to_approve == [board["confirmed"]]
    assert found.disputed == [board["disputed"]]
    assert found.stale == [board["stale"]]
    assert found.overdue == [board["overdue"]]
    assert found.total == 4


def test_dashboard_shows_each_list(client, organiser, board, season):
    client.force_login(organiser)
    page = client.get(reverse("league:organiser_dashboard", args=[season.league.slug])).content.decode()
    for name in ("Ann", "Cat", "Eve", "Kim"):
        assert name in page
    for name in ("Gus", "Ivy", "Max"):  # fresh report, approved result, future fixture: nothing to do
        assert name not in page
    assert "Wrong VP" in page
    # One-click approval is offered for the confirmed result only.
    assert page.count('name="result"') == 1
    assert f'value="{board["confirmed"].pk}"' in page


@pytest.mark.parametrize("role", ["anonymous", "coach", "other organiser"])
def test_dashboard_is_for_the_leagues_organisers_only(client, role, board, season, other_organiser):
    url = reverse("league:organiser_dashboard", args=[season.league.slug])
    approve = reverse("league:dashboard_approve", args=[season.league.slug])
    if role == "coach":
        client.force_login(board["confirmed"].fixture.home.coach.user)
    elif role == "other organiser":
        client.force_login(other_organiser)
    get, post = client.get(url), client.post(approve, {"all": "1"})
    if role == "anonymous":
        assert get.status_code == post.status_code == 302 and reverse("login") in get["Location"]
    else:
        assert get.status_code == post.status_code == 403
    board["confirmed"].refresh_from_db()
    assert board["confirmed"].status == Result.Status.CONFIRMED


def test_dashboard_404_for_an_unknown_league(client, organiser):
    client.force_login(organiser)
    assert client.get(reverse("league:organiser_dashboard", args=["nope"])).status_code == 404


def test_approve_one_confirmed_result(client, organiser, board, season):
    client.force_login(organiser)
    url = reverse("league:dashboard_approve", args=[season.league.slug])
    response = client.post(url, {"result": board["confirmed"].pk})
    assert response.status_code == 302 and response["Location"] == reverse("league:organiser_dashboard", args=[season.league.slug])
    board["confirmed"].refresh_from_db()
    assert board["confirmed"].status == Result.Status.APPROVED
    assert "Approved 1 result" in client.get(response["Location"]).content.decode()


@pytest.mark.parametrize("key", ["disputed", "stale", "fresh"])
def test_one_click_never_approves_what_a_coach_has_not_agreed(client, organiser, board, season, key):
    client.force_login(organiser)
    response = client.post(reverse("league:dashboard_approve", args=[season.league.slug]), {"result": board[key].pk}, follow=True)
    assert "no longer waiting for approval" in response.content.decode()
    board[key].refresh_from_db()
    assert board[key].status != Result.Status.APPROVED


def test_approve_all_approves_every_confirmed_result_and_only_those(client, organiser, board, season):
    second = ResultFactory(
        fixture=FixtureFactory(round__season=season, home__coach__name="Oto", away__coach__name="Pia"),
        status=Result.Status.CONFIRMED,
    )
    client.force_login(organiser)
    page = client.get(reverse("league:organiser_dashboard", args=[season.league.slug])).content.decode()
    assert "Approve all 2" in page
    client.post(reverse("league:dashboard_approve", args=[season.league.slug]), {"all": "1"})
    statuses = dict(Result.objects.values_list("pk", "status"))
    assert statuses[board["confirmed"].pk] == statuses[second.pk] == Result.Status.APPROVED
    assert statuses[board["disputed"].pk] == Result.Status.DISPUTED
    assert statuses[board["stale"].pk] == statuses[board["fresh"].pk] == Result.Status.REPORTED


def test_a_get_of_the_approve_address_goes_back_to_the_dashboard(client, organiser, board, season):
    client.force_login(organiser)
    response = client.get(reverse("league:dashboard_approve", args=[season.league.slug]))
    assert response.status_code == 302
    board["confirmed"].refresh_from_db()
    assert board["confirmed"].status == Result.Status.CONFIRMED


def test_home_page_counts_for_the_organiser_only(client, organiser, board, season):
    client.force_login(organiser)
    page = client.get(reverse("league:league_list")).content.decode()
    assert "4 to do" in page and "1 to approve" in page and "1 disputed" in page and "1 overdue" in page
    client.force_login(board["confirmed"].fixture.home.coach.user)
    page = client.get(reverse("league:league_list")).content.decode()
    assert "to do" not in page and "Waiting on you" not in page


def test_counts_match_the_queue(board, season, organiser):
    season.league.current = season
    counts = dashboard.counts_for([season.league], organiser)[season.league.pk]
    assert (counts.to_approve, counts.disputed, counts.stale, counts.overdue) == (1, 1, 1, 1)
    assert dashboard.counts_for([season.league], CoachFactory().user) == {}


# Query counts ---------------------------------------------------------------------------


def _sized(organiser, coaches: int):
    league = LeagueFactory(slug=f"sized-{coaches}", organisers=[organiser])
    season = season_with_results(
        coaches=coaches, played_rounds=coaches // 4, season=SeasonFactory(league=league, start_date=datetime.date(2020, 1, 6))
    )
    unplayed = list(Fixture.objects.filter(round__season=season, result__isnull=True, away__isnull=False)[:3])
    Result.objects.create(fixture=unplayed[0], home_score=12, away_score=1, outcome="home", summary="12 – 1", status="confirmed")
    Result.objects.create(fixture=unplayed[1], home_score=12, away_score=2, outcome="home", summary="12 – 2", status="disputed")
    return league


def _count(client, url, django_assert_max_num_queries) -> int:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return len(captured)


def test_dashboard_and_home_page_queries_do_not_grow_with_the_league(client, organiser, django_assert_max_num_queries):
    client.force_login(organiser)
    counts = []
    for size in (4, 40):
        league = _sized(organiser, size)
        dash = _count(client, reverse("league:organiser_dashboard", args=[league.slug]), django_assert_max_num_queries)
        home = _count(client, reverse("league:league_list"), django_assert_max_num_queries)
        coaches = _count(client, reverse("league:organiser_coaches", args=[league.slug]), django_assert_max_num_queries)
        counts.append((dash, home, coaches))
    assert counts[0] == counts[1], counts
    assert counts[0][0] <= 20  # the league, its season, two queue queries, the Big League panel
