"""The organiser's dashboard: what it lists, who may see it, one-click approval of
confirmed results (one or all), the counts on the home page, and a fixed number
of queries at 4 and 40 coaches."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

import re
import uuid

from django.core.cache import cache
from django.test import Client

from campaigns import setup
from campaigns.ledgers import services as ledgers
from campaigns.models import CampaignCoach, CampaignPointLine, MomentUnlock
from league import selectors
from league.web import dashboard
from league.models import Coach, Entry, Fixture, Result, Round, Season
from tests.support.builders import season_with_results
from tests.campaigns.factories import make_campaign
from tests.support.factories import (
    CoachFactory, EntryFactory, FixtureFactory, LeagueFactory, ResultFactory, SeasonFactory, UserFactory,
)

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
    """At most 12 queries, the same at 4 and 40 coaches, whether the
    dashboard's body is computed (cold) or kept (warm)."""
    client.force_login(organiser)
    counts = []
    for size in (4, 40):
        league = _sized(organiser, size)
        dash = reverse("league:organiser_dashboard", args=[league.slug])
        cache.clear()
        with django_assert_max_num_queries(12):
            cold = _count(client, dash, django_assert_max_num_queries)
        with django_assert_max_num_queries(12):
            warm = _count(client, dash, django_assert_max_num_queries)
        listing = _count(client, dash + "?list=disputed", django_assert_max_num_queries)
        home = _count(client, reverse("league:league_list"), django_assert_max_num_queries)
        coaches = _count(client, reverse("league:organiser_coaches", args=[league.slug]), django_assert_max_num_queries)
        counts.append((cold, warm, listing, home, coaches))
    assert counts[0] == counts[1], counts
    assert counts[0][1] < counts[0][0]  # kept: only the request's own reads


# Bounded size -------------------------------------------------------------------


def _big_league(organiser, coaches: int, *, rounds: int = 6):
    """A Big League season of ``coaches`` built in bulk: ``rounds`` rounds in the
    past, every match with a result that waits (confirmed, disputed, reported long
    ago) or none (overdue), and ten unconfirmed Moments per coach (GB-13)."""
    league = LeagueFactory(slug=f"big-{coaches}", organisers=[organiser])
    season = SeasonFactory(league=league, name="Big", start_date=timezone.localdate() - datetime.timedelta(days=70))
    made = Coach.objects.bulk_create(Coach(name=f"Coach {i:04d}") for i in range(coaches))
    entries = Entry.objects.bulk_create(Entry(season=season, coach=coach, team="Brewer's") for coach in made)
    round_rows = Round.objects.bulk_create(
        Round(season=season, number=n, date=season.start_date + datetime.timedelta(days=7 * (n - 1)))
        for n in range(1, rounds + 1))
    fixtures = Fixture.objects.bulk_create(
        Fixture(round=rnd, home=entries[i], away=entries[(i + rnd.number) % coaches], date=rnd.date)
        for rnd in round_rows for i in range(0, coaches, 2))
    long_ago = timezone.now() - datetime.timedelta(days=5)
    statuses = (Result.Status.CONFIRMED, Result.Status.DISPUTED, Result.Status.REPORTED, None)
    Result.objects.bulk_create(
        Result(fixture=f, home_score=12, away_score=3, outcome="home", summary="12 – 3", status=statuses[i % 4],
               reported_side="home", reported_at=long_ago, dispute_reason="Wrong VP" if i % 4 == 1 else "")
        for i, f in enumerate(fixtures) if statuses[i % 4] is not None)
    campaign = setup.ensure_campaign(season)
    places = list(CampaignCoach.objects.filter(campaign=campaign))
    CampaignPointLine.objects.bulk_create(
        CampaignPointLine(coach=cc, amount=500, kind="adjustment", reason="bulk") for cc in places)
    MomentUnlock.objects.bulk_create(
        MomentUnlock(coach=cc, threshold=10 * n, name=f"Moment {n}", unlocks="guild") for cc in places for n in range(1, 11))
    Season.objects.filter(pk=season.pk).update(version=uuid.uuid4())  # bulk writes send no signals
    return league, season


