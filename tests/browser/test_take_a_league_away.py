"""The organiser downloads their league from the settings page in a real
Chromium, at a phone's and a laptop's width: the section fits without sideways
scroll, the link is a thumb's target, and the file saved is the league's.
Screenshots: artifacts/screenshots/export-phone.png and export-desktop.png."""

import json
from pathlib import Path

import pytest
from django.urls import reverse

from tests.browser.chromium import CHROMIUM_ONLY, log_in, new_page, no_sideways_scroll, screenshot_path
from tests.support.builders import season_with_results
from tests.support.factories import LeagueFactory, SeasonFactory, UserFactory

pytestmark = CHROMIUM_ONLY


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_league_downloaded_from_the_settings_page(live_server, browser, password, size):
    founder = UserFactory(username="founder")
    league = LeagueFactory(name="Harbour League", slug="harbour", organisers=[founder])
    season_with_results(coaches=4, played_rounds=2, season=SeasonFactory(league=league, name="Season 1"))
    page = new_page(browser, size)
    try:
        log_in(page, live_server, "founder", password)
        page.goto(live_server.url + reverse("league:organiser_settings", args=[league.slug]))
        link = page.locator("#export a")
        link.scroll_into_view_if_needed()
        no_sideways_scroll(page)
        assert link.bounding_box()["height"] >= 44
        page.locator("#export").screenshot(path=screenshot_path(f"export-{size}.png"))
        with page.expect_download() as info:
            link.click()
        download = info.value
        assert download.suggested_filename.startswith("harbour-") and download.suggested_filename.endswith(".json")
        data = json.loads(Path(download.path()).read_text(encoding="utf-8"))
        assert data["league"]["name"] == "Harbour League"
        assert len(next(t for t in data["tables"] if t["model"] == "league.coach")["rows"]) == 4
        assert not page.violations
    finally:
        page.context.close()
