"""The widest tables (standings, rosters), on a 390 px phone in a real
Chromium. Dungeon Bowl standings keep the team column, which links to the team
page; the team page's roster is one card per player with the skills in full; the
DreadBall coach page's roster fits the screen. Screenshots go to
artifacts/screenshots/phone-*.png."""

from __future__ import annotations

import pytest
from django.urls import reverse

from league.dreadball.models import DreadBallSettings
from league.dungeonbowl.models import Team
from tests.browser.chromium import CHROMIUM_ONLY, no_sideways_scroll, shot
from tests.dreadball.builders import dreadball_season
from tests.dungeonbowl.builders import db_season
from tests.support.factories import LeagueFactory, SeasonFactory

pytestmark = CHROMIUM_ONLY


def inside_the_screen(page, selector: str) -> bool:
    """Every element ``selector`` finds is shown whole within the window's width."""
    return page.evaluate(
        """(selector) => [...document.querySelectorAll(selector)].every(el => {
             const r = el.getBoundingClientRect();
             return r.width > 0 && r.left >= 0 && r.right <= document.documentElement.clientWidth;
           })""",
        selector,
    )


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_dungeon_bowl_standings_and_team_page_on_a_phone(live_server, phone, organiser):
    season = db_season(organiser, teams=8, divisions=2)
    league = season.league

    phone.goto(live_server.url + league.get_absolute_url())
    no_sideways_scroll(phone)
    # The team column is kept, in view, and it links to the team page.
    team_links = phone.locator("table.table td.ident a")
    assert team_links.count() == 8
    assert inside_the_screen(phone, "table.table td.ident")
    shot(phone, "phone-db-standings.png")
    href = team_links.first.get_attribute("href")
    team = next(t for t in Team.objects.filter(league=league)
                if href.startswith(reverse("dungeonbowl:team_detail", args=[league.slug, t.slug])))
    team_links.first.click()
    phone.wait_for_url(f"**{reverse('dungeonbowl:team_detail', args=[league.slug, team.slug])}*")

    # The roster: a card per player, the skills in full inside the screen.
    no_sideways_scroll(phone)
    cards = phone.locator("table.roster tbody tr")
    assert cards.count() == team.players.count() > 0
    assert inside_the_screen(phone, "table.roster td[data-label=Skills]")
    assert inside_the_screen(phone, "table.roster td.ident")
    shot(phone, "phone-db-team.png")
    assert phone.violations == [], phone.violations


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_dreadball_coach_page_roster_fits_a_phone(live_server, phone, organiser):
    league = LeagueFactory(name="DreadBall Neon", slug="neon", game_system="dreadball", organisers=[organiser])
    DreadBallSettings.objects.create(league=league)
    season = dreadball_season(season=SeasonFactory(league=league), coaches=4, played_rounds=1, players=8)
    entry = season.entries.first()

    phone.goto(live_server.url + reverse("league:coach_detail", args=[league.slug, entry.coach_id]))
    no_sideways_scroll(phone)
    assert phone.locator("table.roster tbody tr").count() == 8
    assert inside_the_screen(phone, "table.roster td")
    shot(phone, "phone-dr-coach.png")
    assert phone.violations == [], phone.violations
