"""The panels the Big League adds to engine pages (``league.layers``): the league
page's title race, then the fixed titles after Final Day."""

import pytest
from django.template import Context, Template

from campaigns import titles
from league.models import Fixture, Season
from tests.campaigns.factories import make_campaign, play

pytestmark = pytest.mark.django_db

PANEL = Template('{% load layer_tags %}{% layer_panels "league_detail" %}')


def render(season) -> str:
    """As the league page does: the season read afresh, with its current version."""
    season = Season.objects.select_related("league").get(pk=season.pk)
    return PANEL.render(Context({"league": season.league, "season": season}))


def test_panel_shows_race_then_fixed_titles(season, organiser):
    assert "Campaign table" in render(season)
    a, b = make_campaign(season, 2, organiser=organiser)
    play(Fixture.objects.get(round__season=season), winner=a, organiser=organiser)
    html = render(season)
    assert "Title race" in html and f"League Champion</strong>: {a.name}" in html
    titles.declare_final_day(campaign=a.campaign, by=organiser)
    html = render(season)
    assert "Titles fixed on Final Day" in html and f"League Champion</strong>: {a.name}" in html
    assert "Master Strategos</strong>: <span class=\"muted\">not awarded" in html