def test_the_dashboard_stays_small_at_400_coaches(client, organiser):
    """1,200 matches wait and 4,000 Moments: the dashboard shows the first
    lines of each with their numbers and pages the rest, under 150 KB."""
    league, season = _big_league(organiser, 400)
    client.force_login(organiser)
    url = reverse("league:organiser_dashboard", args=[league.slug])
    page = client.get(url)
    text = page.content.decode()
    assert len(page.content) < 150_000, len(page.content)
    assert '<h2>Moments to confirm <span class="count">4000</span>' in text
    assert "Approve all 300" in text and "See all 300" in text
    assert text.count('name="result"') == dashboard.FIRST  # one-click approval for the first lines only
    assert '?moments=2#moments-to-confirm' in text
    more = client.get(url, {"list": "disputed", "page": 2}).content.decode()
    assert "Page 2 of 6" in more and len(more) < 150_000
    moments = client.get(url, {"moments": 400}).content.decode()
    assert "Moments 3991–4000 of 4000" in moments


# Never stale (the body is kept per version of the season) ------------------------------


def test_the_kept_dashboard_follows_every_write(client, organiser, board, season):
    client.force_login(organiser)
    url = reverse("league:organiser_dashboard", args=[season.league.slug])
    assert '<span class="count">1</span></h2>' in client.get(url).content.decode().split('id="to-approve"')[1][:200]
    client.post(reverse("league:dashboard_approve", args=[season.league.slug]), {"result": board["confirmed"].pk})
    page = client.get(url).content.decode()
    assert '<span class="count">0</span></h2>' in page.split('id="to-approve"')[1][:200]
    # A second organiser sees the kept body with their own CSRF token in its forms.
    other = UserFactory(username="second")
    season.league.organisers.add(other)
    second = Client(enforce_csrf_checks=True)
    second.force_login(other)
    body = second.get(url).content.decode().split('id="disputed"')[1]
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', body).group(1)  # in the kept body
    response = second.post(reverse("league:settle_dispute", args=[board["disputed"].fixture.pk]),
                           {"csrfmiddlewaretoken": token, "accept": "reported", "back": "dashboard"})
    assert response.status_code == 302
    board["disputed"].refresh_from_db()
    assert board["disputed"].status == Result.Status.APPROVED


def test_a_report_turning_stale_is_not_kept_past_that_moment(organiser, season):
    """A report made two days ago becomes "unconfirmed for three days" in a day:
    the kept numbers last no longer than that."""
    fixture = FixtureFactory(round__season=season, date=timezone.localdate() - datetime.timedelta(days=2))
    ResultFactory(fixture=fixture, status=Result.Status.REPORTED, reported_side="home",
                  reported_at=timezone.now() - datetime.timedelta(days=2))
    counts, _, seconds = dashboard.board(season.league, selectors.season_for(season.league))
    assert counts.stale == 0 and 0 < seconds <= 24 * 3600


def test_confirming_a_moment_shows_at_once(client, organiser, season):
    cc = make_campaign(season, 2, organiser=organiser)[0]
    ledgers.adjust(coach=cc, ledger="cp", amount=60, reason="test", by=organiser)
    client.force_login(organiser)
    url = reverse("league:organiser_dashboard", args=[season.league.slug])
    before = client.get(url).content.decode()
    waiting = MomentUnlock.objects.filter(coach=cc, confirmed_at__isnull=True, threshold__gt=0)
    n = waiting.count()
    assert f'Moments to confirm <span class="count">{n}</span>' in before
    client.post(reverse("campaigns:confirm_unlock", args=[season.league.slug, waiting.first().pk]), {"next": url})
    assert f'Moments to confirm <span class="count">{n - 1}</span>' in client.get(url).content.decode()


def test_the_kept_dashboard_page_lives_no_longer_than_what_it_says(client, organiser, board, season, monkeypatch):
    """The whole page is kept (league/caching/kept_pages.py) with the body's time limit: a
    report unconfirmed for days ticks ("reported 4 days ago"), so a minute at most."""
    from league.caching import kept_pages

    stored = {}

    class Recording:
        def get(self, key, default=None):
            return kept_pages_cache.get(key, default)

        def set(self, key, value, timeout=None, **kwargs):
            stored[key] = timeout
            kept_pages_cache.set(key, value, timeout=timeout)

    kept_pages_cache = kept_pages.cache
    monkeypatch.setattr(kept_pages, "cache", Recording())
    client.force_login(organiser)
    url = reverse("league:organiser_dashboard", args=[season.league.slug])
    first = client.get(url).content.decode()
    assert client.get(url).content.decode().split('id="disputed"')[1][:300] == first.split('id="disputed"')[1][:300]
    (key, timeout), = ((key, timeout) for key, timeout in stored.items() if key.startswith("kept:organiser_dashboard:"))
    assert 0 < timeout <= dashboard.TICKING_SECONDS
