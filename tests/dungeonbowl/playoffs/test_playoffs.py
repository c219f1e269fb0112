"""The play-off season through the services (DB-5b), its prizes and the Trophy
(DB-14), settling ties by a reason or a logged roll (DB-16), and corrections."""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from league.services import results as engine
from league.services import seasons as season_services
from league.dungeonbowl import dice
from league.dungeonbowl.playoffs import services as playoffs
from league.dungeonbowl.models import (
    DiceRoll, Honour, Placing, PlayoffGame, PlayoffSlot as S, PlayoffTie, Team, TreasuryLine,
)
from league.dungeonbowl.seasons import season_over, trophy_holder_id
from league.models import Fixture, Result, Round
from league.standings.season import compute_standings
from tests.dungeonbowl.builders import db_season
from tests.dungeonbowl.playoff_builders import facts, game, play_regular, win
from tests.support.factories import UserFactory

pytestmark = pytest.mark.django_db

RANK = ["Team 01", "Team 02", "Team 03", "Team 04"]
# DB-6: the builders' drafts leave 345,000 gp (College of Fire: 655,000 spent) and
# 285,000 gp (College of Shadows: 715,000 spent); Teams 01 and 03 are Fire.
OPENING = {"Team 01": 345_000, "Team 02": 285_000, "Team 03": 345_000, "Team 04": 285_000}


def gold() -> dict[str, int]:
    return {team.name: team.treasury() for team in Team.objects.order_by("name")}


@pytest.fixture
def four(organiser):
    """One division of four, the regular season played: 01 > 02 > 03 > 04."""
    season = db_season(organiser, teams=4, playoffs=1)
    play_regular(season, organiser, RANK)
    return season


def test_a_whole_play_off_season_pays_winnings_and_prizes_to_the_gold_piece(four, organiser):
    """DB-5b seeding 1st v 4th and 2nd v 3rd; DB-10 winnings (dice 4 and 2: 40,000
    to the winner, 20,000 to the loser) in every play-off game; DB-14 prizes."""
    season = four
    assert not PlayoffGame.objects.exists()
    semis = playoffs.start_playoffs(season=season, by=organiser)
    assert [(g.fixture.home.team, g.fixture.away.team) for g in semis] == [("Team 01", "Team 04"), ("Team 02", "Team 03")]
    last_regular = Round.objects.filter(season=season).order_by("-number")[1]
    assert semis[0].fixture.round.number == last_regular.number + 1
    assert {g.fixture.stage for g in semis} == {Fixture.Stage.PLAYOFF}

    win(season, S.SEMI_1, organiser, "Team 01")
    assert not PlayoffGame.objects.filter(slot=S.FINAL).exists()  # one semi-final is not enough
    win(season, S.SEMI_2, organiser, "Team 02")
    assert (game(season, S.FINAL).fixture.home.team, game(season, S.FINAL).fixture.away.team) == ("Team 01", "Team 02")
    assert (game(season, S.THIRD).fixture.home.team, game(season, S.THIRD).fixture.away.team) == ("Team 04", "Team 03")
    win(season, S.FINAL, organiser, "Team 02")
    assert not Honour.objects.exists() and not season_over(season)  # the third-place match is still to come
    win(season, S.THIRD, organiser, "Team 04")

    # Hand calculation. Regular season (3 games each): 01 won 3 (120,000), 02 won 2
    # and lost 1 (100,000), 03 won 1 lost 2 (80,000), 04 lost 3 (60,000).
    # Semi-finals: 01 and 02 +40,000, 04 and 03 +20,000. Final: 02 +40,000, 01
    # +20,000. Third place: 04 +40,000, 03 +20,000. Prizes: 02 100,000 (champion),
    # 01 60,000, 04 30,000.
    assert gold() == {
        "Team 01": 345_000 + 120_000 + 40_000 + 20_000 + 60_000,
        "Team 02": 285_000 + 100_000 + 40_000 + 40_000 + 100_000,
        "Team 03": 345_000 + 80_000 + 20_000 + 20_000,
        "Team 04": 285_000 + 60_000 + 20_000 + 40_000 + 30_000,
    }
    prizes = TreasuryLine.objects.filter(kind=TreasuryLine.Kind.PRIZE).order_by("-amount")
    assert [(line.team.name, line.amount) for line in prizes] == [
        ("Team 02", 100_000), ("Team 01", 60_000), ("Team 04", 30_000)]
    assert [(h.team.name, h.placing, h.prize) for h in Honour.objects.order_by("placing")] == [
        ("Team 02", Placing.CHAMPION, 100_000), ("Team 01", Placing.RUNNER_UP, 60_000),
        ("Team 04", Placing.THIRD, 30_000)]
    champion = Team.objects.get(name="Team 02")
    assert trophy_holder_id(season.league) == champion.pk and season_over(season)
    # DB-14: the Trophy's re-roll counts in Team Value at the college's price.
    assert champion.value(trophy=True).team_value - champion.value().team_value == champion.college.reroll_cost
    # Play-offs earn no League points: the table is the regular season's.
    assert [(row.name, row.lp) for row in compute_standings(season)] == [
        ("Team 01", 9), ("Team 02", 6), ("Team 03", 3), ("Team 04", 0)]


