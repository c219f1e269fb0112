"""Offline pages in a real Chromium: a coach without a signal. The page visited before
opens from the service worker's copy, marked as saved; a report made offline waits
on the phone and is stored once when the signal returns; a resend of the same key
changes nothing and a forged one is refused; logging out leaves nothing behind."""

from __future__ import annotations

import pytest
from playwright.sync_api import Error as PlaywrightError
from django.urls import reverse

from league.models import IdempotencyKey, Result, ResultEvent
from tests.browser.chromium import CHROMIUM_ONLY, log_in, no_sideways_scroll, shot
from tests.support.factories import FixtureFactory

pytestmark = CHROMIUM_ONLY

KEPT = """async () => {
  const names = await caches.keys();
  const pages = [];
  for (const name of names.filter(n => n.startsWith("league-pages-"))) {
    for (const request of await (await caches.open(name)).keys()) pages.push(new URL(request.url).pathname);
  }
  const outbox = await new Promise(resolve => {
    const open = indexedDB.open("league-offline", 1);
    open.onupgradeneeded = () => open.result.createObjectStore("outbox", {keyPath: "id"});
    open.onsuccess = () => {
      const request = open.result.transaction("outbox").objectStore("outbox").getAll();
      request.onsuccess = () => { open.result.close(); resolve(request.result.length); };
    };
  });
  return {pages, outbox};
}"""


def controlled(page) -> None:
    """Wait until the service worker controls the page (it claims it once active)."""
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.wait_for_function("navigator.serviceWorker.controller !== null")


def saved(page, path: str) -> None:
    """Wait until the worker has kept the page at ``path``."""
    page.wait_for_function(f"async () => ({KEPT})().then(kept => kept.pages.includes({path!r}))")


@pytest.fixture
def played(season):
    fixture = FixtureFactory(round__season=season, home__coach__name="Velocity", away__coach__name="Rage")
    fixture.round.date = fixture.date = fixture.round.date.replace(year=2020)
    fixture.round.save()
    fixture.save()
    return fixture


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_a_report_made_offline_waits_and_is_stored_once(live_server, phone, played, password):
    fixture, url = played, live_server.url + played.get_absolute_url()
    log_in(phone, live_server, played.home.coach.user.username, password)
    phone.goto(url)
    controlled(phone)
    phone.reload()  # now through the worker, which keeps this copy
    saved(phone, fixture.get_absolute_url())

    phone.context.set_offline(True)
    phone.fill("input[name=home_score]", "12")
    phone.fill("input[name=away_score]", "8")
    phone.click("text=Report result")
    phone.wait_for_selector("text=waiting to send")
    assert "No signal: kept on this phone" in phone.content()
    assert not Result.objects.exists()

    # The page opens again without a signal: the saved copy, marked as such, with
    # the report still waiting.
    phone.reload()
    phone.wait_for_selector(".offline-note.saved")
    assert phone.locator(".offline-note.saved").inner_text().startswith("Saved ")
    assert "; you are offline" in phone.locator(".offline-note.saved").inner_text()
    phone.wait_for_selector("#offline-outbox >> text=waiting to send")
    assert "Report result" in phone.locator("#offline-outbox").inner_text()
    no_sideways_scroll(phone)
    shot(phone, "phone-offline-report-waiting.png")

    # The signal returns: the report goes, once.
    phone.context.set_offline(False)
    phone.wait_for_selector(".offline-note.sent")
    result = Result.objects.get()
    assert (result.fixture_id, result.home_score, result.away_score, result.status) == (fixture.pk, 12, 8, "reported")
    assert ResultEvent.objects.filter(fixture=fixture, action=ResultEvent.Action.REPORTED).count() == 1
    assert IdempotencyKey.objects.count() == 1
    assert phone.evaluate(KEPT)["outbox"] == 0
    phone.wait_for_function("document.getElementById('offline-outbox') === null")



