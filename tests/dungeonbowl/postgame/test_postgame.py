"""The report form and the post-game sequence through the engine's workflow
(DB-9 to DB-13, DB-16): approval pays and hurts, a correction or reopening takes
exactly that back, rolls stay in the log."""

import pytest
from django.core.exceptions import ValidationError
from django.http import HttpRequest
from django.urls import reverse

from league.services import results as engine
from league.dungeonbowl.models import DiceRoll, GameReport, Player, PlayerEffect, TreasuryLine
from league.web.forms import record_form, report_form
from league.models import Fixture, Result
from league.standings.season import standings_for
from tests.dungeonbowl.builders import db_season
from tests.support.factories import PASSWORD

pytestmark = pytest.mark.django_db


@pytest.fixture
def season(organiser):
    return db_season(organiser, teams=4, casualty_bonus=True)


@pytest.fixture
def fixture(season):
    return Fixture.objects.with_related().filter(round__season=season, round__number=1).first()


def teams(fixture):
    return fixture.home.dungeonbowl.team, fixture.away.dungeonbowl.team


def player_data(fixture, side, number, **values):
    team = teams(fixture)[0 if side == "home" else 1]
    pid = team.players.get(number=number).pk
    # A player line names its player; line slot ``number`` here (one per player).
    prefix = f"{side}_line{number}_"
    return {f"{prefix}player": pid, **{prefix + key: value for key, value in values.items()}}


def post(fixture, **extra):
    data = {"home_score": 1, "away_score": 0, "ending": "touchdown", "home_gather": 3, "away_gather": 0,
            "home_journeymen": 0, "away_journeymen": 1, "dice": "5 2"}
    data.update(player_data(fixture, "home", 1, touchdowns=1, casualties=2, mvp="on"))
    data.update(player_data(fixture, "home", 2, casualties=1, completions=2))
    data.update(player_data(fixture, "away", 1, injury="lasting_injury", lasting="st"))
    data.update(player_data(fixture, "away", 2, injury="dead"))
    data.update(player_data(fixture, "away", 3, injury="serious_injury", interceptions=1, mvp="on"))
    data.update(extra)
    return data


def login(client, user):
    assert client.login(request=HttpRequest(), username=user.username, password=PASSWORD)


def report_and_approve(client, fixture, organiser, **extra):
    home_coach = fixture.home.coach.user
    login(client, home_coach)
    response = client.post(reverse("league:report_result", args=[fixture.pk]), post(fixture, **extra))
    assert response.status_code == 302, response.content.decode()[:3000]
    client.logout()
    login(client, organiser)
    # GB-8 Decision (every game): approving before the opponent confirms needs a reason.
    assert client.post(reverse("league:approve_result", args=[fixture.pk]), {"reason": "agreed at the table"}).status_code == 302
    client.logout()
    return Result.objects.get(fixture=fixture)


def test_the_form_has_a_line_per_player_who_can_play(fixture):
    form = report_form(fixture.round.season.league.rules, fixture)
    home, away = teams(fixture)
    assert len(form.player_sides["home"]) == home.players.count() == 8
    assert form.fields["home_score"].label == f"{home.name}: touchdowns"
    assert any(away.name in label for _, label in form.fields["ending"].choices)
    html = form.as_div()
    assert "what each player did" in html and "Troll Slayer" in html


