"""The Big League pages carry the league's navigation,
and the coach's league page shows the campaign links without a stray "·"."""

import re

import pytest
from django.urls import reverse

from campaigns.dealing import phases
from tests.campaigns.factories import make_campaign, user_of

pytestmark = pytest.mark.django_db


def nav(page: str) -> str:
    """The league's tab navigation (templates/league/_season_nav.html)."""
    found = re.search(r'<nav class="league-nav"[^>]*>(.*?)</nav>', page, re.S)
    assert found, "no league navigation on the page"
    return found.group(1)


def test_campaign_table_has_the_league_tabs_and_a_way_back_to_the_league(client, season, organiser):
    """Anonymous and organiser alike: Standings (the league page) and Fixtures are
    links, Big League is the current tab; the organiser also gets the Organiser tab."""
    make_campaign(season, 2, organiser=organiser)
    url = reverse("campaigns:campaign_table", args=["midlands"])
    links = nav(client.get(url).content.decode())
    assert f'href="{reverse("league:league_detail", args=["midlands"])}?season=Season%201">Standings</a>' in links
    assert f'href="{reverse("league:fixtures", args=["midlands"])}?season=Season%201">Fixtures &amp; results</a>' in links
    assert '<strong aria-current="page">Big League</strong>' in links
    assert "Organiser" not in links
    client.force_login(organiser)
    links = nav(client.get(url).content.decode())
    assert reverse("league:organiser_dashboard", args=["midlands"]) in links


def test_coach_and_fixture_campaign_pages_have_the_league_tabs(client, season, organiser):
    """The right coach and the organiser see the league's tabs on a coach's campaign
    page and a match's page, with the Big League tab a link back to the table."""
    a, b = make_campaign(season, 2, organiser=organiser)
    fixture = phases.phase_for(a).next_fixture
    table = reverse("campaigns:campaign_table", args=["midlands"])
    for user in (user_of(a), organiser):
        client.force_login(user)
        for url in (
            reverse("campaigns:coach_page", args=["midlands", a.entry.coach_id]),
            reverse("campaigns:fixture_page", args=["midlands", fixture.pk]),
        ):
            links = nav(client.get(url).content.decode())
            assert f'href="{table}">Big League</a>' in links, url
            assert reverse("league:league_detail", args=["midlands"]) in links, url


def test_no_stray_dot_before_campaign_table_on_a_coachs_league_page(client, season, organiser):
    """The panel on a coach's league page starts with its link, not "·";
    the coach's own page link is added for that coach only."""
    a, b = make_campaign(season, 2, organiser=organiser)
    url = reverse("league:coach_detail", args=["midlands", a.entry.coach_id])
    own = reverse("campaigns:coach_page", args=["midlands", a.entry.coach_id])
    for user in (None, user_of(b), organiser, user_of(a)):
        client.logout()
        if user is not None:
            client.force_login(user)
        page = client.get(url).content.decode()
        assert not re.search(r"(^|>)\s*·\s*<a[^>]*>Campaign table", page, re.M), page
        assert '<p class="muted"><a href="/leagues/midlands/campaign/">Campaign table</a>' in page
        assert (own in page) == (user == user_of(a))
