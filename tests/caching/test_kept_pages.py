"""Logged-in pages kept per version (league/caching/kept_pages.py). A kept page
costs two queries: the session with its account, and the versions; the viewer's own parts
(the menu, the CSRF token, the submission keys) are theirs, never the viewer's
the page was first built for; every write shows at once; a waiting message is
shown, never a kept page without it."""

from __future__ import annotations

import re

import pytest
from django.contrib.messages import constants
from django.contrib.messages.storage.cookie import CookieStorage
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from league import layers
from league.caching import kept_pages
from league.models import Result
from tests.support.factories import CoachFactory, EntryFactory, FixtureFactory, LeagueFactory, SeasonFactory, UserFactory

pytestmark = pytest.mark.django_db

KEPT_QUERIES = 2  # the session with its account and coach (league/sessions.py), the versions


def _get(client, url):
    response = client.get(url)
    assert response.status_code == 200, url
    return response.content.decode()


def _queries(client, url) -> int:
    with CaptureQueriesContext(connection) as queries:
        _get(client, url)
    return len(queries)


def _no_markers(page: str) -> None:
    for marker in (kept_pages.NAV, kept_pages.USER, kept_pages.CSRF, kept_pages.IDEMPOTENCY, kept_pages.PANEL):
        assert marker not in page


@pytest.mark.parametrize("page", ["league", "me"])
def test_a_kept_page_costs_two_queries_and_shows_each_viewer_their_own_menu(client, season, fixture, home_user,
                                                                           organiser, page):
    url = reverse("league:league_detail", args=[season.league.slug]) if page == "league" else reverse(
        "league:my_fixtures")
    client.force_login(home_user)
    first = _get(client, url)
    assert _queries(client, url) == KEPT_QUERIES
    kept = _get(client, url)
    _no_markers(kept)
    assert "Velocity" in kept and re.sub(r'value="[^"]{30,}"', "", first) == re.sub(r'value="[^"]{30,}"', "", kept)

    # Two viewers whose pages share a key (neither entered, neither organising):
    # each gets their own name and a log-out form their own session accepts.
    a, b = UserFactory(username="ann"), UserFactory(username="bob")
    CoachFactory(name="Ann Coach", user=a)
    for user, name, other in ((a, "Ann Coach", "bob"), (b, "bob", "Ann Coach")):
        viewer = Client(enforce_csrf_checks=True)
        viewer.force_login(user)
        shown = _get(viewer, url)
        _no_markers(shown)
        assert f'title="Your profile">{name}</a>' in shown and f">{other}</a>" not in shown
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', shown).group(1)
        assert viewer.post(reverse("logout"), {"csrfmiddlewaretoken": token}).status_code == 302
        assert "_auth_user_id" not in viewer.session

    # The organiser: their own link to the dashboard on the league page.
    client.force_login(organiser)
    mine = _get(client, url)
    if page == "league":
        assert reverse("league:organiser_dashboard", args=[season.league.slug]) in mine
    else:
        assert "Waiting on you as organiser" not in mine  # nothing reported yet


def test_a_kept_page_is_never_stale(client, season, fixture, home_user, away_user, organiser):
    me, league_page = reverse("league:my_fixtures"), reverse("league:league_detail", args=[season.league.slug])
    client.force_login(home_user)
    assert "Report:" in _get(client, me)
    _get(client, league_page)
    Result.objects.create(fixture=fixture, home_score=12, away_score=4, outcome="home", summary="12 – 4",
                          reported_side="home")
    home = _get(client, me)
    assert "Report:" not in home and "Waiting on others" in home
    client.force_login(away_user)
    assert "Confirm or dispute:" in _get(client, me)
    client.force_login(organiser)
    assert "Waiting on you as organiser" in _get(client, me)  # a league they organise
    result = Result.objects.get(fixture=fixture)
    result.status, result.approved_at = Result.Status.APPROVED, timezone.now()
    result.save()
    client.force_login(home_user)
    assert "Recent results" in _get(client, me)
    assert "12 – 4" in _get(client, league_page)
    # Entered in another league's season: its versions join the key at once.
    other = SeasonFactory(league=LeagueFactory(name="Another League", slug="another"), name="Winter")
    FixtureFactory(round__season=other, date=other.start_date, home=EntryFactory(season=other, coach=home_user.coach),
                   away__coach__name="Stranger")
    assert "Stranger" in _get(client, me)
    # A new organiser of that league: its queue is theirs at once.
    other.league.organisers.add(home_user)
    assert reverse("league:organiser_dashboard", args=["another"]) in _get(
        client, reverse("league:league_detail", args=["another"]))


