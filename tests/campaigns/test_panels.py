"""The panels the Big League adds to engine pages (``league.layers``): the league
page's title race, then the fixed titles after Final Day."""

import pytest
from django.template import Context, Template

from campaigns.finalday import services as titles
from league.models import Fixture, Season
from tests.campaigns.factories import fixture_between, make_campaign, play

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


def test_the_league_page_shows_a_new_title_race_at_once(client, season, organiser):
    """The panel is part of the league page's cached body: a CP adjustment, a spend
    and the Final Day each give the season a new version (league/caching/versions.py)."""
    from django.urls import reverse

    from campaigns.ledgers import services as ledgers

    a, b = make_campaign(season, 2, organiser=organiser)
    url = reverse("league:league_detail", args=[season.league.slug])
    assert "Master Strategos</strong>: <span class=\"muted\">nobody yet" in client.get(url).content.decode()
    ledgers.adjust(coach=b, ledger="cp", amount=15, reason="painted the whole team", by=organiser)
    assert f"Master Strategos</strong>: {b.name}" in client.get(url).content.decode()
    play(Fixture.objects.get(round__season=season), winner=a, organiser=organiser)
    titles.declare_final_day(campaign=a.campaign, by=organiser)
    assert "Titles fixed on Final Day" in client.get(url).content.decode()


def test_the_fixture_page_shows_the_big_league_link_once(client, season, organiser):
    """Each layer's fixture panel is rendered once on the fixture page."""
    from django.urls import reverse

    make_campaign(season, 2, organiser=organiser)
    fixture = Fixture.objects.get(round__season=season)
    html = client.get(reverse("league:fixture_detail", args=[fixture.pk])).content.decode()
    assert html.count("The Big League for this match") == 1


def test_the_panels_title_race_is_the_campaign_tables(season, organiser):
    """GB-3: the league page's panel reads only the figures the titles need
    (``title_race_of``); it names the same holders with the same figures
    as the race the campaign table gives, for a leader, a CP tie, a spender, and a
    coach who joined after the campaign's rows were written (no row yet)."""
    from campaigns.ledgers import services as ledgers
    from campaigns import selectors
    from campaigns.models import FavourLine, LineKind
    from league.models import Coach
    from league.models import Entry
    from league.standings.season import standings_for

    a, b, c = make_campaign(season, 3, organiser=organiser)
    play(fixture_between(a, b), winner=b, organiser=organiser)
    ledgers.adjust(coach=a, ledger="cp", amount=4, reason="painted", by=organiser)
    ledgers.adjust(coach=c, ledger="cp", amount=4, reason="painted", by=organiser)
    ledgers.adjust(coach=c, ledger="favours", amount=5, reason="prize", by=organiser)
    FavourLine.objects.create(coach=c, amount=-2, phase=1, kind=LineKind.ADVANCEMENT, reason="an advancement")
    Entry.objects.create(season=season, coach=Coach.objects.create(name="Late Coach"), team="Masons")
    season = Season.objects.select_related("league").get(pk=season.pk)
    campaign = selectors.campaign_of(season)
    standings = standings_for(season)
    race = selectors.title_race_of(campaign, standings)
    assert race == selectors.title_race(selectors.campaign_rows(campaign, standings=standings))
    assert race["league_champion"][0] == [b.name]
    assert race["master_strategos"][0] and race["master_of_shadows"] == ([c.name], 2)
    assert "Late Coach" in {s.coach for s in standings}
