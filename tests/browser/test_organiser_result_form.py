"""The organiser's result form on a phone (390 px), every game: the first inputs are
the scores, the special cases are folded until opened, and a case ticked without
its reason comes back open with the reason asked for (nothing written)."""

import pytest

from league.dreadball.models import DreadBallSettings
from league.models import Fixture, Result
from tests.browser.chromium import CHROMIUM_ONLY, log_in, no_sideways_scroll, shot
from tests.dungeonbowl.builders import db_season
from tests.support.factories import EntryFactory, FixtureFactory, LeagueFactory, SeasonFactory

pytestmark = CHROMIUM_ONLY


def guildball(organiser, season):
    return FixtureFactory(round__season=season, date=season.start_date, home__coach__name="Velocity",
                          away__coach__name="Rage")


def dreadball(organiser, season):
    league = LeagueFactory(name="Neon Dome", slug="neon", game_system="dreadball", organisers=[organiser])
    DreadBallSettings.objects.create(league=league)
    dr_season = SeasonFactory(league=league, name="Season 1")
    return FixtureFactory(
        round__season=dr_season, date=dr_season.start_date,
        home=EntryFactory(season=dr_season, coach__name="Dana", team="Voss Voltage"),
        away=EntryFactory(season=dr_season, coach__name="Tavi", team="Rell Riptide"),
    )


def dungeonbowl(organiser, season):
    return Fixture.objects.filter(round__season=db_season(organiser, teams=4), round__number=1).first()


# The game, its fixture, the first inputs of the form, the abandoned box's case in
# words, and what the browser wants filled before it sends the form.
GAMES = [
    ("guildball", guildball, ["home_score", "away_score"], "Abandoned", {"home_score": "6", "away_score": "4"}),
    ("dreadball", dreadball, ["winner", "difference", "rush"], "Abandoned", {}),
    ("dungeonbowl", dungeonbowl, ["home_score", "away_score"], "Unplayed", {}),
]

FIRST_INPUTS = """form => [...new Set([...form.querySelectorAll('input, select, textarea')]
    .filter(el => el.type !== 'hidden' && el.checkVisibility()).map(el => el.name))]"""


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
@pytest.mark.parametrize("game, make, first, case, scores", GAMES, ids=[game for game, *_ in GAMES])
def test_the_scores_come_first_and_the_special_cases_are_folded(
    live_server, phone, organiser, season, password, game, make, first, case, scores,
):
    fixture = make(organiser, season)
    log_in(phone, live_server, organiser.username, password)
    phone.goto(live_server.url + fixture.get_absolute_url())
    form = phone.locator(f"form[action='/fixtures/{fixture.pk}/record/']")
    shown = form.evaluate(FIRST_INPUTS)
    assert shown[:len(first)] == first, shown
    assert not {"abandoned", "abandoned_reason", "override", "acknowledge"} & set(shown), "folded away"
    folded = form.locator("details.special-cases")
    assert folded.get_attribute("open") is None
    form.locator("details.special-cases > summary").scroll_into_view_if_needed()
    no_sideways_scroll(phone)
    shot(phone, f"organiser-result-form-{game}-390.png")

    for name, value in scores.items():
        form.locator(f"input[name={name}]").fill(value)
    form.locator("details.special-cases > summary").click()
    form.locator("input[name=abandoned]").check()
    form.locator("button[type=submit]").click()  # no reason: the browser lets it go, the server asks
    phone.wait_for_selector(f"text=Give a reason: you ticked \u201c{case}\u201d.")
    form = phone.locator(f"form[action='/fixtures/{fixture.pk}/record/']")
    assert form.locator("details.special-cases").get_attribute("open") is not None
    assert not Result.objects.filter(fixture=fixture).exists()
    form.locator("input[name=abandoned_reason]").scroll_into_view_if_needed()
    shot(phone, f"organiser-result-form-{game}-390-reason-asked.png")
