"""The league-page panel tag: title race, then the fixed titles after Final Day."""

import pytest
from django.template import Context, Template

from campaigns import services
from league.models import Fixture
from tests.campaigns.factories import make_campaign, play

pytestmark = pytest.mark.django_db

PANEL = Template("{% load campaign_tags %}{% campaign_panel season %}")


def test_panel_shows_race_then_fixed_titles(season, organiser):
    assert "Campaign table" in PANEL.render(Context({"season": season}))
    a, b = make_campaign(season, 2, organiser=organiser)
    play(Fixture.objects.get(round__season=season), winner=a, organiser=organiser)
    html = PANEL.render(Context({"season": season}))
    assert "Title race" in html and f"League Champion</strong>: {a.name}" in html
    services.declare_final_day(campaign=a.campaign, by=organiser)
    html = PANEL.render(Context({"season": season}))
    assert "Titles fixed on Final Day" in html and f"League Champion</strong>: {a.name}" in html
    assert "Master Strategos</strong>: <span class=\"muted\">not awarded" in html
