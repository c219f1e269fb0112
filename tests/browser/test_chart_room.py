"""The charts' labels measured by Chromium itself (the server only estimates,
league/web/charts.py ``text_width``): with a 60-character coach name every
label of the league page's and the coach page's chart lies inside its picture,
at a phone's 390 px and a laptop's 1280 px."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse

from league.models import Coach
from tests.browser.chromium import CHROMIUM_ONLY, new_page, shot
from tests.support.builders import season_with_results
from tests.support.factories import LeagueFactory, SeasonFactory

pytestmark = CHROMIUM_ONLY

LONG = "Bartholomew Fitzwilliam-Montgomery of the Northern Marches X"

OUTSIDE = """() => {
  const out = [];
  for (const svg of document.querySelectorAll('svg.chart-svg')) {
    const [, , w, h] = svg.getAttribute('viewBox').split(' ').map(Number);
    for (const t of svg.querySelectorAll('text')) {
      const b = t.getBBox();
      if (b.x < 0 || b.y < 0 || b.x + b.width > w || b.y + b.height > h) out.push(`${t.textContent}: ${b.x}+${b.width} of ${w}`);
    }
  }
  return out;
}"""


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_no_chart_label_is_cut_off(live_server, browser, size):
    league = LeagueFactory(slug="long-names")
    season = season_with_results(coaches=6, played_rounds=3, season=SeasonFactory(league=league, start_date=datetime.date(2020, 1, 6)))
    coach = Coach.objects.filter(entries__season=season).order_by("pk").first()
    coach.name = LONG
    coach.save()
    page = new_page(browser, size)
    for url in (league.get_absolute_url(), reverse("league:coach_detail", args=[league.slug, coach.pk])):
        page.goto(live_server.url + url)
        assert page.locator("svg.chart-svg").count() >= 1, url
        assert page.evaluate(OUTSIDE) == [], url
        # The whole name is the shortened label's tooltip.
        assert page.locator(f"svg.chart-svg text title:text-is('1 {LONG}'), svg.chart-svg text title:has-text('{LONG}')").count() >= 1
    shot(page, f"chart-long-name-{size}.png")
    page.context.close()