def test_only_the_commissioner_starts_the_play_offs_once_the_regular_season_is_complete(organiser, other_organiser):
    season = db_season(organiser, teams=4, playoffs=1)
    fixtures = list(Fixture.objects.with_related().filter(round__season=season).order_by("pk"))
    engine.record_result(fixture=fixtures[0], by=organiser, reason="sheet", **facts("home"))
    with pytest.raises(ValidationError, match="5 fixtures still wait"):
        playoffs.start_playoffs(season=season, by=organiser)
    play_regular(season, organiser, RANK)  # the corrected first one included
    coach = Team.objects.get(name="Team 01").coach.user
    for user in (coach, other_organiser, UserFactory(username="nobody")):
        with pytest.raises(PermissionDenied):
            playoffs.start_playoffs(season=season, by=user)
    assert not PlayoffGame.objects.exists()
    playoffs.start_playoffs(season=season, by=organiser)
    with pytest.raises(ValidationError, match="already started"):
        playoffs.start_playoffs(season=season, by=organiser)
    assert PlayoffGame.objects.count() == 2


def test_a_league_without_play_offs_or_with_the_wrong_format_cannot_start_them(organiser):
    season = db_season(organiser, teams=4)
    play_regular(season, organiser, RANK)
    with pytest.raises(ValidationError, match="plays no play-offs"):
        playoffs.start_playoffs(season=season, by=organiser)


def test_two_divisions_cross_over_from_the_engine_standings(organiser):
    season = db_season(organiser, teams=8, divisions=2, playoffs=2)
    rows = compute_standings(season)
    by_division: dict[str, list[str]] = {}
    for row in rows:
        by_division.setdefault(row.division, []).append(row.name)
    (a_name, a), (b_name, b) = sorted(by_division.items())
    play_regular(season, organiser, [*a, *b])  # within each division, the listed order wins
    semis = playoffs.start_playoffs(season=season, by=organiser)
    assert [(g.fixture.home.team, g.fixture.away.team) for g in semis] == [(a[0], b[1]), (b[0], a[1])]


def test_a_wrong_format_setting_is_refused_with_the_reason(organiser):
    season = db_season(organiser, teams=8, divisions=2, playoffs=1)
    play_regular(season, organiser, [f"Team {i:02d}" for i in range(1, 9)])
    with pytest.raises(ValidationError, match="has 2 divisions"):
        playoffs.start_playoffs(season=season, by=organiser)


# Ties at qualifying places (DB-5b, DB-16) ---------------------------------------------


@pytest.fixture
def tied(organiser):
    """Five teams; 04 and 05 never played each other (a loss for both, DB-5a), so
    they finish level on 0 points, 0 touchdowns, 0 casualties for 4th place."""
    season = db_season(organiser, teams=5, playoffs=1)
    play_regular(season, organiser, [*RANK, "Team 05"], unplayed={frozenset({"Team 04", "Team 05"})})
    return season


