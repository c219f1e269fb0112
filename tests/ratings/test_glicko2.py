"""RT-1, RT-3: the pure Glicko-2 module against Glickman's worked example and a
two-period case worked by hand."""

import math

import pytest

from league.ratings import glicko2
from league.ratings.glicko2 import Game, Rating, idle, rate

GLICKMAN_GAMES = [Game(1400, 30, 1), Game(1550, 100, 0), Game(1700, 300, 0)]


def test_glickmans_worked_example_computed_exactly():
    """RT-1: 1500/200/0.06 beats 1400/30, loses to 1550/100 and 1700/300. The paper
    prints 1464.06 / 151.52 / 0.05999 from rounded intermediate values; unrounded,
    the algorithm gives these."""
    after = rate(Rating(1500, 200, 0.06), GLICKMAN_GAMES)
    assert after.rating == pytest.approx(1464.0506705, abs=1e-6)
    assert after.rd == pytest.approx(151.5165241, abs=1e-6)
    assert after.volatility == pytest.approx(0.05999598, abs=1e-8)
    assert (round(after.rating, 2), round(after.rd, 2), round(after.volatility, 5)) == (1464.05, 151.52, 0.06)


def test_starting_values_and_constants():
    """RT-1: 1500 / 350 / 0.06, tau 0.5; RT-4: provisional above RD 110."""
    assert Rating() == (1500, 350, 0.06)
    assert glicko2.TAU == 0.5 and glicko2.EPSILON == 0.000001
    assert glicko2.provisional(110.01) and not glicko2.provisional(110)


def test_two_periods_with_an_inactive_week_then_a_draw():
    """Week 1: Glickman's games. Week 2: no game, so (RT-3, step 6 alone) only the RD
    rises: sqrt(phi^2 + sigma^2) on the Glicko-2 scale; rating and volatility stay.
    Week 3: a draw against a newcomer (1500/350)."""
    week1 = rate(Rating(1500, 200, 0.06), GLICKMAN_GAMES)
    week2 = idle(week1)
    by_hand = math.sqrt((151.5165241 / 173.7178) ** 2 + 0.05999598 ** 2) * 173.7178
    assert week2.rd == pytest.approx(by_hand, abs=1e-5)
    assert week2.rd == pytest.approx(151.8745630, abs=1e-6)
    assert (week2.rating, week2.volatility) == (week1.rating, week1.volatility)
    assert rate(week1, []) == week2  # a period without games is the idle step

    week3 = rate(week2, [Game(1500, 350, 0.5)])
    # A draw against a stronger-rated opponent raises the rating a little.
    assert week3.rating == pytest.approx(1466.8922488, abs=1e-6)
    assert week3.rd == pytest.approx(146.1113900, abs=1e-6)
    assert week3.volatility == pytest.approx(0.0599946056, abs=1e-9)


def test_a_draw_between_equals_keeps_the_rating_exactly():
    """Two newcomers draw: the expected score is exactly 0.5, so the rating stays at
    1500 and only RD and volatility move."""
    after = rate(Rating(), [Game(1500, 350, 0.5)])
    assert after.rating == 1500.0
    assert after.rd == pytest.approx(290.3189616, abs=1e-6)
    assert after.volatility < 0.06


def test_a_win_and_a_loss_mirror_each_other():
    winner = rate(Rating(), [Game(1500, 350, 1)])
    loser = rate(Rating(), [Game(1500, 350, 0)])
    assert winner.rating - 1500 == pytest.approx(1500 - loser.rating)
    assert winner.rd == pytest.approx(loser.rd)
