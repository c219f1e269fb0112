"""A league's leaderboards and records, and a game's across the site, on a 390 px
phone and at 1280 px in a real Chromium: nothing scrolls sideways but the table
inside its box, the coach column stays in the screen, a header sorts the board.
Screenshots go to artifacts/screenshots/{phone,desktop}-records-*.png."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.browser.chromium import CHROMIUM_ONLY, new_page, no_sideways_scroll, shot
from tests.support.builders import season_with_results
from tests.support.factories import LeagueFactory, SeasonFactory

pytestmark = CHROMIUM_ONLY


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_leaderboards_and_records_on_a_phone_and_a_desktop(live_server, browser, size):
    league = LeagueFactory(name="Harbour Cup", slug="harbour-cup")
    season_with_results(coaches=8, played_rounds=7, season=SeasonFactory(league=league, name="Spring"))
    page = new_page(browser, size)
    try:
        page.goto(live_server.url + reverse("league:league_leaderboards", args=[league.slug]))
        no_sideways_scroll(page)
        assert page.locator("table.table tbody tr").count() == 8
        first = page.locator("table.table td.ident").first.bounding_box()
        assert first is not None and first["x"] >= 0 and first["x"] + first["width"] <= page.viewport_size["width"]
        shot(page, f"{size}-records-leaderboard.png")
        page.locator("table.table th", has_text="VP against").locator("a").click()
        page.wait_for_url("**sort=vp_against*")
        assert page.locator("table.table tbody tr").count() == 8

        page.goto(live_server.url + reverse("league:league_records", args=[league.slug]))
        no_sideways_scroll(page)
        assert page.get_by_text("League Champion").count() == 1
        shot(page, f"{size}-records-league.png")

        page.goto(live_server.url + reverse("league:game_leaderboards", args=["guildball"]))
        no_sideways_scroll(page)
        shot(page, f"{size}-records-site.png")
        assert page.violations == [], page.violations
    finally:
        page.context.close()