def test_a_tie_at_the_cut_blocks_the_start_until_settled_with_a_reason(tied, organiser):
    state = playoffs.playoff_state(tied, compute_standings(tied))
    assert state.seeding.semi_finals is None
    (tie,) = state.seeding.ties
    assert (tie.places, sorted(tie.teams)) == ((4, 5), ["Team 04", "Team 05"])
    with pytest.raises(ValidationError, match="Settle the ties"):
        playoffs.start_playoffs(season=tied, by=organiser)
    with pytest.raises(ValidationError, match="reason"):
        playoffs.settle_tie(season=tied, by=organiser, teams=["Team 04", "Team 05"], order=["Team 05", "Team 04"])
    with pytest.raises(ValidationError, match="one place"):
        playoffs.settle_tie(season=tied, by=organiser, teams=["Team 04", "Team 05"], order=["Team 05", "Team 05"],
                            reason="x")
    with pytest.raises(ValidationError, match="no longer open"):
        playoffs.settle_tie(season=tied, by=organiser, teams=["Team 01", "Team 05"], order=["Team 05", "Team 01"],
                            reason="x")
    settled = playoffs.settle_tie(season=tied, by=organiser, teams=["Team 04", "Team 05"],
                                  order=["Team 05", "Team 04"], reason="Team 05 played its games on time")
    assert settled.teams == ["Team 05", "Team 04"] and settled.how == PlayoffTie.How.REASON
    semis = playoffs.start_playoffs(season=tied, by=organiser)
    assert [(g.fixture.home.team, g.fixture.away.team) for g in semis] == [("Team 01", "Team 05"), ("Team 02", "Team 03")]


def test_a_tie_settled_by_a_roll_is_logged_and_equal_table_dice_settle_nothing(tied, organiser):
    teams = ["Team 04", "Team 05"]
    with pytest.raises(ValidationError, match="Equal dice"):
        playoffs.settle_tie(season=tied, by=organiser, teams=teams, roll=True, dice=[3, 3])
    assert not PlayoffTie.objects.exists() and not DiceRoll.objects.filter(purpose=DiceRoll.Purpose.TIE).exists()
    settled = playoffs.settle_tie(season=tied, by=organiser, teams=teams, roll=True, dice=[2, 5])
    assert settled.teams == ["Team 05", "Team 04"] and settled.how == PlayoffTie.How.ROLL
    rolls = DiceRoll.objects.filter(purpose=DiceRoll.Purpose.TIE).order_by("id")
    assert [(r.team.name, r.values, r.source, r.entered_by) for r in rolls] == [
        ("Team 04", [2], "table", organiser), ("Team 05", [5], "table", organiser)]
    assert all(r.cause == settled for r in rolls)


def test_the_app_rolls_again_until_the_dice_differ(tied, organiser, monkeypatch):
    values = iter([4, 4, 1, 6])
    monkeypatch.setattr(dice._rng, "randint", lambda low, high: next(values))
    settled = playoffs.settle_tie(season=tied, by=organiser, teams=["Team 05", "Team 04"], roll=True)
    rolls = list(DiceRoll.objects.filter(purpose=DiceRoll.Purpose.TIE).order_by("id"))
    assert [r.values[0] for r in rolls] == [4, 4, 1, 6] and {r.source for r in rolls} == {"app"}
    assert settled.teams[0] == rolls[3].team.name


# A play-off needs a winner (DB-5, DB-5b Decision) --------------------------------------


def test_a_draw_or_an_unplayed_play_off_is_refused(four, organiser):
    playoffs.start_playoffs(season=four, by=organiser)
    fixture = game(four, S.SEMI_1).fixture
    with pytest.raises(ValidationError, match="needs a winner"):
        engine.record_result(fixture=fixture, by=organiser, reason="sheet", playoff=True,
                             **facts("home", ending="draw", dice=[3, 4]))
    with pytest.raises(ValidationError, match="needs a winner"):
        engine.record_result(fixture=fixture, by=organiser, reason="sheet", abandoned=True, playoff=True)
    # Without the form's flag (an import, a script) the approval itself refuses it.
    with pytest.raises(ValidationError, match="needs a winner"):
        engine.record_result(fixture=fixture, by=organiser, reason="sheet", **facts("home", ending="draw", dice=[3, 4]))
    assert not Result.objects.filter(fixture=fixture).exists()
    # A time-limit result on distance is a win.
    engine.record_result(fixture=fixture, by=organiser, reason="sheet", **facts("away", ending="away_closer"))
    assert Result.objects.get(fixture=fixture).winner_side() == "away"