def test_approval_runs_the_post_game_sequence(client, organiser, fixture, season):
    home, away = teams(fixture)
    before = home.treasury(), away.treasury()
    result = report_and_approve(client, fixture, organiser)
    # DB-10: table dice 5 2 -> 50,000 to the winner, 20,000 to the loser; 3 gatherers -> 20,000.
    assert home.treasury() - before[0] == 50_000 + 20_000
    assert away.treasury() - before[1] == 20_000
    roll = DiceRoll.objects.get(purpose="winnings")
    # DB-16 Decision: the dice the home coach typed are logged as theirs.
    assert (roll.values, roll.source, roll.team, roll.cause) == ([5, 2], "coach", home, result)
    assert roll.entered_by == fixture.home.coach.user
    scorer = home.players.get(number=1)
    assert (scorer.spp, scorer.mvp_awards) == (3 + 4 + 4, 1)  # TD, 2 casualties, MVP
    assert home.players.get(number=2).spp == 2 + 2  # a casualty and two completions
    slayer = away.players.get(number=1)
    assert (slayer.st, slayer.miss_next_game) == (2, True)
    dead = away.players.get(number=2)
    assert dead.status == Player.Status.DEAD and not away.players.on_draft_list().filter(pk=dead.pk).exists()
    hurt = away.players.get(number=3)
    assert (hurt.niggling_injuries, hurt.miss_next_game, hurt.spp, hurt.mvp_awards) == (1, True, 2 + 4, 1)
    row = next(r for r in standings_for(season) if r.name == home.name)
    assert (row.lp, row.stats) == (3 + 1, {"td_for": 1, "td_against": 0, "cas_for": 3})  # casualty bonus


def test_db16_dice_a_coach_types_are_the_coachs_seen_before_approval(client, organiser, fixture):
    """DB-16 Decision: the reporting coach's dice are logged as that
    coach's at once, shown on the fixture page to the opponent and the organiser
    before approval; approving uses them; the organiser's own table roll is logged
    as the organiser's and the coach's stays."""
    home, away = teams(fixture)
    home_coach, away_coach = fixture.home.coach.user, fixture.away.coach.user
    login(client, home_coach)
    assert client.post(reverse("league:report_result", args=[fixture.pk]), post(fixture)).status_code == 302
    roll = DiceRoll.objects.get(purpose="winnings")
    assert (roll.values, roll.source, roll.entered_by, roll.team) == ([5, 2], "coach", home_coach, home)
    client.logout()
    page = reverse("league:fixture_detail", args=[fixture.pk])
    for viewer in (away_coach, organiser):
        login(client, viewer)
        body = client.get(page).content.decode()
        assert f"5 2 <span class=\"muted\">(typed by the reporting coach, {home_coach.username}," in body, body
        client.logout()

    login(client, organiser)
    assert client.post(reverse("league:approve_result", args=[fixture.pk]), {"reason": "agreed"}).status_code == 302
    assert list(DiceRoll.objects.filter(purpose="winnings").values_list("source", "entered_by")) == [
        ("coach", home_coach.pk)]  # approval used the coach's roll, logged no other
    result = Result.objects.get(fixture=fixture)
    engine.record_result(fixture=fixture, by=organiser, reason="the table roll was 6 1", home_score=1, away_score=0,
                         ending="touchdown", home_gather=0, away_gather=0, home_journeymen=0, away_journeymen=0,
                         dice=[6, 1])
    rolls = list(DiceRoll.objects.filter(purpose="winnings", cause_id=result.pk).order_by("pk")
                 .values_list("values", "source", "entered_by"))
    assert rolls == [([5, 2], "coach", home_coach.pk), ([6, 1], "table", organiser.pk)]
    body = client.get(page).content.decode()
    assert f"(rolled at the table, {organiser.username}," in body
    assert f"(typed by the reporting coach, {home_coach.username}," in body


