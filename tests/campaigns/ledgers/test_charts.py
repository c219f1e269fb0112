"""The Big League's SVG builders (campaigns/ledgers/charts.py), tested directly: where the CP
line and the Moment thresholds go, the Favours bars, the words that go with each
picture, and nothing the Content-Security-Policy blocks."""

from __future__ import annotations

import re

import pytest

from campaigns.ledgers import charts


def test_no_steps_no_picture():
    assert charts.cp_chart([], [(20, "Planning")]) == ""
    assert charts.favours_chart([charts.FavourBar("R1", 0, 0)]) == ""


def test_cp_chart_marks_the_thresholds_and_scales_to_the_next():
    thresholds = [(0, "Plotting"), (20, "Planning"), (40, "Opening Gambit"), (60, "Best Laid Plans")]
    svg = charts.cp_chart([charts.Step("start", 0), charts.Step("R1", 12), charts.Step("R2", 27)], thresholds)
    assert "Planning" in svg and "Opening Gambit" in svg and "Best Laid Plans" not in svg  # beyond the next one
    assert "Moments reached: Plotting, Planning. Next: Opening Gambit at 40 CP." in svg
    assert "Campaign Points after each step: start 0, R1 12, R2 27." in svg
    points = [tuple(map(float, p.split(","))) for p in re.search(r'<polyline points="([^"]+)"', svg).group(1).split()]
    bottom = charts.CP_TOP + charts.CP_HEIGHT
    assert points[0][1] == bottom and points[2][1] == pytest.approx(bottom - charts.CP_HEIGHT * 27 / 40, abs=0.1)
    assert 'stroke-dasharray="4 3"' in svg


def test_favours_chart_shows_earned_up_and_spent_down():
    svg = charts.favours_chart([charts.FavourBar("R1", 3, 0), charts.FavourBar("R2", 1, 2)])
    assert "Favours: 4 earned, 2 spent" in svg
    assert "R1 +3 −0; R2 +1 −2" in svg
    assert svg.count('fill="#1f7a3a"') == 2 and svg.count('fill="#9b2c1f"') == 1


@pytest.mark.parametrize(
    "svg",
    [
        charts.cp_chart([charts.Step("R1", 5)], [(20, "Planning")]),
        charts.favours_chart([charts.FavourBar("R1", 3, 1)]),
    ],
)
def test_charts_need_nothing_the_policy_blocks(svg):
    assert "style=" not in svg and "<script" not in svg and "<style" not in svg