@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_twice_sent_and_forged_keys_from_the_browser(live_server, phone, played, password):
    log_in(phone, live_server, played.home.coach.user.username, password)
    phone.goto(live_server.url + played.get_absolute_url())
    form = phone.locator(f"form[action='{reverse('league:report_result', args=[played.pk])}']")
    key = form.locator("input[name=idempotency_key]").get_attribute("value")
    token = form.locator("input[name=csrfmiddlewaretoken]").get_attribute("value")
    post = live_server.url + reverse("league:report_result", args=[played.pk])
    headers = {"Referer": live_server.url + played.get_absolute_url()}
    data = {"csrfmiddlewaretoken": token, "home_score": "12", "away_score": "8", "idempotency_key": key}

    forged = phone.request.post(post, form={**data, "idempotency_key": key[:-2] + "xx"}, headers=headers)
    assert forged.status == 400 and "not issued by this site" in forged.text()
    assert not Result.objects.exists()

    first = phone.request.post(post, form=data, headers=headers)
    second = phone.request.post(post, form=data, headers=headers)
    assert first.status == second.status == 200 and first.url == second.url  # both followed to the fixture
    assert "This was already received, so nothing was sent twice." in second.text()
    assert Result.objects.count() == 1
    assert ResultEvent.objects.filter(action=ResultEvent.Action.REPORTED).count() == 1


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_logout_clears_what_the_service_worker_kept(live_server, phone, played, password):
    log_in(phone, live_server, played.home.coach.user.username, password)
    url = live_server.url + played.get_absolute_url()
    phone.goto(url)
    controlled(phone)
    phone.reload()
    saved(phone, played.get_absolute_url())
    phone.context.set_offline(True)
    phone.fill("input[name=home_score]", "12")
    phone.fill("input[name=away_score]", "8")
    phone.click("text=Report result")
    phone.wait_for_selector("text=waiting to send")
    kept = phone.evaluate(KEPT)
    assert played.get_absolute_url() in kept["pages"] and kept["outbox"] == 1

    # Logging out (the signal back, before the report went): nothing of this coach stays.
    phone.context.route("**/fixtures/**", lambda route: route.abort())  # the report cannot go meanwhile
    phone.context.set_offline(False)
    phone.wait_for_timeout(500)
    assert phone.evaluate(KEPT)["outbox"] == 1
    phone.click("text=Log out")
    phone.wait_for_load_state("load")
    kept = phone.evaluate(KEPT)
    assert played.get_absolute_url() not in kept["pages"]
    assert reverse("league:my_fixtures") not in kept["pages"]
    assert kept["outbox"] == 0

    # Offline again, the coach's pages are gone: the fixture page is not served.
    phone.context.unroute("**/fixtures/**")
    phone.context.set_offline(True)
    try:
        phone.goto(url)
        shown = phone.content()
    except PlaywrightError as error:  # the worker itself was dropped by Clear-Site-Data
        assert "ERR_INTERNET_DISCONNECTED" in str(error)
        shown = ""
    assert "Report the result" not in shown


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_another_account_on_the_phone_does_not_see_the_first_ones_pages(live_server, phone, played, password):
    log_in(phone, live_server, played.home.coach.user.username, password)
    phone.goto(live_server.url + reverse("league:my_fixtures"))
    controlled(phone)
    phone.reload()
    phone.context.clear_cookies()  # the session ends without the log-out form (an expiry)
    log_in(phone, live_server, played.away.coach.user.username, password)
    phone.wait_for_function(
        "async () => (await caches.keys()).filter(n => n.startsWith('league-pages-')).length === 1"
    )
    mark = phone.locator("meta[name=league-user]").get_attribute("content")
    names = phone.evaluate("async () => (await caches.keys()).filter(n => n.startsWith('league-pages-'))")
    assert names == [f"league-pages-{mark}"]
    phone.context.set_offline(True)
    phone.goto(live_server.url + played.get_absolute_url())  # the first coach's page, never visited by this one
    assert "You are offline" in phone.content() and "Report the result" not in phone.content()