def test_a_waiting_message_is_shown_not_a_kept_page(client, season, fixture, home_user):
    url = reverse("league:league_detail", args=[season.league.slug])
    client.force_login(home_user)
    _get(client, url)
    _get(client, url)  # kept
    storage = CookieStorage(type("Request", (), {"COOKIES": {}})())
    storage.add(constants.SUCCESS, "Result reported.")
    response = type("Response", (), {"cookies": {}, "set_cookie": lambda self, name, value, **kw: self.cookies.update(
        {name: value}), "delete_cookie": lambda self, *a, **kw: None})()
    storage.update(response)
    client.cookies["messages"] = response.cookies["messages"]
    assert "Result reported." in _get(client, url)
    assert "Result reported." not in _get(client, url)  # shown once


def test_a_result_form_on_a_kept_page_gets_a_fresh_key_per_request(client, season, fixture, home_user):
    """The fixture page's report form (league/web/idempotency.py): a key per render."""
    from league.web import idempotency

    client.force_login(home_user)
    url = reverse("league:fixture_detail", args=[fixture.pk])
    keys = set()
    for _ in range(3):
        page = _get(client, url)
        _no_markers(page)
        keys.update(re.findall(rf'name="{idempotency.FIELD}" value="([^"]+)"', page))
    assert len(keys) >= 3


def test_a_layer_panel_that_is_not_kept_is_rendered_for_each_request(client, organiser):
    """The Dungeon Bowl steps on /me/ read rows no version tracks (a player's SPP):
    rendered per request into the kept page (league/layers.py ``kept_panels``)."""
    from league.dungeonbowl.models import Player, Team
    from tests.dungeonbowl.builders import db_season

    db_season(organiser, teams=4)
    team = Team.objects.get(name="Team 01")
    client.force_login(team.coach.user)
    url = reverse("league:my_fixtures")
    _get(client, url)
    assert _queries(client, url) > KEPT_QUERIES  # the panel's own queries, per request
    assert "Advance:" not in _get(client, url)
    Player.objects.filter(team=team).update(spp=9)  # no signal, no new version
    page = _get(client, url)
    _no_markers(page)
    assert "Advance:" in page and "has 9 SPP" in page


def test_a_kept_page_is_cut_at_its_markers_once_and_filled_in_one_pass(rf):
    """``pieces`` cuts a page at every marker when it is kept; ``fill`` gives the
    same page from the pieces as from the text: the viewer's menu with this
    request's token, the token in each form, a fresh submission key per form, the
    offline mark, and a live panel, whose own markers are filled too."""
    user = UserFactory(username="kept-fill")
    request = rf.get("/")
    request.user = user
    page = (f"<nav>{kept_pages.NAV}</nav><form>{kept_pages.CSRF}{kept_pages.IDEMPOTENCY}</form>"
            f"<form>{kept_pages.CSRF}{kept_pages.IDEMPOTENCY}</form><p>{kept_pages.USER}</p>"
            f"{layers.panel_marker('campaigns', 'my_fixtures')}<p>end</p>")
    panels = lambda layer, name: f"<i>{layer}/{name} {kept_pages.CSRF}</i>"  # noqa: E731
    parts = kept_pages.pieces(page)
    assert parts[1::2] == [kept_pages.NAV, kept_pages.CSRF, kept_pages.IDEMPOTENCY, kept_pages.CSRF,
                           kept_pages.IDEMPOTENCY, kept_pages.USER, layers.panel_marker("campaigns", "my_fixtures")]
    assert "".join(parts) == page
    html = kept_pages.fill(request, parts, panels)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)
    assert "kept" not in html.replace("kept-fill", "") and html.endswith("<p>end</p>")
    assert html.count(token) == 4 and f"<i>campaigns/my_fixtures {token}</i>" in html  # nav, two forms, the panel
    keys = re.findall(r'name="idempotency_key" value="([^"]+)"', html)
    assert len(keys) == 2 and keys[0] != keys[1]
    assert kept_pages.offline_mark(request) in html and "kept-fill" in html
    text = kept_pages.fill(request, page, panels)

    def tokens_out(html: str) -> str:
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)
        return re.sub(r'value="[^"]+"', "", html.replace(token, "TOKEN"))

    assert tokens_out(text) == tokens_out(html)
