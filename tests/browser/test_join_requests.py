"""Join links in a real Chromium at 390 px and 1280 px, once the season's fixtures
exist (LG-1): a coach the organiser pasted ("Ivy Thorne", no account) opens the
join link, signs up from the header, verifies her address from the mail, comes
back to the join page, says "I am Ivy Thorne", and the organiser confirms on the
dashboard: her /me/ shows her fixtures; the set-up page's Copy button copies the
link and says so. A newcomer logs in from the join page, asks to join, and the
organiser puts them in the next season."""

from __future__ import annotations

import datetime
import re

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from league.permissions import make_organiser
from league.models import Coach, Entry, JoinRequest
from league.people import joining
from league.services.seasons import generate_fixtures
from tests.browser.chromium import CHROMIUM_ONLY, log_in, new_page, no_sideways_scroll, shot
from tests.support.factories import PASSWORD, EntryFactory, LeagueFactory, SeasonFactory, UserFactory

pytestmark = CHROMIUM_ONLY


def _started_season():
    """A Guild Ball league whose season started three weeks ago with its fixtures
    out: Ivy Thorne pasted without an account, Rook and Wren with theirs."""
    organiser = UserFactory(username="organiser")
    make_organiser(organiser)
    league = LeagueFactory(name="Harbour League", slug="harbour", organisers=[organiser])
    season = SeasonFactory(league=league, name="Season 1", start_date=timezone.localdate() - datetime.timedelta(days=21))
    EntryFactory(season=season, coach__name="Ivy Thorne", coach__user=None, coach__email="", team="Fishermen")
    for name in ("Rook", "Wren"):
        EntryFactory(season=season, coach__name=name)
    generate_fixtures(season=season, by=organiser)
    link = joining.create_link(season=season, by=organiser, max_uses=None, closes_on=None)
    return organiser, league, season, link


def _mail_link(to: str) -> str:
    message = [m for m in mail.outbox if to in m.to][-1]
    return re.search(r"http://\S+", message.body).group(0)


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_pasted_coach_claims_her_place_through_the_join_link(live_server, browser, size):
    organiser, league, season, link = _started_season()
    join_url = live_server.url + reverse("league:join", args=[joining.make_token(link)])
    ivy = new_page(browser, size)

    ivy.goto(join_url)
    ivy.wait_for_selector("text=Season 1 has started")
    assert "Ivy Thorne" in ivy.inner_text("#claim")
    no_sideways_scroll(ivy)
    shot(ivy, f"join-started-anonymous-{size}.png")
    # The header's Sign up, not the page's: the join link survives either.
    ivy.click("header >> text=Sign up")
    ivy.fill("input[name=username]", "ivy")
    ivy.fill("input[name=email]", "ivy@example.com")
    ivy.fill("input[name=password1]", PASSWORD)
    ivy.fill("input[name=password2]", PASSWORD)
    ivy.click("main button:text('Sign up')")
    ivy.wait_for_selector("text=Check your email")
    ivy.goto(_mail_link("ivy@example.com"))
    ivy.click("button:text('Verify and log in')")
    ivy.wait_for_url("**/join/**")
    assert "Season 1 has started" in ivy.inner_text("main")
    no_sideways_scroll(ivy)
    shot(ivy, f"join-started-logged-in-{size}.png")
    ivy.click("button:text('I am Ivy Thorne')")
    ivy.wait_for_selector("text=the organiser confirms it")
    assert JoinRequest.objects.get().kind == "claim"

    boss = new_page(browser, size)
    log_in(boss, live_server, "organiser", PASSWORD)
    boss.goto(live_server.url + reverse("league:organiser_dashboard", args=[league.slug]))
    boss.wait_for_selector("#join-requests")
    no_sideways_scroll(boss)
    shot(boss, f"join-claim-dashboard-{size}.png")
    boss.click("button:text('Confirm: they are Ivy Thorne')")
    boss.wait_for_selector("text=ivy is Ivy Thorne now")
    assert Coach.objects.get(name="Ivy Thorne").user.username == "ivy"

    # The organiser copies the link from the set-up page: the button says it did.
    boss.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
    boss.goto(live_server.url + reverse("league:season_setup", args=[league.slug]))
    boss.click("button.copy")
    boss.wait_for_selector(".copy-state:text('Copied')")
    no_sideways_scroll(boss)
    shot(boss, f"join-links-copy-{size}.png")

    ivy.goto(live_server.url + reverse("league:my_fixtures"))
    text = ivy.inner_text("main")
    assert "Rook" in text and "Wren" in text and "not linked to a coach" not in text
    no_sideways_scroll(ivy)
    shot(ivy, f"join-claimed-me-{size}.png")
    assert not ivy.violations and not boss.violations
    ivy.context.close()
    boss.context.close()


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_newcomer_after_the_fixtures_is_put_in_the_next_season(live_server, browser, size):
    organiser, league, season, link = _started_season()
    later = SeasonFactory(league=league, name="Season 2", start_date=timezone.localdate() + datetime.timedelta(days=90))
    UserFactory(username="sam", email="sam@example.com")
    join_url = live_server.url + reverse("league:join", args=[joining.make_token(link)])
    sam = new_page(browser, size)

    sam.goto(join_url)
    sam.click("main a.button:text('Log in')")
    sam.fill("input[name=username]", "sam")
    sam.fill("input[name=password]", PASSWORD)
    sam.click("main button[type=submit]")
    sam.wait_for_url("**/join/**")
    sam.fill("input[name=name]", "Sam Hale")
    sam.click("button:text('Ask to join Season 1')")
    sam.wait_for_selector("text=waits for the organiser")
    assert not Entry.objects.filter(coach__user__username="sam").exists()
    no_sideways_scroll(sam)
    shot(sam, f"join-newcomer-waits-{size}.png")

    boss = new_page(browser, size)
    log_in(boss, live_server, "organiser", PASSWORD)
    boss.goto(live_server.url + reverse("league:organiser_dashboard", args=[league.slug]))
    boss.wait_for_selector("#join-requests")
    no_sideways_scroll(boss)
    shot(boss, f"join-newcomer-dashboard-{size}.png")
    boss.click("button:text('Put them in Season 2')")
    boss.wait_for_selector("text=Sam Hale is in Season 2")
    assert Entry.objects.get(coach__user__username="sam").season == later

    assert not sam.violations and not boss.violations
    sam.context.close()
    boss.context.close()
