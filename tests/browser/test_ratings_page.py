"""A game's ranking page (RT-1, RT-4) in a real Chromium at a phone's and a
laptop's width: no sideways scroll, the coach column in view, provisional
ratings marked, no Content-Security-Policy violation; and the coach ratings
partial's chart. Screenshots go to artifacts/screenshots/ratings-*.png."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.browser.chromium import CHROMIUM_ONLY, new_page, no_sideways_scroll, shot
from tests.ratings.test_pages import played

pytestmark = CHROMIUM_ONLY


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_ranking_page_at_390_and_1280_px(live_server, browser, size):
    played(12, weeks=4)
    page = new_page(browser, size)
    page.goto(live_server.url + reverse("ratings:ranking", args=["guildball"]))
    assert page.locator("h1").inner_text() == "Guild Ball ratings"
    rows = page.locator("table.table tbody tr")
    assert rows.count() == 12
    assert page.locator("table.table td.ident a").first.get_attribute("href").startswith("/coaches/")
    assert page.locator("table.table abbr.provisional").count() == 12
    no_sideways_scroll(page)
    page.locator("table.table th a", has_text="Games").click()
    page.wait_for_url("**sort=*")
    assert page.locator("table.table tbody tr").count() == 12
    no_sideways_scroll(page)
    shot(page, f"ratings-guildball-{size}.png")
    assert not page.violations, page.violations
    page.context.close()


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_ranking_page_says_when_recent_results_are_still_being_added(live_server, browser):
    """RT-2: between a result's approval and its recomputation (a queued task) the
    page says so, at a phone's width, and stops saying it once it has run."""
    from league.ratings import services as ratings
    from league.ratings.models import Rating
    from tests.ratings.test_pages import MONDAY

    played(6, weeks=2)
    ratings.mark("guildball", MONDAY)  # what an approval leaves until its task runs
    page = new_page(browser, "phone")
    url = live_server.url + reverse("ratings:ranking", args=["guildball"])
    page.goto(url)
    notice = page.get_by_role("status")
    assert "still being added" in notice.inner_text()
    no_sideways_scroll(page)
    shot(page, "ratings-waiting-phone.png")
    profile = live_server.url + reverse("coach_profile", args=[Rating.objects.filter(game_system="guildball")
                                                                  .values_list("coach_id", flat=True).first()])
    page.goto(profile)
    assert "still being added to this rating" in page.get_by_role("status").inner_text()
    no_sideways_scroll(page)
    shot(page, "ratings-waiting-profile-phone.png")
    ratings.catch_up("guildball")
    for address in (url, profile):
        page.goto(address)
        assert page.get_by_role("status").count() == 0
    assert not page.violations, page.violations
    page.context.close()
