"""A coach's profile in a real Chromium at a phone's and a laptop's width: every
league and game, a title, the record per game, the frequent opponents and the
results fit the screen (wide tables scroll inside their box); the opponent's
record opens the head-to-head page. Screenshots: artifacts/screenshots/profile-*.png."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse

from league.models import Coach
from league.standings.season import standings_for
from tests.browser.chromium import CHROMIUM_ONLY, new_page, no_sideways_scroll, shot
from tests.support.builders import season_with_results
from tests.support.factories import LeagueFactory, SeasonFactory
from tests.profiles.test_profiles import _meeting

pytestmark = CHROMIUM_ONLY


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_profile_at_390_and_1280_px(live_server, browser, size):
    # A finished DreadBall season (a title for its top), then the same coach in two
    # Guild Ball leagues against the same opponent.
    dread = season_with_results(coaches=4, played_rounds=3, season=SeasonFactory(
        league=LeagueFactory(name="Tree Sharks Open", game_system="dreadball"), name="Season One",
        start_date=datetime.date(2026, 3, 2)))
    champion = next(row for row in standings_for(dread) if row.position == 1)
    coach = Coach.objects.get(pk=champion.coach_id)
    rival = Coach.objects.create(name="Morgan Rivers")
    north = SeasonFactory(league=LeagueFactory(name="Northern Guilds"), name="Spring 2026",
                          start_date=datetime.date(2026, 4, 6))
    south = SeasonFactory(league=LeagueFactory(name="Southern Guild Ball League"), name="Autumn 2026",
                          start_date=datetime.date(2026, 9, 7))
    _meeting(north, coach, rival, home_score=12, away_score=8, number=1)
    _meeting(south, rival, coach, home_score=12, away_score=10, number=1)

    page = new_page(browser, size)
    page.goto(live_server.url + reverse("coach_profile", args=[coach.pk]))
    no_sideways_scroll(page)
    body = page.inner_text("main")
    for shown in ("League Champion", "Tree Sharks Open", "Northern Guilds", "Morgan Rivers", "Guild Ball", "DreadBall"):
        assert shown in body, shown
    assert "@" not in body
    shot(page, f"profile-{size}.png")
    page.click(f"a[href='{reverse('head_to_head', args=[coach.pk, rival.pk])}']")
    page.wait_for_url(f"**{reverse('head_to_head', args=[coach.pk, rival.pk])}")
    no_sideways_scroll(page)
    assert "Southern Guild Ball League" in page.inner_text("main")
    shot(page, f"head-to-head-{size}.png")
    assert not page.violations
    page.context.close()
