"""The league page and the organiser's dashboard in a real Chromium at a phone's
390 px and a laptop's 1280 px: nothing scrolls sideways, the league navigation
stays in reach, the pictures load, and the organiser approves a confirmed result
in one click. Screenshots go to artifacts/screenshots/ (SCREENSHOT_DIR to change
it; README, "Test it")."""

from __future__ import annotations

import datetime
import os
import shutil
from pathlib import Path

import pytest
from django.db import connections
from django.urls import reverse

from league.models import Fixture, Result
from tests.builders import season_with_results
from tests.factories import LeagueFactory, SeasonFactory

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
SCREENSHOTS = Path(os.environ.get("SCREENSHOT_DIR", Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"))

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        shutil.which(CHROMIUM) is None and not os.environ.get("CI"),
        reason="Chromium is not installed (apt-get install -y chromium); .ci/run installs it",
    ),
]

WIDTHS = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 900}}


@pytest.fixture
def browser():
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
        )
        yield browser
        browser.close()


def _page(browser, size: str):
    phone = size == "phone"
    context = browser.new_context(viewport=WIDTHS[size], is_mobile=phone, has_touch=phone)
    page = context.new_page()
    page.violations = []
    page.on("console", lambda msg: page.violations.append(msg.text) if "Content Security Policy" in msg.text else None)
    return page


def _no_sideways_scroll(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), page.url


def _shot(page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / name), full_page=True)


def _log_in(page, live_server, username, password):
    page.goto(live_server.url + reverse("login"))
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.click("button[type=submit]")
    page.wait_for_url(f"**{reverse('league:my_fixtures')}")


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_league_page_and_dashboard_approve_flow(live_server, browser, organiser, password, settings, size):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
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
    page = _page(browser, size)

    # The league page: the table, the bump chart, the navigation in reach after scrolling.
    page.goto(live_server.url + league.get_absolute_url())
    assert page.locator("table.table").count() == 1
    chart = page.locator("figure.chart svg[role=img]").first
    assert chart.is_visible() and "Position by round" in chart.locator("title").text_content()
    _no_sideways_scroll(page)
    _shot(page, f"league-{size}.png")
    page.mouse.wheel(0, 2000)
    page.wait_for_timeout(100)
    nav = page.locator("nav.league-nav").bounding_box()
    assert nav is not None and nav["y"] <= 1, "the league navigation scrolled out of reach"

    # The organiser's dashboard: approve one confirmed result, then the other with "all".
    _log_in(page, live_server, organiser.username, password)
    page.goto(live_server.url + reverse("league:league_list"))
    assert "2 to approve · 1 disputed" in page.content()
    _no_sideways_scroll(page)
    _shot(page, f"home-organiser-{size}.png")
    page.click("a.waiting")
    page.wait_for_url(f"**{reverse('league:organiser_dashboard', args=[league.slug])}")
    assert "VP miscounted" in page.content()
    _no_sideways_scroll(page)
    _shot(page, f"dashboard-{size}.png")
    page.locator("#to-approve button:text('Approve')").first.click()
    page.wait_for_selector("text=Approved 1 result")
    assert Result.objects.filter(status="approved", fixture__in=waiting).count() == 1
    _no_sideways_scroll(page)
    _shot(page, f"dashboard-approved-{size}.png")
    page.locator("#to-approve button:text('Approve')").first.click()
    page.wait_for_selector("text=Approved 1 result")
    statuses = dict(Result.objects.filter(fixture__in=waiting).values_list("fixture_id", "status"))
    assert sorted(statuses.values()) == ["approved", "approved", "disputed"]
    # The approved results are in the table now: the league page shows the new version.
    page.goto(live_server.url + league.get_absolute_url())
    _no_sideways_scroll(page)

    assert page.violations == [], page.violations
    page.context.close()
    connections.close_all()
