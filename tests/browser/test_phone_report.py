"""A coach reports a result from a phone and the opponent confirms it, in a real
Chromium (Debian's package, driven by Playwright)."""

import pytest

from league.models import Result
from tests.browser.chromium import CHROMIUM_ONLY, log_in, no_sideways_scroll, shot
from tests.support.factories import FixtureFactory

pytestmark = CHROMIUM_ONLY


# The live server reads committed data, so the test commits; serialized_rollback
# puts the migrated catalogue back afterwards without re-creating content types.
@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_coach_reports_from_phone_and_opponent_confirms(live_server, phone, season, password):
    fixture = FixtureFactory(round__season=season, home__coach__name="Velocity", away__coach__name="Rage")
    fixture.round.date = fixture.date = fixture.round.date.replace(year=2020)
    fixture.round.save()
    fixture.save()

    log_in(phone, live_server, fixture.home.coach.user.username, password)
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
    no_sideways_scroll(phone)  # the page fits a phone
    shot(phone, "phone-report.png")

    phone.context.clear_cookies()
    log_in(phone, live_server, fixture.away.coach.user.username, password)
    assert "Confirm or dispute:" in phone.content()
    phone.goto(live_server.url + fixture.get_absolute_url())
    phone.click("text=Confirm result")
    phone.wait_for_selector("text=Result confirmed")
    assert Result.objects.get().status == "confirmed"
