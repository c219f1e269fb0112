"""A new person starts a Guild Ball or a DreadBall league from nothing to
its first approved result in a real Chromium at 390 px and 1280 px, without the
admin: signs up, verifies the address from the mail, creates the league, enters
coaches by pasted names and by a join link (a second person signs up through it),
generates the fixtures; the joiner reports, the organiser (who joined to play as
well) confirms and approves. Every click and form submission is counted and
printed per game; no address under /admin/ is ever requested."""

from __future__ import annotations

import datetime
import re

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from league.models import Coach, Fixture, JoinLink, League, Result
from tests.browser.chromium import CHROMIUM_ONLY, new_page, no_sideways_scroll, shot
from tests.support.factories import PASSWORD

pytestmark = CHROMIUM_ONLY


class Counted:
    """A page whose clicks (a button, a link, a link opened from a mail or a chat)
    are counted, and whose every requested address is kept."""

    def __init__(self, page, counts: dict, who: str):
        self.page, self.counts, self.who = page, counts, who
        self.requested: list[str] = []
        page.on("request", lambda request: self.requested.append(request.url))

    def click(self, selector: str) -> None:
        self.counts[self.who] += 1
        self.page.click(selector)
        self.page.wait_for_load_state()

    def open(self, url: str) -> None:
        """A link followed from outside the site (the mail, the shared join link)."""
        self.counts[self.who] += 1
        self.page.goto(url)


def _mail_link(to: str) -> str:
    message = [m for m in mail.outbox if to in m.to][-1]
    return re.search(r"http://\S+", message.body).group(0)


def _sign_up_and_verify(person: Counted, live_server, username: str, start: str | None = None) -> None:
    page = person.page
    if start is None:
        person.open(live_server.url + reverse("signup"))
    page.fill("input[name=username]", username)
    page.fill("input[name=email]", f"{username}@example.com")
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    no_sideways_scroll(page)
    person.click("button:text('Sign up')")
    page.wait_for_selector("text=Check your email")
    person.open(_mail_link(f"{username}@example.com"))
    person.click("button:text('Verify and log in')")


REPORTS = {
    "guildball": {"fill": {"input[name=home_score]": "12", "input[name=away_score]": "6"}, "check": ()},
    "dreadball": {"fill": {"input[name=difference]": "7", "input[name=rush]": "8"}, "check": ("input[name=winner][value=home]",)},
}


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
@pytest.mark.parametrize("size", ["phone", "desktop"])
@pytest.mark.parametrize("game", ["guildball", "dreadball"])
def test_start_a_league_to_its_first_approved_result(live_server, browser, game, size):
    counts = {"organiser": 0, "joiner": 0}
    organiser = Counted(new_page(browser, size), counts, "organiser")
    joiner = Counted(new_page(browser, size), counts, "joiner")
    page = organiser.page

    # Sign up, verify, create the league (the verification lands on the new-league page).
    _sign_up_and_verify(organiser, live_server, "founder")
    page.wait_for_url(f"**{reverse('league:new_league')}")
    shot(page, f"start-{game}-choose-{size}.png")
    organiser.click(f"a[href='?game={game}']")
    page.fill("input[name=name]", f"Harbour {game}")
    # A season that started four weeks ago, so every round can be reported today.
    page.fill("input[name=start_date]", str(timezone.localdate() - datetime.timedelta(days=28)))
    no_sideways_scroll(page)
    shot(page, f"start-{game}-form-{size}.png")
    organiser.click("button:text('Create the league')")
    league = League.objects.get()
    page.wait_for_url(f"**{reverse('league:season_setup', args=[league.slug])}")

    # Entrants: a pasted name, and a join link the organiser uses too (they play as well).
    # A name given twice is refused with its line, nothing entered; then once.
    page.fill("textarea[name=names]", "Brick\n\nbrick\n")
    organiser.click("button:text('Enter these names')")
    page.wait_for_selector("text=Line 3 repeats line 1: brick.")
    page.fill("textarea[name=names]", "Brick\n")
    organiser.click("button:text('Enter these names')")
    page.wait_for_selector("text=Entered 1: Brick.")
    organiser.click("button:text('Make a join link')")
    join_url = page.input_value("input.join-url")
    assert JoinLink.objects.filter(season__league=league).count() == 1
    no_sideways_scroll(page)
    shot(page, f"start-{game}-setup-{size}.png")
    organiser.open(join_url)
    organiser.click("button:text('Join')")
    page.wait_for_url(f"**{reverse('league:season_setup', args=[league.slug])}")

    # The second person opens the shared link, signs up through it and joins.
    joiner.open(join_url)
    joiner.click("a.button:text('Sign up')")
    _sign_up_and_verify(joiner, live_server, "joiner", start="join page")
    joiner.page.wait_for_url(f"**/join/**")
    no_sideways_scroll(joiner.page)
    joiner.click("button:text('Join')")
    joiner.page.wait_for_url(f"**{reverse('league:my_fixtures')}")
    assert sorted(Coach.objects.values_list("name", flat=True)) == ["Brick", "founder", "joiner"]

    # One click for the fixtures.
    organiser.click("button:text('Generate fixtures')")
    page.wait_for_selector("text=Fixtures generated")
    fixture = Fixture.objects.get(
        home__coach__name__in=["founder", "joiner"], away__coach__name__in=["founder", "joiner"]
    )

    # The joiner reports from their home page, the organiser confirms and approves.
    joiner.page.goto(live_server.url + reverse("league:my_fixtures"))
    joiner.click(f"a[href='{fixture.get_absolute_url()}']")
    report = REPORTS[game]
    if fixture.home.coach.name != "joiner" and game == "guildball":
        report = {"fill": {"input[name=home_score]": "6", "input[name=away_score]": "12"}, "check": ()}
    for selector in report["check"]:
        joiner.page.check(selector)
    for selector, value in report["fill"].items():
        joiner.page.fill(selector, value)
    no_sideways_scroll(joiner.page)
    joiner.click("button:text('Report result')")
    joiner.page.wait_for_selector("text=Waiting for your opponent to confirm")

    organiser.click("header a:text('My fixtures')")
    organiser.click(f"a[href='{fixture.get_absolute_url()}']")
    organiser.click("button:text('Confirm result')")
    organiser.click("button:text('Approve result')")
    assert Result.objects.get(fixture=fixture).status == Result.Status.APPROVED
    no_sideways_scroll(page)
    shot(page, f"start-{game}-approved-{size}.png")

    visited = organiser.requested + joiner.requested
    assert not [url for url in visited if "/admin/" in url], "an admin address was visited"
    assert not page.violations and not joiner.page.violations
    total = counts["organiser"] + counts["joiner"]
    print(f"\n[starting a league] {game} at {size}: {counts['organiser']} clicks/submissions by the organiser, "
          f"{counts['joiner']} by the joiner, {total} in all, from sign-up to the first approved result")
    page.context.close()
    joiner.page.context.close()