def test_db6_the_college_wizard_is_bought_for_a_game_on_the_report(client, organiser, fixture):
    """DB-6: a team hires its College Wizard for one game on the report
    (100,000 gp); the fixture page shows it, approval takes it from the Treasury as a
    ledger line on the team page, a correction without it gives it back."""
    home, away = teams(fixture)
    before = home.treasury(), away.treasury()
    login(client, fixture.home.coach.user)
    form = client.get(reverse("league:fixture_detail", args=[fixture.pk])).content.decode()
    assert f"{home.name}: hired its College Wizard, the {home.college.wizard} (100,000 gp from the Treasury" in form
    client.logout()
    result = report_and_approve(client, fixture, organiser, home_wizard="on")
    report = GameReport.objects.get(result=result)
    assert (report.home_wizard, report.away_wizard) == (True, False)
    # 50,000 winnings and 20,000 Treasure Room in, the Wizard out.
    assert home.treasury() - before[0] == 50_000 + 20_000 - 100_000
    assert away.treasury() - before[1] == 20_000
    line = TreasuryLine.objects.get(team=home, kind="inducement")
    assert (line.amount, line.cause) == (-100_000, result)
    login(client, organiser)
    page = client.get(reverse("league:fixture_detail", args=[fixture.pk])).content.decode()
    assert (f"College Wizard hired for this game (paid from the Treasury on approval "
            f"<a class=\"rule\" href=\"/rules/#DB-6\">DB-6</a>): {home.name}.") in page
    ledger = client.get(reverse("dungeonbowl:team_detail", args=[home.league.slug, home.slug])).content.decode()
    assert f"Inducement: College Wizard ({home.college.wizard}) hired for" in ledger
    engine.record_result(fixture=fixture, by=organiser, reason="no Wizard after all", home_score=1, away_score=0,
                         ending="touchdown", home_gather=3, away_gather=0, home_journeymen=0, away_journeymen=1,
                         dice=[5, 2])
    assert home.treasury() - before[0] == 50_000 + 20_000
    assert not GameReport.objects.get(result=result).home_wizard


def test_db6_a_wizard_the_treasury_cannot_pay_is_refused_on_the_report(client, fixture):
    home, _ = teams(fixture)
    TreasuryLine.objects.create(team=home, amount=60_000 - home.treasury(), kind="correction", reason="spent")
    login(client, fixture.home.coach.user)
    response = client.post(reverse("league:report_result", args=[fixture.pk]), post(fixture, home_wizard="on"))
    assert response.status_code == 400
    assert f"Treasury holds 60,000 gp; the {home.college.wizard} costs 100,000 gp, 40,000 gp short" in \
        response.content.decode()
    assert not Result.objects.filter(fixture=fixture).exists() and not GameReport.objects.exists()
    assert not DiceRoll.objects.exists()


def test_the_next_game_clears_miss_next_game(client, organiser, season, fixture):
    report_and_approve(client, fixture, organiser)
    away = teams(fixture)[1]
    later = Fixture.objects.with_related().filter(round__season=season, round__number=2).filter(
        home__dungeonbowl__team=away).first() or Fixture.objects.with_related().filter(
        round__season=season, round__number=2, away__dungeonbowl__team=away).first()
    form = report_form(season.league.rules, later)
    side = "home" if later.home.dungeonbowl.team == away else "away"
    assert away.players.get(number=1).pk not in {pid for pid, _ in form.player_sides[side]}
    engine.record_result(fixture=later, by=organiser, reason="from the sheet", home_score=0, away_score=0,
                         ending="draw", home_gather=0, away_gather=0, home_journeymen=0, away_journeymen=0)
    assert not away.players.get(number=1).miss_next_game
    assert DiceRoll.objects.filter(purpose="winnings", dice="D6").count() == 2  # DB-10 Decision: a D6 each


def test_a_correction_reverses_exactly_and_reuses_the_roll(client, organiser, fixture):
    home, away = teams(fixture)
    before = home.treasury(), away.treasury()
    result = report_and_approve(client, fixture, organiser)
    engine.reopen_result(result=result, by=organiser, reason="wrong MVP")
    assert (home.treasury(), away.treasury()) == before
    assert not PlayerEffect.objects.exists()
    slayer = away.players.get(number=1)
    assert (slayer.st, slayer.miss_next_game, slayer.status) == (3, False, "active")
    assert away.players.get(number=2).status == "active"
    assert (home.players.get(number=1).spp, home.players.get(number=1).mvp_awards) == (0, 0)
    assert DiceRoll.objects.count() == 1  # the log keeps the roll
    # Approved again, with no table dice: the logged roll is reused (no new roll).
    GameReport.objects.filter(result=result).update(dice=None)
    engine.approve_result(result=result, by=organiser, reason="agreed at the table")
    assert DiceRoll.objects.count() == 1
    assert home.treasury() - before[0] == 70_000
    lines = TreasuryLine.objects.filter(team=home, kind="correction")
    assert lines.count() == 2 and all(line.reverses is not None for line in lines)


