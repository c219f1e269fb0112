"""A coach reports a result from a phone and the opponent confirms it, in a real
Chromium (Debian's package, driven by Playwright)."""

import os
import shutil

import pytest
from django.db import connections
from django.urls import reverse

from league.models import Result
from tests.factories import FixtureFactory

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        shutil.which(CHROMIUM) is None and not os.environ.get("CI"),
        reason="Chromium is not installed (apt-get install -y chromium); .ci/run installs it",
    ),
]


@pytest.fixture
def browser():
    # Playwright's sync API runs an event loop in this thread; the ORM calls the
    # test makes between browser steps are synchronous and safe here.
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
        )
        yield browser
        browser.close()


@pytest.fixture
def phone(browser):
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    yield context.new_page()
    context.close()


def _log_in(page, live_server, username, password):
    page.goto(live_server.url + reverse("login"))
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.click("button[type=submit]")
    page.wait_for_url(f"**{reverse('league:my_fixtures')}")


# The live server reads committed data, so the test commits; serialized_rollback
# puts the migrated catalogue back afterwards without re-creating content types.
@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_coach_reports_from_phone_and_opponent_confirms(live_server, phone, season, password, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    fixture = FixtureFactory(round__season=season, home__coach__name="Velocity", away__coach__name="Rage")
    fixture.round.date = fixture.date = fixture.round.date.replace(year=2020)
    fixture.round.save()
    fixture.save()

    _log_in(phone, live_server, fixture.home.coach.user.username, password)
    assert "Report:" in phone.content()
    phone.click(f"a[href='{fixture.get_absolute_url()}']")
    # A draw is refused with a message on the form and nothing is saved.
    phone.fill("input[name=home_score]", "10")
    phone.fill("input[name=away_score]", "10")
    phone.click("text=Report result")
    assert "Guild Ball has no draws" in phone.content()
    assert not Result.objects.exists()
    phone.fill("input[name=home_score]", "12")
    phone.fill("input[name=away_score]", "8")
    phone.click("text=Report result")
    phone.wait_for_selector("text=Waiting for your opponent to confirm")
    assert Result.objects.get().status == "reported"
    # The page fits a phone: no horizontal scrolling.
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    phone.screenshot(path=os.path.join(os.environ.get("SCREENSHOT_DIR", "/tmp"), "phone-report.png"), full_page=True)

    phone.context.clear_cookies()
    _log_in(phone, live_server, fixture.away.coach.user.username, password)
    assert "Confirm or dispute:" in phone.content()
    phone.goto(live_server.url + fixture.get_absolute_url())
    phone.click("text=Confirm result")
    phone.wait_for_selector("text=Result confirmed")
    assert Result.objects.get().status == "confirmed"
    # The ORM calls above ran under Playwright's greenlet, which Django sees as a
    # context of its own: close that connection so the test database can be dropped.
    connections.close_all()
