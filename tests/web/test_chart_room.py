"""The charts fit their picture (every label measured to its room, a long name
shortened with the whole of it as a tooltip) and an empty chart is not drawn."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from campaigns.ledgers import charts as campaign_charts
from league.web import charts
from tests.support.builders import season_with_results
from tests.campaigns.factories import make_campaign, user_of
from tests.support.factories import LeagueFactory, SeasonFactory

LONG = "Bartholomew Fitzwilliam-Montgomery of the Northern Marches X"  # 60 characters
TEXT = re.compile(r'<text x="([\d.]+)" y="[\d.]+" font-size="([\d.]+)"[^>]*?text-anchor="(start|middle|end)"[^>]*>([^<]*)')


def texts_fit(svg: str) -> None:
    """Every <text> of ``svg`` lies inside its viewBox, by the charts' own generous
    measure (a browser's measure: tests/browser/test_charts.py)."""
    width = float(re.search(r'viewBox="0 0 ([\d.]+) ', svg).group(1))
    found = TEXT.findall(svg)
    assert found
    for x, size, anchor, text in found:
        w = charts.text_width(text.replace("&#x27;", "'").replace("&amp;", "&"), float(size))
        left = float(x) - {"start": 0, "middle": w / 2, "end": w}[anchor]
        assert 0 <= left and left + w <= width, (text, left, w, width)


def test_a_sixty_character_name_is_shortened_with_the_whole_name_as_its_tooltip():
    assert len(LONG) == 60
    svg = charts.bump_chart([charts.Series(LONG, (2, 1)), charts.Series("Ann", (1, 2))])
    texts_fit(svg)
    assert f"<title>1 {LONG}</title>" in svg and "…<title>" in svg
    assert ">2 Ann</text>" in svg  # a short name is whole, without a tooltip
    mine = charts.bump_chart([charts.Series(LONG, (2, 1)), charts.Series("Ann", (1, 2))], highlight=LONG)
    texts_fit(mine)


def test_a_big_fields_place_numbers_widen_the_margin():
    series = [charts.Series(f"Coach {i}", (i, i)) for i in range(1, 11)]
    svg = charts.bump_chart(series, places=1200)
    texts_fit(svg)
    assert ">1000<" in svg and "1…" not in svg


def test_campaign_charts_keep_long_labels_inside():
    steps = [campaign_charts.Step("start", 0), *(campaign_charts.Step(f"Dealing phase {i} {LONG}", 5 * i) for i in range(1, 4))]
    svg = campaign_charts.cp_chart(steps, [(10, LONG), (200, "Far")])
    texts_fit(svg)
    assert f"<title>10 · {LONG}</title>" in svg
    bars = campaign_charts.favours_chart([campaign_charts.FavourBar(LONG, 2, 1), campaign_charts.FavourBar("R2", 1, 0)])
    texts_fit(bars)


@pytest.mark.django_db
def test_a_season_without_a_result_draws_no_chart(client, organiser):
    league = LeagueFactory(slug="unplayed", organisers=[organiser])
    season = season_with_results(coaches=4, played_rounds=0, season=SeasonFactory(league=league))
    page = client.get(reverse("league:league_detail", args=[league.slug])).content.decode()
    assert "<svg" not in page and "Position by round" not in page
    entry = season.entries.first()
    page = client.get(reverse("league:coach_detail", args=[league.slug, entry.coach_id])).content.decode()
    assert "<svg" not in page


@pytest.mark.django_db
def test_a_campaign_coach_without_campaign_points_gets_no_cp_chart(client, season, organiser):
    a = make_campaign(season, 2, organiser=organiser)[0]
    client.force_login(user_of(a))
    page = client.get(reverse("campaigns:coach_page", args=[season.league.slug, a.entry.coach_id])).content.decode()
    assert 'id="cp-title"' not in page and 'id="favours-title"' not in page
