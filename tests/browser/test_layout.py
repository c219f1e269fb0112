"""The league page and the organiser's dashboard in a real Chromium at a phone's
390 px and a laptop's 1280 px: nothing scrolls sideways, the league navigation
stays in reach, the pictures load, and the organiser approves a confirmed result
in one click. Screenshots go to artifacts/screenshots/ (SCREENSHOT_DIR to change
it; README, "Test it")."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse

from league.models import Fixture, Result
from tests.browser.chromium import CHROMIUM_ONLY, log_in, new_page, no_sideways_scroll, shot
from tests.support.builders import season_with_results
from tests.support.factories import LeagueFactory, SeasonFactory

pytestmark = CHROMIUM_ONLY


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_league_page_and_dashboard_approve_flow(live_server, browser, organiser, password, size):
    league = LeagueFactory(name="Harbour Lights League", slug="harbour", organisers=[organiser])
    season = season_with_results(
        coaches=10, played_rounds=4, season=SeasonFactory(league=league, name="Season 1", start_date=datetime.date(2020, 1, 6))
    )
    waiting = list(Fixture.objects.filter(round__season=season, result__isnull=True, away__isnull=False).order_by("pk")[:3])
    for fixture, status in zip(waiting, ["confirmed", "confirmed", "disputed"]):
        Result.objects.create(
            fixture=fixture, home_score=12, away_score=6, outcome="home", summary="12 – 6", status=status,
            reported_side="home", dispute_reason="VP miscounted" if status == "disputed" else "",
        )
    page = new_page(browser, size)

    # The league page: the table, the bump chart, the navigation in reach after scrolling.
    page.goto(live_server.url + league.get_absolute_url())
    assert page.locator("table.table").count() == 1
    chart = page.locator("figure.chart svg[role=img]").first
    assert chart.is_visible() and "Position by round" in chart.locator(":scope > title").text_content()  # the chart's own title, not a label's tooltip
    no_sideways_scroll(page)
    shot(page, f"league-{size}.png")
    page.mouse.wheel(0, 2000)
    page.wait_for_timeout(100)
    nav = page.locator("nav.league-nav").bounding_box()
    assert nav is not None and nav["y"] <= 1, "the league navigation scrolled out of reach"

    # The organiser's dashboard: approve one confirmed result, then the other with "all".
    log_in(page, live_server, organiser.username, password)
    page.goto(live_server.url + reverse("league:league_list"))
    assert "2 to approve · 1 disputed" in page.content()
    no_sideways_scroll(page)
    shot(page, f"home-organiser-{size}.png")
    page.click("a.waiting")
    page.wait_for_url(f"**{reverse('league:organiser_dashboard', args=[league.slug])}")
    assert "VP miscounted" in page.content()
    no_sideways_scroll(page)
    shot(page, f"dashboard-{size}.png")
    page.locator("#to-approve button:text('Approve')").first.click()
    page.wait_for_selector("text=Approved 1 result")
    assert Result.objects.filter(status="approved", fixture__in=waiting).count() == 1
    no_sideways_scroll(page)
    shot(page, f"dashboard-approved-{size}.png")
    page.locator("#to-approve button:text('Approve')").first.click()
    page.wait_for_selector("text=Approved 1 result")
    statuses = dict(Result.objects.filter(fixture__in=waiting).values_list("fixture_id", "status"))
    assert sorted(statuses.values()) == ["approved", "approved", "disputed"]
    # The approved results are in the table now: the league page shows the new version.
    page.goto(live_server.url + league.get_absolute_url())
    no_sideways_scroll(page)

    assert page.violations == [], page.violations
