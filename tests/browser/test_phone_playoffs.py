"""The commissioner runs the play-offs on a phone-sized screen (390 px wide) in a
real Chromium (DB-5b, DB-16): settles a tie by a roll, starts the semi-finals, and
everyone sees the bracket on the league page, with no Content-Security-Policy
violation and nothing wider than the screen."""

import pytest
from django.urls import reverse

from league.dungeonbowl.models import DiceRoll, PlayoffGame, PlayoffTie
from tests.browser.chromium import CHROMIUM_ONLY, log_in, no_sideways_scroll, screenshot_path
from tests.dungeonbowl.builders import db_season
from tests.dungeonbowl.playoff_builders import play_regular
from tests.support.factories import UserFactory

pytestmark = CHROMIUM_ONLY


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_commissioner_settles_a_tie_and_starts_the_play_offs_on_a_phone(live_server, phone, password):
    organiser = UserFactory(username="boss")
    season = db_season(organiser, teams=5, playoffs=1)
    play_regular(season, organiser, ["Team 01", "Team 02", "Team 03", "Team 04", "Team 05"],
                 unplayed={frozenset({"Team 04", "Team 05"})})
    slug = season.league.slug

    log_in(phone, live_server, "boss", password)
    phone.goto(live_server.url + reverse("dungeonbowl:playoffs", args=[slug]))
    phone.wait_for_selector("text=places 4 and 5: Team 04, Team 05")
    no_sideways_scroll(phone)
    phone.fill("input[name=dice]", "2 5")
    phone.click("text=Settle by a D6 each")
    phone.wait_for_selector("text=Tie settled by a roll: Team 05, Team 04")
    phone.click("text=Start the play-offs")
    phone.wait_for_selector("text=The play-offs have started")
    assert PlayoffTie.objects.get().teams == ["Team 05", "Team 04"]
    assert DiceRoll.objects.filter(purpose="tie").count() == 2 and PlayoffGame.objects.count() == 2

    phone.goto(live_server.url + reverse("league:league_detail", args=[slug]))
    phone.wait_for_selector("svg[aria-labelledby='bracket-title bracket-desc']")
    box = phone.locator("svg[aria-labelledby='bracket-title bracket-desc']").bounding_box()
    assert 300 <= box["width"] <= 390
    assert "Semi-final 1: Team 01 v Team 05, to be played." in phone.content()
    no_sideways_scroll(phone)
    phone.locator("#playoffs").screenshot(path=screenshot_path("phone-bracket.png"))
    assert phone.violations == [], phone.violations
