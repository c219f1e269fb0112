"""Report forms made for thumbs, in a real Chromium at 390 px: the three report forms filled
with thumbs (add a player line, steppers, toggles), sent, and the database holds
what was tapped; the deck counter and the draft's running total follow each tap.
Every form fits 360 px and its tap targets are at least 44 px. The screenshots go
to artifacts/screenshots/report-*-phone.png."""

import pytest
from django.urls import reverse

from campaigns.dealing import phases
from campaigns.models import Achievement, Deck
from league.dreadball.models import DreadBallSettings
from league.dungeonbowl.models import GameReport, Position, Team
from league.models import Fixture, Result
from tests.browser.chromium import CHROMIUM_ONLY, log_in, no_sideways_scroll, shot
from tests.campaigns.factories import make_campaign, user_of
from tests.dungeonbowl.builders import db_league, db_season
from tests.support.factories import CoachFactory, EntryFactory, FixtureFactory, LeagueFactory, SeasonFactory

pytestmark = CHROMIUM_ONLY

# Every visible control of the form, with what a thumb taps to reach it: the label
# that wraps it or names it (a box is ticked through its label), else the control.
SMALL_TARGETS = """form => Array.from(form.querySelectorAll("input:not([type=hidden]), select, textarea, button, summary"))
  .filter(el => el.offsetParent !== null)
  .map(el => {
    const label = el.closest("label") || (el.id && (el.type === "checkbox" || el.type === "radio")
      ? form.querySelector(`label[for="${el.id}"]`) : null);
    const box = (label || el).getBoundingClientRect();
    return [el.name || el.textContent.trim() || el.getAttribute("aria-label"), Math.round(box.width), Math.round(box.height)];
  })
  .filter(([, w, h]) => w < 44 || h < 44)"""


def fits_and_taps(page, form: str) -> None:
    """No sideways scroll at 360 px, and every control of ``form`` is at least 44 px."""
    page.set_viewport_size({"width": 360, "height": 780})
    no_sideways_scroll(page)
    assert page.eval_on_selector(form, SMALL_TARGETS) == []
    page.set_viewport_size({"width": 390, "height": 844})


def snap(page, name: str) -> None:
    """A screenshot of the whole page from its top (the league's sticky tabs where they belong)."""
    page.evaluate("window.scrollTo(0, 0)")
    shot(page, name)


def tap(page, scope, name: str, times: int = 1) -> None:
    for _ in range(times):
        scope.get_by_role("button", name=name, exact=True).click()


