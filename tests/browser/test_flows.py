"""The whole result workflow through the pages in a real Chromium at 390 px and
1280 px: a coach reports, the opponent confirms (one match) or disputes with the
score they think is right (another); the organiser approves the first and accepts
the coach's version of the second from the dashboard. Then a coach's campaign page,
in sections. Nothing scrolls sideways; screenshots go to artifacts/screenshots/
(README, "Test it")."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse

from campaigns.ledgers import services as ledgers
from league.models import Result
from tests.browser.chromium import CHROMIUM_ONLY, log_in, new_page, no_sideways_scroll, shot
from tests.campaigns.factories import fixture_between, make_campaign, set_match_day, user_of
from tests.support.factories import FixtureFactory, RoundFactory

pytestmark = CHROMIUM_ONLY


def _report(page, live_server, fixture, home, away):
    page.goto(live_server.url + fixture.get_absolute_url())
    page.fill("input[name=home_score]", str(home))
    page.fill("input[name=away_score]", str(away))
    page.click("text=Report result")
    page.wait_for_selector("text=Waiting for your opponent to confirm")


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_report_confirm_dispute_and_settle_through_the_dashboard(live_server, browser, organiser, season, password, size):
    rnd = RoundFactory(season=season, number=1, date=datetime.date(2020, 1, 6))
    agreed = FixtureFactory(round=rnd, date=rnd.date, home__coach__name="Velocity", away__coach__name="Rage")
    argued = FixtureFactory(round=rnd, date=rnd.date, home__coach__name="Shade", away__coach__name="Brick")
    page = new_page(browser, size)

    # The home coaches report.
    for fixture in (agreed, argued):
        page.context.clear_cookies()
        log_in(page, live_server, fixture.home.coach.user.username, password)
        _report(page, live_server, fixture, 12, 6)
    no_sideways_scroll(page)

    # Rage confirms; Brick disputes with the score they think is right.
    page.context.clear_cookies()
    log_in(page, live_server, agreed.away.coach.user.username, password)
    assert "Confirm or dispute:" in page.content()
    shot(page, f"flow-coach-home-{size}.png")
    page.goto(live_server.url + agreed.get_absolute_url())
    page.click("text=Confirm result")
    page.wait_for_selector("text=Result confirmed")
    page.context.clear_cookies()
    log_in(page, live_server, argued.away.coach.user.username, password)
    page.goto(live_server.url + argued.get_absolute_url())
    page.fill("textarea[name=reason]", "Brick scored the last goal, not Shade")
    page.check("input[name=propose]")
    page.fill("input[name='proposed-home_score']", "10")
    page.fill("input[name='proposed-away_score']", "12")
    no_sideways_scroll(page)
    shot(page, f"flow-dispute-form-{size}.png")
    page.click("button:text('Dispute')")
    page.wait_for_selector("text=Dispute sent to the organiser with your version")
    statuses = dict(Result.objects.values_list("fixture_id", "status"))
    assert statuses == {agreed.pk: "confirmed", argued.pk: "disputed"}

    # The organiser: the home page counts, the dashboard shows both versions side by side.
    page.context.clear_cookies()
    log_in(page, live_server, organiser.username, password)
    page.goto(live_server.url + reverse("league:league_list"))
    assert "1 to approve · 1 disputed" in page.content()
    page.click("a.waiting")
    page.wait_for_selector("#disputed .versions")
    versions = page.locator("#disputed .version")
    assert versions.count() == 2
    left, right = versions.nth(0).bounding_box(), versions.nth(1).bounding_box()
    assert abs(left["y"] - right["y"]) < 2 and left["x"] < right["x"], "the versions are not side by side"
    assert "12 – 6" in versions.nth(0).text_content() and "10 – 12" in versions.nth(1).text_content()
    no_sideways_scroll(page)
    shot(page, f"flow-dashboard-{size}.png")
    page.locator("#to-approve button:text('Approve')").first.click()
    page.wait_for_selector("text=Approved 1 result")
    page.locator("#disputed button:text('Accept this version')").click()
    page.wait_for_selector("text=Dispute settled")
    no_sideways_scroll(page)
    shot(page, f"flow-dashboard-settled-{size}.png")
    results = {r.fixture_id: (r.status, r.home_score, r.away_score) for r in Result.objects.all()}
    assert results == {agreed.pk: ("approved", 12, 6), argued.pk: ("approved", 10, 12)}
    page.goto(live_server.url + season.league.get_absolute_url())
    no_sideways_scroll(page)
    assert page.violations == [], page.violations


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_coachs_campaign_page_in_sections(live_server, browser, organiser, season, password, size):
    a, b = make_campaign(season, 2, organiser=organiser)
    set_match_day(fixture_between(a, b), datetime.date.today() + datetime.timedelta(days=3))
    ledgers.adjust(coach=a, ledger="favours", amount=6, reason="start-up grant", by=organiser)
    ledgers.adjust(coach=a, ledger="cp", amount=25, reason="test", by=organiser)
    page = new_page(browser, size)
    log_in(page, live_server, user_of(a).username, password)
    # The coach's home says what waits in the campaign.
    assert "The Big League: waiting on you" in page.content() and "6 Favours before" in page.content()
    shot(page, f"campaign-home-{size}.png")
    page.goto(live_server.url + reverse("campaigns:coach_page", args=[season.league.slug, a.entry.coach_id]))
    overview_height = page.evaluate("document.documentElement.scrollHeight")
    assert page.locator("#tab-overview").is_visible() and not page.locator("#tab-dealing").is_visible()
    no_sideways_scroll(page)
    shot(page, f"campaign-overview-{size}.png")
    heights = {"overview": overview_height}
    for tab in ("picks", "decks", "dealing", "history"):
        page.click(f"nav.tabs a[href='#tab-{tab}']")
        assert page.locator(f"#tab-{tab}").is_visible() and not page.locator("#tab-overview").is_visible()
        no_sideways_scroll(page)
        heights[tab] = page.evaluate("document.documentElement.scrollHeight")
        shot(page, f"campaign-{tab}-{size}.png")
    if size == "phone":
        # Each section alone is far shorter than the 6,300 px the whole page was.
        assert max(heights.values()) < 3500, heights
    assert page.violations == [], page.violations
