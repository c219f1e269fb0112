"""A coach changes the score of their report from a phone, then takes the report
back (GB-8 Decision, every game), in a real Chromium at 390 px; the opponent's
to-do follows each step."""

import pytest
from django.urls import reverse

from league.models import Result, ResultEvent
from tests.browser.chromium import CHROMIUM_ONLY, log_in, no_sideways_scroll, shot
from tests.support.factories import FixtureFactory

pytestmark = CHROMIUM_ONLY


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_the_reporter_changes_the_score_then_takes_the_report_back(live_server, phone, season, password):
    fixture = FixtureFactory(round__season=season, home__coach__name="Velocity", away__coach__name="Rage")
    fixture.round.date = fixture.date = fixture.round.date.replace(year=2020)
    fixture.round.save()
    fixture.save()

    log_in(phone, live_server, fixture.home.coach.user.username, password)
    phone.goto(live_server.url + fixture.get_absolute_url())
    phone.fill("input[name=home_score]", "12")
    phone.fill("input[name=away_score]", "8")
    phone.click("text=Report result")
    phone.wait_for_selector("text=Waiting for your opponent to confirm")

    # The change form is folded away, and opens filled in with the report.
    phone.click("summary:has-text('Change the report')")
    change = phone.locator(f"form[action='{reverse('league:change_report', args=[fixture.pk])}']")
    assert change.locator("input[name=home_score]").input_value() == "12"
    assert change.locator("input[name=away_score]").input_value() == "8"
    no_sideways_scroll(phone)
    shot(phone, "phone-change-report-open.png")
    # A draw is refused on the form, the report kept as it was.
    change.locator("input[name=home_score]").fill("12")
    change.locator("input[name=away_score]").fill("12")
    change.locator("text=Send the changed report").click()
    phone.wait_for_selector("text=Guild Ball has no draws")
    assert Result.objects.get().summary == "12 – 8"
    change = phone.locator(f"form[action='{reverse('league:change_report', args=[fixture.pk])}']")
    change.locator("input[name=home_score]").fill("9")
    change.locator("input[name=away_score]").fill("12")
    change.locator("text=Send the changed report").click()
    phone.wait_for_selector("text=Report changed. Your opponent has been told")
    assert Result.objects.get().summary == "9 – 12"
    assert "Velocity 9 – 12 Rage" in phone.content()
    assert "(was 12 – 8)" in phone.content()  # the history keeps the first report
    no_sideways_scroll(phone)
    shot(phone, "phone-change-report-changed.png")

    phone.click("button:has-text('Take back the report')")
    phone.wait_for_selector("text=Take back your report")
    assert Result.objects.exists()  # nothing happens before the confirmation
    no_sideways_scroll(phone)
    shot(phone, "phone-take-back-confirm.png")
    phone.click("button:has-text('Take back the report')")
    phone.wait_for_selector("text=Report taken back: the match waits for a report again")
    assert not Result.objects.exists()
    assert list(ResultEvent.objects.values_list("action", flat=True)) == ["reported", "changed", "taken_back"]
    assert "Report the result" in phone.content()
    shot(phone, "phone-take-back-done.png")

    # The opponent has nothing to confirm: the match is one to report.
    phone.context.clear_cookies()
    log_in(phone, live_server, fixture.away.coach.user.username, password)
    assert "Confirm or dispute:" not in phone.content()
    assert "Report:" in phone.content()


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_the_change_form_at_1280_px(live_server, browser, season, password):
    """The same card on a wide screen: the form opens in place, nothing overflows."""
    from league.services import results as services
    from tests.browser.chromium import new_page

    fixture = FixtureFactory(round__season=season, home__coach__name="Velocity", away__coach__name="Rage")
    fixture.round.date = fixture.date = fixture.round.date.replace(year=2020)
    fixture.round.save()
    fixture.save()
    services.report_result(fixture=fixture, by=fixture.home.coach.user, home_score=12, away_score=8)
    page = new_page(browser, "desktop")
    try:
        log_in(page, live_server, fixture.home.coach.user.username, password)
        page.goto(live_server.url + fixture.get_absolute_url())
        page.click("summary:has-text('Change the report')")
        assert page.locator("form[action$='/report/change/'] input[name=home_score]").input_value() == "12"
        no_sideways_scroll(page)
        shot(page, "desktop-change-report-open.png")
    finally:
        page.context.close()