def past(fixture) -> None:
    Fixture.objects.filter(pk=fixture.pk).update(date=fixture.date.replace(year=2020))


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_dungeon_bowl_report_with_player_lines_db9_db13(live_server, phone, organiser, password):
    season = db_season(organiser, teams=4)
    fixture = Fixture.objects.with_related().filter(round__season=season).first()
    past(fixture)
    home, away = fixture.home.dungeonbowl.team, fixture.away.dungeonbowl.team
    log_in(phone, live_server, fixture.home.coach.user.username, password)
    phone.goto(live_server.url + fixture.get_absolute_url())
    form = phone.locator("form[action$='/report/']")
    # The script keeps the empty lines behind "Add a player line": no grid of zeros.
    assert form.locator("[data-player-line]:visible").count() == 0
    tap(phone, form, f"One more: {home.name}: touchdowns")
    form.get_by_label("How the game ended").select_option("touchdown")
    form.get_by_label("Winnings dice rolled at the table (optional)").fill("5 2")
    home_lines, away_lines = form.locator("fieldset.player-lines").nth(0), form.locator("fieldset.player-lines").nth(1)
    home_lines.get_by_role("button", name="Add a player line").click()
    line = home_lines.locator("[data-player-line]:visible").first
    scorer = home.players.get(number=1)
    line.get_by_label("Player").select_option(str(scorer.pk))
    tap(phone, line, "One more: TD")
    tap(phone, line, "One more: Casualties (SPP)", 2)
    line.get_by_text("MVP").click()
    # A second line offered, then taken back: it sends nothing.
    home_lines.get_by_role("button", name="Add a player line").click()
    spare = home_lines.locator("[data-player-line]:visible").nth(1)
    tap(phone, spare, "One more: Completions")
    spare.get_by_role("button", name="Remove this line").click()
    away_lines.get_by_role("button", name="Add a player line").click()
    hurt = away.players.get(number=3)
    line = away_lines.locator("[data-player-line]:visible").first
    line.get_by_label("Player").select_option(str(hurt.pk))
    line.get_by_label("Injury suffered").select_option("serious_injury")
    tap(phone, line, "One more: Interceptions")
    line.get_by_text("MVP").click()
    fits_and_taps(phone, "form[action$='/report/']")
    snap(phone, "report-dungeonbowl-phone.png")
    assert not phone.violations

    form.get_by_role("button", name="Report result").click()
    phone.wait_for_selector("text=Waiting for your opponent to confirm")
    result = Result.objects.get(fixture=fixture)
    assert (result.status, result.home_score, result.away_score) == ("reported", 1, 0)
    report = GameReport.objects.get(result=result)
    lines = {(line.player_id, line.touchdowns, line.completions, line.interceptions, line.casualties, line.mvp, line.injury)
             for line in report.players.all()}
    assert lines == {(scorer.pk, 1, 0, 0, 2, True, ""), (hurt.pk, 0, 0, 1, 0, True, "serious_injury")}
    assert (report.home_cas, report.dice) == (2, [5, 2])

    # The organiser's correction form shows the same two lines, filled, and the rest hidden.
    phone.context.clear_cookies()
    log_in(phone, live_server, organiser.username, password)
    phone.goto(live_server.url + fixture.get_absolute_url())
    record = phone.locator("form[action$='/record/']")
    assert record.locator("[data-player-line]:visible").count() == 2
    assert record.locator("[data-player-line]:visible select[name$='_player']").nth(0).input_value() == str(scorer.pk)
    fits_and_taps(phone, "form[action$='/record/']")


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_dreadball_report_with_steppers_and_toggles_dr3(live_server, phone, organiser, password):
    league = LeagueFactory(name="Neon Dome", slug="neon", game_system="dreadball", organisers=[organiser])
    DreadBallSettings.objects.create(league=league)
    season = SeasonFactory(league=league, name="Season 1")
    fixture = FixtureFactory(
        round__season=season, date=season.start_date.replace(year=2020),
        home=EntryFactory(season=season, coach__name="Dana", team="Voss Voltage"),
        away=EntryFactory(season=season, coach__name="Tavi", team="Rell Riptide"),
    )
    log_in(phone, live_server, fixture.home.coach.user.username, password)
    phone.goto(live_server.url + fixture.get_absolute_url())
    form = phone.locator("form[action$='/report/']")
    form.locator("label", has_text=f"{fixture.home} won").click()  # a big toggle
    tap(phone, form, "One more: Final score difference", 3)
    form.locator("input[name=rush]").fill("13")
    tap(phone, form, "One more: Rush the game ended in")
    fits_and_taps(phone, "form[action$='/report/']")
    snap(phone, "report-dreadball-phone.png")
    form.get_by_role("button", name="Report result").click()
    phone.wait_for_selector("text=Waiting for your opponent to confirm")
    result = Result.objects.get(fixture=fixture)
    assert (result.status, result.outcome) == ("reported", "home")
    assert (result.dreadball_detail.difference, result.dreadball_detail.rush) == (3, 14)
    assert not phone.violations


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_guild_ball_report_deck_counter_and_plot_cards_gb16_gb17(live_server, phone, season, organiser, password):
    a, b = make_campaign(season, 2, organiser=organiser)
    fixture = phases.phase_for(a).next_fixture
    side = "home" if fixture.home_id == a.entry_id else "away"
    log_in(phone, live_server, user_of(a).username, password)
    page_url = live_server.url + reverse("campaigns:fixture_page", args=["midlands", fixture.pk])
    phone.goto(page_url)
    deck_form = phone.locator("form[action$='/deck/']")
    counter = deck_form.locator("[data-counter]")
    assert counter.inner_text().startswith("0 of 12 chosen")
    toggles = deck_form.locator("label:has(input[type=checkbox])")
    for i in range(12):
        toggles.nth(i).click()  # a big toggle
    assert counter.inner_text() == "12 of 12 chosen"
    toggles.nth(12).click()
    assert counter.inner_text() == "13 of 12 chosen: untick 1"
    toggles.nth(12).click()
    fits_and_taps(phone, "form[action$='/deck/']")
    deck_form.get_by_role("button", name="Register deck").click()
    phone.wait_for_selector("text=Change your deck")
    deck = Deck.objects.get(fixture=fixture, coach=a)
    assert deck.cards.count() == 12

    phone.goto(live_server.url + fixture.get_absolute_url())
    form = phone.locator("form[action$='/report/']")
    tap(phone, form, f"One more: {fixture.home} (VP)", 12)  # GB-8: the score first
    tap(phone, form, f"One more: {fixture.away} (VP)", 6)
    form.locator("input[type=checkbox]").check()  # played before its date
    fits_and_taps(phone, "form[action$='/report/']")
    snap(phone, "report-guildball-phone.png")
    form.get_by_role("button", name="Report result").click()
    phone.wait_for_selector("text=Waiting for your opponent to confirm")
    result = Result.objects.get(fixture=fixture)
    assert (result.home_score, result.away_score) == (12, 6)

    phone.goto(page_url)
    cards = phone.locator("form[action$='/achieved/']")
    first = cards.locator("label:has(input[type=checkbox])").first
    wanted = first.locator("input").get_attribute("value")
    first.click()
    fits_and_taps(phone, "form[action$='/achieved/']")
    snap(phone, "report-guildball-cards-phone.png")
    cards.get_by_role("button", name="Record achieved cards").click()
    phone.wait_for_selector("text=Achieved:")
    assert list(Achievement.objects.filter(fixture=fixture, coach=a).values_list("card_id", flat=True)) == [int(wanted)]
    assert not phone.violations


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_the_draft_running_total_follows_each_tap_db6_db7(live_server, phone, organiser, password):
    league = db_league(organiser)
    coach = CoachFactory(name="Ulrika")
    blitzer = Position.objects.get(name="Dark Elf Blitzer")
    log_in(phone, live_server, coach.user.username, password)
    phone.goto(live_server.url + reverse("dungeonbowl:draft", args=[league.slug]) + "?college=college-of-shadows")
    summary = phone.locator("#draft-summary")
    assert summary.inner_text().startswith("Cost 0 gp of a 1,000,000 gp budget: 1,000,000 gp left")
    plus = phone.locator(f".stepper:has(input[name=pos_{blitzer.pk}]) button.step").nth(1)
    for _ in range(3):
        plus.click()
    text = summary.inner_text()
    # Prices and the limit's maximum come from the server; the page only adds them up.
    assert "Cost 300,000 gp" in text and "700,000 gp left" in text and "1 too many" in text
    phone.locator(f".stepper:has(input[name=pos_{blitzer.pk}]) button.step").nth(0).click()
    assert "limit reached" in summary.inner_text()
    tap(phone, phone.locator("form[data-budget]"), "One more: Team re-rolls", 2)
    assert "Cost 300,000 gp" in summary.inner_text()  # 2 x 100,000 + 2 x 50,000
    fits_and_taps(phone, "form[data-budget]")
    assert not Team.objects.exists() and not phone.violations
