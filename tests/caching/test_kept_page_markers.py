"""A kept page marks the viewer's own parts (the menu, the CSRF token, the offline
mark, the submission keys, a layer's live panel) and fills them in per request
(league/caching/kept_pages.py). Nothing a user types can read as a marker: a coach,
a team and a league named exactly as the markers once were show as typed on every
kept page, from the kept copy as on the first build."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils.html import escape

from league.caching import kept_pages
from league.text import markers
from league.models import Coach, Entry, Fixture, League
from league.services import results as services
from tests.campaigns.factories import make_campaign, play

pytestmark = pytest.mark.django_db

# What the markers were, as plain words a user could type.
OLD_MARKERS = [
    "keptviewermark0csrf",
    "keptviewermark0user",
    "<!--kept-viewer-nav-->",
    "<!--kept-viewer-idempotency-->",
    "<!--kept-panel:campaigns:my_fixtures-->",
]


@pytest.fixture(params=OLD_MARKERS)
def league_name(request) -> str:
    return request.param


@pytest.fixture
def named(season, organiser, league_name):
    """A Big League season whose league, coaches and teams are named like the old
    markers: round 1 played, a match of round 2 reported and disputed."""
    League.objects.filter(pk=season.league_id).update(name=league_name)
    coaches = make_campaign(season, 6, organiser=organiser, prefix="Marked")
    for cc, name in zip(coaches, OLD_MARKERS):
        Coach.objects.filter(pk=cc.entry.coach_id).update(name=name)
        Entry.objects.filter(pk=cc.entry_id).update(team=name)
    for f in Fixture.objects.filter(round__number=1, round__season=season):
        play(f, winner=f.home.campaign_coach, organiser=organiser)
    waiting = Fixture.objects.filter(round__number=2, round__season=season).order_by("pk").first()
    result = services.report_result(fixture=waiting, by=waiting.home.coach.user, home_score=12, away_score=4)
    services.dispute_result(result=result, by=waiting.away.coach.user, reason="It was 10 to 4")
    return waiting


def _kept(client, url: str) -> str:
    """The page twice: built and kept, then from the kept copy; the two read alike."""
    first = client.get(url)
    assert first.status_code == 200, url
    kept = client.get(url).content.decode()
    for marker in (kept_pages.NAV, kept_pages.USER, kept_pages.CSRF, kept_pages.IDEMPOTENCY, markers.PANEL):
        assert marker not in kept
    return kept


def _shown_as_typed(page: str, names: list[str]) -> None:
    for name in names:
        assert escape(name) in page, name


def test_names_like_the_old_markers_show_as_typed_on_every_kept_page(client, season, organiser, named, league_name):
    slug = season.league.slug
    fixture = named
    home, away = fixture.home.coach, fixture.away.coach
    client.force_login(home.user)

    league_page = _kept(client, reverse("league:league_detail", args=[slug]))
    _shown_as_typed(league_page, [league_name, *OLD_MARKERS])  # the league, each coach in the table
    fixture_page = _kept(client, reverse("league:fixture_detail", args=[fixture.pk]))
    _shown_as_typed(fixture_page, [home.name, away.name])
    me = _kept(client, reverse("league:my_fixtures"))
    _shown_as_typed(me, [league_name, away.name])
    campaign_page = _kept(client, reverse("campaigns:coach_page", args=[slug, home.pk]))
    _shown_as_typed(campaign_page, [home.name])
    for page in (league_page, fixture_page, me, campaign_page):
        # The viewer's menu carries their own name, and each form their own token.
        assert f'title="Your profile">{escape(home.name)}</a>' in page
        assert re.search(r'name="csrfmiddlewaretoken" value="[A-Za-z0-9]{32,}"', page)

    client.force_login(organiser)
    dashboard = _kept(client, reverse("league:organiser_dashboard", args=[slug]))
    _shown_as_typed(dashboard, [league_name, home.name, away.name])


def test_a_marker_is_made_of_a_character_no_text_field_accepts():
    """Every model text field, the site's forms and the import files refuse U+FFFF
    (league/text/plaintext.py), the character each marker starts and ends with."""
    from league.text import plaintext

    for marker in (kept_pages.NAV, kept_pages.USER, kept_pages.CSRF, kept_pages.IDEMPOTENCY, markers.PANEL):
        assert marker.startswith(markers.EDGE)
        assert plaintext.problem(marker) is not None
        assert escape(marker) == marker  # HTML escaping leaves it whole, in text and in an attribute
