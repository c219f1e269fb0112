"""The web import in a real Chromium at 360 px, 390 px and 1280 px: the organiser
uploads a European Excel file (semicolons, a byte-order mark, a date column),
reads the preview, confirms, and lands on the dashboard with the results in;
nothing scrolls sideways and the page breaks no Content-Security-Policy rule."""

from __future__ import annotations

import pytest
from django.urls import reverse

from league.models import Fixture, Result
from tests.browser.chromium import CHROMIUM_ONLY, log_in, new_page, no_sideways_scroll, shot
from tests.support.factories import LeagueFactory, SeasonFactory

pytestmark = CHROMIUM_ONLY

FILE = (
    "\ufeffleague;round;home;away;home_vp;away_vp;status;date\n"
    "Harbour Lights League;1;Zoë O'Brien;Renée d'Arc;12;8;played;07/09/2026\n"
    "Harbour Lights League;1;Brother Cask;Mags Ironhand;4;14;played;2026-09-08\n"
    "Harbour Lights League;2;Zoë O'Brien;Brother Cask;;;scheduled;\n"
)


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
@pytest.mark.parametrize("size", ["narrow", "phone", "desktop"])
def test_organiser_imports_a_file_from_the_browser(live_server, browser, organiser, password, size, tmp_path):
    league = LeagueFactory(name="Harbour Lights League", slug="harbour", organisers=[organiser])
    SeasonFactory(league=league, name="Season 1")
    path = tmp_path / "results.csv"
    path.write_text(FILE, encoding="utf-8")
    page = new_page(browser, "desktop" if size == "desktop" else "phone")
    if size == "narrow":
        page.set_viewport_size({"width": 360, "height": 740})
    log_in(page, live_server, organiser.username, password)
    page.goto(live_server.url + reverse("league:organiser_dashboard", args=[league.slug]))
    page.click("nav.tabs >> text=Import results")
    page.wait_for_url(f"**{reverse('league:league_import', args=[league.slug])}")
    no_sideways_scroll(page)
    page.set_input_files("input[name=file]", str(path))
    page.click("button:text('Preview')")
    page.wait_for_selector("#preview")
    assert "Import these 3 lines" in page.content() and "7 Sep 2026" in page.content()
    assert Fixture.objects.count() == 0
    no_sideways_scroll(page)
    shot(page, f"import-preview-{size}.png")
    page.click("button:text('Import these 3 lines')")
    page.wait_for_url(f"**{reverse('league:organiser_dashboard', args=[league.slug])}")
    assert "Imported results.csv" in page.content()
    assert Result.objects.filter(status="approved").count() == 2 and Fixture.objects.count() == 3
    assert page.violations == []
