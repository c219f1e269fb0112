"""A withdrawal mid-season in a real Chromium at 390 px and 1280 px (LG-2): the
organiser withdraws a coach from the Coaches page; the standings keep the row
marked "withdrew <day>", the unplayed fixtures stay listed as "not played: <name>
withdrew" and their pages say so, the calendar feed marks them cancelled, each
opponent got a mail, and the withdrawn coach's /me/ has nothing left to do.
(The same steps through the test client, with the opt-outs and the table's
figures: tests/people/test_withdrawal_explained.py.)"""

from __future__ import annotations

import datetime

import icalendar
import pytest
from django.core import mail
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format

from league.models import Fixture, Result
from tests.browser.chromium import CHROMIUM_ONLY, log_in, new_page, no_sideways_scroll, shot
from tests.support.builders import season_with_results
from tests.support.factories import LeagueFactory, SeasonFactory

pytestmark = CHROMIUM_ONLY


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_withdrawal_explains_itself_everywhere(live_server, browser, organiser, password, size):
    league = LeagueFactory(name="Midas Cup", slug="midas", organisers=[organiser])
    # Round 1 played, round 2 this week, round 3 next week: mid-season.
    season = SeasonFactory(league=league, name="Season 1", start_date=timezone.localdate() - datetime.timedelta(days=8))
    season_with_results(coaches=4, played_rounds=1, season=season)
    dmitri = season.entries.select_related("coach__user").order_by("pk").first()
    dmitri.coach.name = "Dmitri Volkov"
    dmitri.coach.save()
    theirs = Fixture.objects.filter(Q(home=dmitri) | Q(away=dmitri), round__season=season).select_related(
        "home__coach", "away__coach")
    unplayed = list(theirs.exclude(result__status=Result.Status.APPROVED).order_by("round__number"))
    assert len(unplayed) == 2
    opponents = {(f.away if f.home_id == dmitri.pk else f.home).coach.email for f in unplayed}
    mail.outbox.clear()

    page = new_page(browser, size)
    log_in(page, live_server, organiser.username, password)
    page.goto(live_server.url + reverse("league:organiser_coaches", args=[league.slug]))
    page.locator("tr", has_text="Dmitri Volkov").get_by_role("button", name="Withdraw…").click()
    page.wait_for_selector("text=Withdraw Dmitri Volkov from Season 1?")
    no_sideways_scroll(page)
    shot(page, f"withdraw-confirm-{size}.png")
    page.get_by_role("button", name="Withdraw Dmitri Volkov").click()
    page.wait_for_selector("text=Dmitri Volkov has withdrawn from Season 1")
    today = timezone.localdate()

    # The standings keep the row, marked with the day.
    page.goto(live_server.url + league.get_absolute_url())
    row = page.locator("table.table tr", has=page.get_by_role("link", name="Dmitri Volkov", exact=True))
    assert f"withdrew {date_format(today, 'j M')}" in row.inner_text()
    no_sideways_scroll(page)
    shot(page, f"withdrawn-standings-{size}.png")

    # The fixtures stay listed as not played, and their pages answer and say why.
    for fixture in unplayed:
        page.goto(live_server.url + reverse("league:fixtures", args=[league.slug]) + f"?round={fixture.round.number}")
        line = page.locator("li.fixture", has=page.locator(f'a[href="{fixture.get_absolute_url()}"]'))
        assert "not played: Dmitri Volkov withdrew" in line.inner_text()
        no_sideways_scroll(page)
        response = page.goto(live_server.url + fixture.get_absolute_url())
        assert response.status == 200
        assert page.get_by_text("Not played: Dmitri Volkov withdrew").is_visible()
        assert f"withdrew from Season 1 on {date_format(today, 'j M Y')}" in page.content()
        no_sideways_scroll(page)
    shot(page, f"withdrawn-fixture-{size}.png")

    # The calendar keeps the events, cancelled.
    feed = page.request.get(live_server.url + reverse("league:league_ics", args=[league.slug]))
    events = {str(e["UID"]).split("@")[0]: e for e in icalendar.Calendar.from_ical(feed.body()).walk("VEVENT")}
    for fixture in unplayed:
        assert events[f"fixture-{fixture.pk}"]["STATUS"] == "CANCELLED"
    played = theirs.get(result__status=Result.Status.APPROVED)
    assert "STATUS" not in events[f"fixture-{played.pk}"]

    # Each opponent was told, once (the queued mail ran with the request's commit).
    told = [m for m in mail.outbox if "Dmitri Volkov withdrew" in m.subject]
    assert sorted(address for m in told for address in m.to) == sorted(opponents)

    # The withdrawn coach has nothing left to do in the season.
    page.context.clear_cookies()
    log_in(page, live_server, dmitri.coach.user.username, password)
    assert "Nothing: you are up to date." in page.content()
    assert "Report:" not in page.content() and "Confirm or dispute" not in page.content()
    no_sideways_scroll(page)
    shot(page, f"withdrawn-me-{size}.png")
    assert page.violations == [], page.violations
    page.context.close()
