"""The organiser's events page in a real Chromium, at 390 px and at 1280 px: an
address subscribed from the phone, every form fits without sideways scroll at
360 px with 44 px targets, the long address and secret wrap, and the deliveries'
table scrolls inside its box. Screenshots: artifacts/screenshots/events-phone.png
and events-desktop.png."""

import pytest
from django.urls import reverse

from league.events import types
from league.events.models import Delivery, Subscription
from tests.browser.chromium import CHROMIUM_ONLY, log_in, new_page, no_sideways_scroll, shot
from tests.browser.test_thumbs_forms import fits_and_taps
from tests.support.factories import LeagueFactory, SeasonFactory, UserFactory

pytestmark = CHROMIUM_ONLY


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_events_on_a_phone_and_a_desktop(live_server, browser, phone, password):
    founder = UserFactory(username="founder")
    league = LeagueFactory(name="Altdorf Colleges", slug="altdorf", organisers=[founder])
    SeasonFactory(league=league, name="Season 1")
    log_in(phone, live_server, "founder", password)
    address = live_server.url + reverse("league:organiser_events", args=[league.slug])
    phone.goto(address)
    phone.fill("#id_url", "https://a-rather-long-receiver-name.example.org/hooks/league-events/altdorf-colleges")
    phone.check(f"input[value='{types.RESULT_APPROVED}']")
    phone.check(f"input[value='{types.SEASON_OVER}']")
    phone.locator("#subscribe button[type=submit]").click()
    phone.wait_for_load_state()
    assert "is subscribed" in phone.content()
    subscription = Subscription.objects.get()
    assert subscription.event_types == [types.RESULT_APPROVED, types.SEASON_OVER]
    Delivery.objects.bulk_create(
        Delivery(subscription=subscription, event_type=kind, payload="{}", status=status, last_status=code,
                 attempts=tries, last_error=error)
        for kind, status, code, tries, error in (
            (types.RESULT_APPROVED, "delivered", 204, 1, ""),
            (types.SEASON_OVER, "failed", 503, 3, ""),
            (types.RESULT_APPROVED, "refused", None, 1,
             "a-rather-long-receiver-name.example.org resolves to 10.0.0.8 is a private or reserved address: "
             "the site posts to public servers only."),
        ))
    phone.reload()
    phone.click(f"#subscription-{subscription.pk} summary")  # the signing secret wraps
    for number in range(len(phone.query_selector_all("main form"))):
        fits_and_taps(phone, f"main form >> nth={number}")
    phone.evaluate("window.scrollTo(0, 0)")
    shot(phone, "events-phone.png")
    desktop = new_page(browser, "desktop")
    try:
        log_in(desktop, live_server, "founder", password)
        desktop.goto(address)
        no_sideways_scroll(desktop)
        assert "Delivered (HTTP 204)" in desktop.content() and "Not sent" in desktop.content()
        shot(desktop, "events-desktop.png")
        assert desktop.violations == [] and phone.violations == []
    finally:
        desktop.context.close()
