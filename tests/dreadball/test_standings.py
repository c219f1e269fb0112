"""DR-4 standings: League Points from the league's settings, then Strike Difference,
then landslides won; rows level on all three share the position."""

import pytest

from league.dreadball.models import DreadBallSettings
from league.rules.base import PlayedResult
from league.dreadball.rules import DreadBallRules
from league.standings.ranking import EntryInfo, compute_table
from league.standings.season import standings_for

ENTRIES = [EntryInfo(i, 100 + i, name, team=f"{name}'s team") for i, name in enumerate(["Ann", "Bea", "Cal", "Dov"], 1)]


def game(home, away, outcome, difference=0, round_number=1):
    details = {"difference": difference, "landslide": difference == 7}
    return PlayedResult(round_number, home, away, None, None, outcome, details=details)


def table(results, settings=None):
    rows = compute_table(ENTRIES, results, DreadBallRules(settings or DreadBallSettings()))
    return [(row.position_label, row.coach, row.lp, row.stats["strike_diff"], row.stats["landslides"]) for row in rows]


def test_strike_difference_breaks_a_tie_on_points():
    # Ann and Bea both win once (2 LP); Ann by 5, Bea by 2.
    rows = table([game(1, 3, "home", 5), game(2, 4, "home", 2)])
    assert rows == [("1", "Ann", 2, 5, 0), ("2", "Bea", 2, 2, 0), ("3", "Dov", 0, -2, 0), ("4", "Cal", 0, -5, 0)]


def test_landslides_break_a_tie_on_points_and_strike_difference():
    # With landslide points equal to a win's, everyone wins once (2 LP). Ann (a
    # landslide, then a loss by 3) and Bea (a win by 6, a loss by 2) are level on
    # +4: Ann's landslide puts her ahead.
    settings = DreadBallSettings(landslide_win=2, win=2, draw=1, loss=0)
    results = [
        game(1, 3, "home", 7, 1), game(2, 4, "home", 6, 1),
        game(1, 4, "away", 3, 2), game(2, 3, "away", 2, 2),
    ]
    rows = compute_table(ENTRIES, results, DreadBallRules(settings))
    assert [(r.position_label, r.coach, r.lp, r.stats["strike_diff"], r.stats["landslides"]) for r in rows] == [
        ("1", "Ann", 2, 4, 1), ("2", "Bea", 2, 4, 0), ("3", "Dov", 2, -3, 0), ("4", "Cal", 2, -5, 0),
    ]
    assert rows[0].note == "level with Bea on 2 LP and +4 Strike Difference; ahead on landslides won, 1 to 0"


def test_level_on_everything_shares_the_position():
    rows = compute_table(ENTRIES, [game(1, 2, "draw"), game(3, 4, "draw")], DreadBallRules(DreadBallSettings()))
    assert [(r.position_label, r.coach, r.lp, r.drawn) for r in rows] == [
        ("=1", "Ann", 1, 1), ("=1", "Bea", 1, 1), ("=1", "Cal", 1, 1), ("=1", "Dov", 1, 1),
    ]
    assert rows[0].note == "level with Bea on 1 LP, +0 Strike Difference, 0 landslides won: position shared"


def test_default_points_reward_a_landslide_over_a_win():
    rows = table([game(1, 2, "home", 7), game(3, 4, "home", 6)])
    assert rows[:2] == [("1", "Ann", 3, 7, 1), ("2", "Cal", 2, 6, 0)]


def test_abandoned_is_a_loss_for_both_without_strike_difference():
    rows = compute_table(ENTRIES, [PlayedResult(1, 1, 2, None, None, "abandoned")], DreadBallRules(DreadBallSettings(loss=1)))
    ann = next(r for r in rows if r.coach == "Ann")
    assert (ann.played, ann.lost, ann.lp, ann.stats) == (1, 1, 1, {"landslides": 0, "strike_diff": 0})


@pytest.mark.django_db
def test_standings_for_reads_the_details_and_the_settings(dr_fixture, organiser):
    from league.services import results as services

    settings = dr_fixture.round.season.league.dreadball_settings
    settings.landslide_win = 4
    settings.save()
    services.record_result(
        fixture=dr_fixture, by=organiser, reason="entered", winner="away", difference=7, rush=11, sudden_death=False
    )
    rows = {row.coach: row for row in standings_for(dr_fixture.round.season)}
    assert (rows["Tavi"].lp, rows["Tavi"].stats) == (4, {"landslides": 1, "strike_diff": 7})
    assert (rows["Dana"].lp, rows["Dana"].stats) == (0, {"landslides": 0, "strike_diff": -7})