# Corrections and reopening (DB-14 reversed) ----------------------------------------------


def _finish(season, organiser):
    playoffs.start_playoffs(season=season, by=organiser)
    win(season, S.SEMI_1, organiser, "Team 01")
    win(season, S.SEMI_2, organiser, "Team 02")
    win(season, S.FINAL, organiser, "Team 02")
    return win(season, S.THIRD, organiser, "Team 04")


def test_reopening_the_final_takes_back_the_prizes_and_the_trophy(four, organiser):
    _finish(four, organiser)
    paid = gold()
    final = game(four, S.FINAL).fixture.result
    engine.reopen_result(result=final, by=organiser, reason="wrong team recorded")
    assert not Honour.objects.exists() and trophy_holder_id(four.league) is None and not season_over(four)
    after = gold()
    # Prizes go back by reversing lines, and the final's winnings with them.
    assert after["Team 02"] == paid["Team 02"] - 100_000 - 40_000
    assert after["Team 01"] == paid["Team 01"] - 60_000 - 20_000
    assert after["Team 04"] == paid["Team 04"] - 30_000
    assert after["Team 03"] == paid["Team 03"]
    reversed_prizes = TreasuryLine.objects.filter(reverses__kind=TreasuryLine.Kind.PRIZE)
    assert sorted(line.amount for line in reversed_prizes) == [-100_000, -60_000, -30_000]
    # The correct result: Team 01 won the final.
    engine.record_result(fixture=final.fixture, by=organiser, reason="corrected", **facts("home"))
    assert trophy_holder_id(four.league) == Team.objects.get(name="Team 01").pk
    assert [(h.team.name, h.placing) for h in Honour.objects.order_by("placing")] == [
        ("Team 01", 1), ("Team 02", 2), ("Team 04", 3)]
    assert gold()["Team 01"] == paid["Team 01"] - 60_000 - 20_000 + 40_000 + 100_000


def test_correcting_the_third_place_match_moves_the_third_prize(four, organiser):
    _finish(four, organiser)
    third = game(four, S.THIRD).fixture
    engine.record_result(fixture=third, by=organiser, reason="the other team scored", **facts("away"))
    assert Honour.objects.get(placing=Placing.THIRD).team.name == "Team 03"
    assert TreasuryLine.objects.filter(kind=TreasuryLine.Kind.PRIZE, reversed_by__isnull=True,
                                       reverses__isnull=True).count() == 3
    assert gold()["Team 04"] == OPENING["Team 04"] + 60_000 + 20_000 + 20_000  # regular, semi, third lost


def test_a_semi_final_cannot_be_reopened_once_its_final_has_a_result(four, organiser):
    _finish(four, organiser)
    semi = game(four, S.SEMI_1).fixture.result
    with pytest.raises(ValidationError, match="final and third place already have a result"):
        engine.reopen_result(result=semi, by=organiser, reason="oops")
    assert Result.objects.get(pk=semi.pk).is_approved


def test_reopening_a_semi_final_removes_the_unplayed_final_and_third_place_match(four, organiser):
    playoffs.start_playoffs(season=four, by=organiser)
    win(four, S.SEMI_1, organiser, "Team 01")
    semi_2 = win(four, S.SEMI_2, organiser, "Team 02")
    rounds = Round.objects.filter(season=four).count()
    assert PlayoffGame.objects.count() == 4
    engine.reopen_result(result=semi_2, by=organiser, reason="check the sheet")
    assert sorted(PlayoffGame.objects.values_list("slot", flat=True)) == [S.SEMI_1, S.SEMI_2]
    assert Round.objects.filter(season=four).count() == rounds - 1
    engine.approve_result(result=semi_2, by=organiser)
    assert game(four, S.FINAL).fixture.away.team == "Team 02"


