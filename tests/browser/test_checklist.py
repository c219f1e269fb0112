"""The season checklist in a real Chromium at 390 px and 1280 px: an
organiser whose season has its entrants but no fixtures generates them in one
click from the dashboard; nothing scrolls sideways; the league list's "N to do"
goes to "all clear"."""

from __future__ import annotations

import pytest
from django.urls import reverse

from league.models import Round
from tests.browser.chromium import CHROMIUM_ONLY, log_in, new_page, no_sideways_scroll, shot
from tests.support.builders import today_plus
from tests.support.factories import EntryFactory, LeagueFactory, SeasonFactory

pytestmark = CHROMIUM_ONLY


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_generate_fixtures_from_the_checklist(live_server, browser, organiser, password, size):
    league = LeagueFactory(name="Checklist Harbour League", slug="checklist-harbour", organisers=[organiser])
    season = SeasonFactory(league=league, name="Season 1", start_date=today_plus(7))
    for _ in range(4):
        EntryFactory(season=season)
    page = new_page(browser, size)
    log_in(page, live_server, organiser.username, password)
    page.goto(live_server.url + reverse("league:league_list"))
    assert "1 to do" in page.content()
    page.click("a.waiting")
    page.wait_for_url(f"**{reverse('league:organiser_dashboard', args=[league.slug])}")
    assert "Fixtures not generated" in page.content()
    no_sideways_scroll(page)
    shot(page, f"checklist-{size}.png")
    page.locator("#todo-fixtures button").click()
    page.wait_for_selector("text=Fixtures generated for Season 1")
    assert Round.objects.filter(season=season).count() == 3
    assert "nothing waits on you" in page.content() and "Fixtures not generated" not in page.content()
    no_sideways_scroll(page)
    page.goto(live_server.url + reverse("league:league_list"))
    assert "all clear" in page.content()
    assert page.violations == [], page.violations
