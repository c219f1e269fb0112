"""The pages about coaches and games across every league (a profile, a
head-to-head, a game's ratings ranking, leaderboards and records) are kept for
logged-in visitors too (league/caching/pages.py ``coaches_page``, ``game_page``),
apart from the anonymous page, with the viewer's own menu filled in per request:
a warm page costs the session and the versions (two queries), an approved result
shows at once, and two viewers sharing one kept page each see themselves."""

from __future__ import annotations

import re

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from league.caching import kept_pages
from league.ratings import services as ratings
from league.services import results as services
from tests.support.factories import CoachFactory, FixtureFactory, UserFactory

pytestmark = pytest.mark.django_db

KEPT_QUERIES = 2  # the session with its account and coach (league/sessions.py), the versions

PAGES = ["coach_profile", "head_to_head", "ratings", "leaderboards", "records"]


def _url(page: str, fixture) -> str:
    home, away = fixture.home.coach_id, fixture.away.coach_id
    return {
        "coach_profile": reverse("coach_profile", args=[home]),
        "head_to_head": reverse("head_to_head", args=[home, away]),
        "ratings": reverse("ratings:ranking", args=["guildball"]),
        "leaderboards": reverse("league:game_leaderboards", args=["guildball"]),
        "records": reverse("league:game_records", args=["guildball"]),
    }[page]


def _get(client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, url
    page = response.content.decode()
    for marker in (kept_pages.NAV, kept_pages.USER, kept_pages.CSRF, kept_pages.IDEMPOTENCY, kept_pages.PANEL):
        assert marker not in page
    return page


def _tokenless(page: str) -> str:
    """The page without its CSRF tokens (masked afresh on every request)."""
    return re.sub(r'value="[^"]{30,}"', "", page)


def _approved(fixture, organiser, home_score=12, away_score=6):
    with_users = fixture.home.coach.user, fixture.away.coach.user
    result = services.report_result(fixture=fixture, by=with_users[0], home_score=home_score, away_score=away_score)
    result = services.confirm_result(result=result, by=with_users[1])
    return services.approve_result(result=result, by=organiser)


@pytest.fixture
def played(fixture, organiser, django_capture_on_commit_callbacks):
    """Velocity beat Rage in the Midlands league, approved and rated."""
    with django_capture_on_commit_callbacks(execute=True):
        _approved(fixture, organiser)
    ratings.recompute("guildball")
    return fixture


@pytest.mark.parametrize("page", PAGES)
def test_a_logged_in_visitor_s_second_request_is_kept(client, played, organiser, page, django_assert_max_num_queries,
                                                      django_capture_on_commit_callbacks):
    url = _url(page, played)
    viewer = UserFactory(username="onlooker")
    client.force_login(viewer)
    first = _get(client, url)
    with django_assert_max_num_queries(KEPT_QUERIES):
        kept = _get(client, url)
    assert 'title="Your profile">onlooker</a>' in kept
    assert _tokenless(first) == _tokenless(kept)

    # A new result between the same coaches, approved: the page shows it at once.
    later = FixtureFactory(round__season=played.round.season, date=played.date, home=played.home, away=played.away)
    with django_capture_on_commit_callbacks(execute=True):
        _approved(later, organiser, home_score=3, away_score=14)
    after = _tokenless(_get(client, url))
    assert after != _tokenless(kept)
    cache.clear()
    assert after == _tokenless(_get(client, url))  # what the page is built as now
    if page in ("coach_profile", "head_to_head"):
        assert "3–14" in after and "12–6" in after


@pytest.mark.parametrize("page", PAGES)
def test_two_viewers_sharing_a_kept_page_each_see_their_own_menu(played, page, django_assert_max_num_queries):
    """Neither plays in nor organises anything: one kept page for both."""
    url = _url(page, played)
    ann, bob = UserFactory(username="ann"), UserFactory(username="bob")
    CoachFactory(name="Ann Coach", user=ann)
    for user, name, other in ((ann, "Ann Coach", "bob"), (bob, "bob", "Ann Coach")):
        viewer = Client(enforce_csrf_checks=True)
        viewer.force_login(user)
        if user == bob:  # the page Ann's request kept
            with django_assert_max_num_queries(KEPT_QUERIES):
                shown = _get(viewer, url)
        else:
            shown = _get(viewer, url)
        assert f'title="Your profile">{name}</a>' in shown and f">{other}</a>" not in shown
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', shown).group(1)
        assert viewer.post(reverse("logout"), {"csrfmiddlewaretoken": token}).status_code == 302
        assert "_auth_user_id" not in viewer.session


@pytest.mark.parametrize("page", ["coach_profile", "ratings"])
def test_the_anonymous_page_and_the_kept_one_are_apart(client, played, page):
    """The shared anonymous page has no menu of anyone; the logged-in one is never
    handed to an anonymous visitor."""
    url = _url(page, played)
    viewer = UserFactory(username="onlooker")
    logged_in = Client()
    logged_in.force_login(viewer)
    _get(logged_in, url)
    anonymous = _get(client, url)
    assert "onlooker" not in anonymous and "Log in" in anonymous
    assert 'title="Your profile">onlooker</a>' in _get(logged_in, url)


def test_the_coach_s_own_profile_is_the_kept_page_everyone_gets(played, django_assert_max_num_queries):
    """The profile shows its own coach nothing more than anyone else (no link of
    their own): Velocity's own request is served from the page another viewer kept."""
    url = _url("coach_profile", played)
    other = Client()
    other.force_login(UserFactory(username="onlooker"))
    _get(other, url)
    own = Client()
    own.force_login(played.home.coach.user)
    with django_assert_max_num_queries(KEPT_QUERIES):
        page = _get(own, url)
    assert "onlooker" not in page
