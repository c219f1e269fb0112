"""The SVG builders (league/web/charts.py), tested directly: where the points go, the
words that go with each picture, and nothing the Content-Security-Policy blocks."""

from __future__ import annotations

import datetime
import re

import pytest
from django.urls import reverse

from league.web import charts
from league.templatetags import site_tags
from tests.support.builders import season_with_results
from tests.support.factories import LeagueFactory, SeasonFactory


def _points(svg: str, name: str) -> list[tuple[float, float]]:
    """The polyline points of the series labelled ``name``."""
    raw = re.search(rf'<g class="series" data-name="{re.escape(name)}"><polyline points="([^"]+)"', svg).group(1)
    return [tuple(float(v) for v in pair.split(",")) for pair in raw.split()]


def test_bump_chart_places_each_round_and_position():
    svg = charts.bump_chart([charts.Series("Ann", (3, 1, 1)), charts.Series("Bob", (1, 2, 3)), charts.Series("Cy", (2, 3, 2))])
    ann, bob = _points(svg, "Ann"), _points(svg, "Bob")
    assert len(ann) == len(bob) == 3
    # Same rounds, same x; position 1 is the top (smallest y), one row apart.
    assert [x for x, _ in ann] == [x for x, _ in bob]
    assert ann[0][1] == bob[2][1] and ann[1][1] < bob[1][1]
    assert bob[1][1] - ann[1][1] == charts.BUMP_ROW
    assert ann[0][0] == charts.BUMP_LEFT and ann[-1][0] == charts.BUMP_WIDTH - charts.BUMP_RIGHT
    assert "R1" in svg and "R3" in svg and ">1 Ann<" in svg


def test_bump_chart_says_in_words_what_it_shows():
    svg = charts.bump_chart([charts.Series("Ann", (3, 1)), charts.Series("Bob", (1, 2)), charts.Series("Cy", (2, 3))], chart_id="t")
    assert 'role="img"' in svg and 'aria-labelledby="t-title t-desc"' in svg
    assert '<title id="t-title">Position by round</title>' in svg
    assert "Positions of 3 after 2 rounds. Top now: Ann. Biggest climb: Ann, from 3 to 1." in svg


def test_bump_chart_highlight_draws_one_line_strong_and_describes_it():
    svg = charts.bump_chart([charts.Series("Ann", (2, 1)), charts.Series("Bob", (1, 2))], highlight="Bob")
    assert "Bob&#x27;s position after each of 2 rounds: 1, 2." in svg
    assert svg.count(f'stroke="{charts.FAINT}"') == 1  # Ann faint
    assert f'stroke="{charts.colour_for("Bob")}" stroke-width="3"' in svg
    # The highlighted line is drawn last, so it is on top; its label is bold.
    assert svg.rindex('data-name="Bob"') > svg.rindex('data-name="Ann"')
    assert 'font-weight="700">2 Bob<' in svg


def test_shared_places_share_one_label():
    svg = charts.bump_chart([charts.Series("Ann", (1, 2)), charts.Series("Bob", (2, 2)), charts.Series("Cy", (3, 1))])
    assert ">=2 Ann, Bob</text>" in svg and ">1 Cy</text>" in svg


def test_no_rounds_no_picture():
    assert charts.bump_chart([charts.Series("Ann", ())]) == ""
    assert charts.form_guide([]) == ""


def test_names_are_escaped():
    svg = charts.bump_chart([charts.Series("<b>Evil</b>", (1,))])
    assert "<b>" not in svg and "&lt;b&gt;Evil" in svg


def test_form_guide_keeps_the_last_five_oldest_first():
    svg = charts.form_guide(list("WLWDLLW"))
    assert "Form: WDLLW" in svg
    assert "Last 5 results, oldest first: won, drawn, lost, lost, won." in svg
    assert svg.count("<rect") == 5
    assert [charts.letter(o, s) for o, s in [("home", "home"), ("home", "away"), ("draw", "away"), ("abandoned", "home")]] == list("WLDL")


@pytest.mark.parametrize(
    "svg",
    [
        charts.bump_chart([charts.Series("Ann", (1, 2))]),
        charts.form_guide(["W"]),
    ],
)
def test_charts_need_nothing_the_policy_blocks(svg):
    assert "style=" not in svg and "<script" not in svg and "<style" not in svg


def test_badges_are_deterministic_and_need_no_inline_style():
    assert site_tags.badge_index("Brewer's") == site_tags.badge_index(" brewer's ")
    assert len({site_tags.badge_index(name) for name in ["Alchemist's", "Brewer's", "Butcher's", "Masons", "Union", "Fish"]}) > 2
    html = site_tags.badge("Brewer's")
    assert "style=" not in html and f'class="badge b{site_tags.badge_index("Brewer&#x27;s")}"' not in html
    assert re.fullmatch(r'<span class="badged"><span class="badge b\d+" aria-hidden="true">B</span>Brewer&#x27;s</span>', html)
    assert site_tags.badge("") == ""
    assert charts.colour_for("Brewer's") == charts.PALETTE[site_tags.badge_index("Brewer's")]


@pytest.mark.django_db
def test_league_page_has_the_bump_chart_with_a_table_fallback(client, organiser):
    league = LeagueFactory(slug="bump", organisers=[organiser])
    season = season_with_results(coaches=4, played_rounds=2, season=SeasonFactory(league=league, start_date=datetime.date(2020, 1, 6)))
    page = client.get(reverse("league:league_detail", args=[league.slug])).content.decode()
    assert '<title id="bump-0-title">Position by round</title>' in page
    assert "The positions as a table" in page
    for entry in season.entries.select_related("coach"):
        assert entry.coach.name in page.split("The positions as a table")[1]
    assert page.count("<polyline") == 4