def test_the_gold_moved_is_whoever_approved_or_reopened_the_result(client, organiser, other_organiser, fixture,
                                                                   season):
    """The post-game sequence is told who acted: the winnings are the approver's,
    their reversal the other organiser's who reopens the result (not the approver's,
    whose step was the last in the history when the reversal began)."""
    season.league.organisers.add(other_organiser)
    home, _ = teams(fixture)
    result = report_and_approve(client, fixture, organiser)
    paid = TreasuryLine.objects.filter(team=home, kind="winnings")
    assert [line.created_by for line in paid] == [organiser]
    engine.reopen_result(result=result, by=other_organiser, reason="wrong MVP")
    reversed_ = TreasuryLine.objects.filter(team=home, kind="correction")
    assert reversed_.count() == 2 and {line.created_by for line in reversed_} == {other_organiser}


def test_an_unplayed_fixture_pays_nothing(organiser, fixture, season):
    home, away = teams(fixture)
    before = home.treasury()
    engine.record_result(fixture=fixture, by=organiser, reason="not played by the deadline", abandoned=True)
    assert home.treasury() == before and not DiceRoll.objects.exists()
    rows = {r.name: r for r in standings_for(season)}
    assert (rows[home.name].played, rows[home.name].lost, rows[away.name].lost) == (1, 1, 1)


def test_a_concession_pays_the_winner_the_higher_die_only(organiser, fixture):
    home, away = teams(fixture)
    before = home.treasury(), away.treasury()
    result = engine.record_result(fixture=fixture, by=organiser, reason="conceded", home_score=0, away_score=0,
                                  ending="home_conceded", home_gather=0, away_gather=0, home_journeymen=0,
                                  away_journeymen=0, dice=[3, 6])
    assert (result.home_score, result.away_score, result.conceded) == (0, 1, True)
    assert (home.treasury() - before[0], away.treasury() - before[1]) == (0, 60_000)


def test_bad_reports_say_why_and_write_nothing(client, fixture):
    login(client, fixture.home.coach.user)
    response = client.post(reverse("league:report_result", args=[fixture.pk]), post(fixture, home_score=2))
    assert response.status_code == 400
    assert "1–0, not 2–0" in response.content.decode()
    response = client.post(reverse("league:report_result", args=[fixture.pk]), post(fixture, dice="7 7"))
    assert response.status_code == 400 and "two numbers from 1 to 6" in response.content.decode()
    assert not Fixture.objects.filter(pk=fixture.pk, result__isnull=False).exists()


def test_the_record_form_shows_the_correction(organiser, client, fixture):
    result = report_and_approve(client, fixture, organiser)
    rules = fixture.round.season.league.rules
    form = record_form(rules, fixture, initial=rules.initial_from(result))
    dead = teams(fixture)[1].players.get(number=2)
    line = next(n for n in range(1, 9) if form[f"away_line{n}_player"].initial == dead.pk)
    assert form[f"away_line{line}_injury"].initial == "dead"  # the dead still show in a correction
    assert f'value="{dead.pk}" selected' in form.as_div()
    with pytest.raises(ValidationError, match="Player .* does not play"):
        engine.record_result(fixture=fixture, by=organiser, reason="x", home_score=1, away_score=0, ending="touchdown",
                             players={"home": [{"player": dead.pk, "touchdowns": 1}], "away": []})
