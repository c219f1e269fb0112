"""A Dungeon Bowl game's outcome and what it pays as pure rules (RULES.md DB-4 to
DB-11), without the database."""

import pytest

from league.dungeonbowl.postgame import rules as r
from league.dungeonbowl.postgame.rules import Outcome


# Outcomes, League points, winnings (DB-4, DB-10) -------------------------------------------


@pytest.mark.parametrize(
    "outcome,home,away",
    [
        (Outcome.HOME_WIN, "win", "loss"),
        (Outcome.AWAY_WIN, "loss", "win"),
        (Outcome.DRAW, "draw", "draw"),
        (Outcome.HOME_CONCEDED, "loss", "win"),
        (Outcome.AWAY_CONCEDED, "win", "loss"),
        (Outcome.UNPLAYED, "loss", "loss"),
    ],
)
def test_result_for_each_side(outcome, home, away):
    assert (r.result_for(outcome, "home"), r.result_for(outcome, "away")) == (home, away)


def test_league_points_and_the_casualty_bonus():
    assert [r.league_points(x) for x in ("win", "draw", "loss")] == [3, 1, 0]
    assert r.league_points("win", spp_casualties=3) == 3  # bonus off by default
    assert r.league_points("win", spp_casualties=3, casualty_bonus=True) == 4
    assert r.league_points("loss", spp_casualties=2, casualty_bonus=True) == 0
    assert r.league_points("loss", spp_casualties=5, casualty_bonus=True) == 1
    with pytest.raises(ValueError):
        r.league_points("won")


@pytest.mark.parametrize(
    "outcome,dice,home,away",
    [
        (Outcome.HOME_WIN, (2, 5), 50_000, 20_000),
        (Outcome.AWAY_WIN, (6, 1), 10_000, 60_000),
        (Outcome.HOME_WIN, (4, 4), 40_000, 40_000),
        (Outcome.DRAW, (2, 5), 20_000, 50_000),  # home's die, then away's
        (Outcome.HOME_CONCEDED, (3, 6), 0, 60_000),
        (Outcome.AWAY_CONCEDED, (3, 6), 60_000, 0),
        (Outcome.UNPLAYED, (), 0, 0),
    ],
)
def test_winnings_for_every_outcome(outcome, dice, home, away):
    assert r.winnings(outcome, dice) == r.Winnings(home, away)


def test_winnings_refuse_wrong_dice():
    with pytest.raises(ValueError, match="take 2 dice"):
        r.winnings(Outcome.HOME_WIN, (6,))
    with pytest.raises(ValueError, match="take 0 dice"):
        r.winnings(Outcome.UNPLAYED, (1, 1))
    with pytest.raises(ValueError, match="D6"):
        r.winnings(Outcome.DRAW, (0, 7))


@pytest.mark.parametrize("players,bonus", [(0, 0), (1, 10_000), (2, 10_000), (3, 20_000), (4, 20_000), (5, 30_000), (16, 30_000)])
def test_treasure_room_thresholds(players, bonus):
    assert r.treasure_room_bonus(players) == bonus


def test_treasure_room_bounds():
    for bad in (-1, 17):
        with pytest.raises(ValueError):
            r.treasure_room_bonus(bad)


# SPP (DB-11) --------------------------------------------------------------------------


def test_spp_defaults_and_league_values():
    events = r.GameEvents(completions=2, deflections=1, interceptions=1, casualties=1, touchdowns=1, mvp=True)
    assert r.spp_earned(events) == 2 + 1 + 2 + 2 + 3 + 4
    assert r.spp_earned(r.GameEvents()) == 0
    assert r.spp_earned(r.GameEvents(touchdowns=2), r.SppValues(touchdown=2)) == 4
    with pytest.raises(ValueError):
        r.spp_earned(r.GameEvents(casualties=-1))