def test_a_regular_result_cannot_change_once_the_play_offs_are_seeded(four, organiser):
    playoffs.start_playoffs(season=four, by=organiser)
    regular = Result.objects.filter(fixture__round__season=four, fixture__stage="regular").first()
    with pytest.raises(ValidationError, match="seeded from these standings"):
        engine.reopen_result(result=regular, by=organiser, reason="late correction")


def test_eight_teams_in_two_divisions_through_the_regular_season_and_the_play_offs(organiser):
    """A league of 8 in 2 divisions, each team's gold checked against a hand
    calculation: DB-6 opening Treasury, DB-10 winnings (dice 4 and 2), DB-14 prizes."""
    from league.dungeonbowl.teams import services
    from league.models import Entry
    from tests.dungeonbowl.builders import db_league, db_team
    from tests.support.factories import SeasonFactory

    league = db_league(organiser, playoffs=2)
    season = SeasonFactory(league=league, name="Season 1")
    for i in range(8):
        team = db_team(league, f"Team {i + 1:02d}", college="college-of-fire" if i % 2 == 0 else "college-of-shadows")
        services.enter_team(team=team, season=season, by=organiser)
    entries = {entry.team: entry for entry in Entry.objects.filter(season=season)}
    season_services.set_season_divisions(season=season, by=organiser, divisions={
        "North": [entries[f"Team {n:02d}"] for n in (1, 3, 5, 7)],
        "South": [entries[f"Team {n:02d}"] for n in (2, 4, 6, 8)],
    })
    season_services.generate_fixtures(season=season, seed=5)
    play_regular(season, organiser, [f"Team {n:02d}" for n in range(1, 9)])
    # DB-5b: 1st of each division against 2nd of the other.
    semis = playoffs.start_playoffs(season=season, by=organiser)
    assert [(g.fixture.home.team, g.fixture.away.team) for g in semis] == [("Team 01", "Team 04"), ("Team 02", "Team 03")]
    win(season, S.SEMI_1, organiser, "Team 01")
    win(season, S.SEMI_2, organiser, "Team 03")
    win(season, S.FINAL, organiser, "Team 03")
    win(season, S.THIRD, organiser, "Team 02")
    # Regular season, 3 games each: a division's 1st won 3 (120,000), 2nd 100,000,
    # 3rd 80,000, 4th 60,000. Play-off games: 40,000 a win, 20,000 a loss.
    assert gold() == {
        "Team 01": 345_000 + 120_000 + 40_000 + 20_000 + 60_000,  # runner-up
        "Team 02": 285_000 + 120_000 + 20_000 + 40_000 + 30_000,  # third
        "Team 03": 345_000 + 100_000 + 40_000 + 40_000 + 100_000,  # champion
        "Team 04": 285_000 + 100_000 + 20_000 + 20_000,
        "Team 05": 345_000 + 80_000,
        "Team 06": 285_000 + 80_000,
        "Team 07": 345_000 + 60_000,
        "Team 08": 285_000 + 60_000,
    }
    assert trophy_holder_id(league) == Team.objects.get(name="Team 03").pk
    assert [(row.division, row.name, row.lp) for row in compute_standings(season) if row.position == 1] == [
        ("North", "Team 01", 9), ("South", "Team 02", 9)]


def test_a_play_off_result_cannot_change_once_the_next_season_has_begun(four, organiser):
    import datetime

    from tests.support.factories import SeasonFactory

    _finish(four, organiser)
    SeasonFactory(league=four.league, name="Season 2", start_date=four.start_date + datetime.timedelta(days=180))
    final = game(four, S.FINAL).fixture.result
    with pytest.raises(ValidationError, match="Season 2 has begun"):
        engine.reopen_result(result=final, by=organiser, reason="too late")
    assert Honour.objects.filter(season=four).count() == 3
