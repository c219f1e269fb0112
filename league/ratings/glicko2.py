"""Glicko-2 (RT-1): Glickman's "Example of the Glicko-2 system", steps 1 to 8, as
plain functions over plain values: no Django, no database.

A rating is (rating, RD, volatility) on the Glicko scale; the steps work on the
Glicko-2 scale (mu, phi), converted at the edges. A rating period's games are
(opponent's rating, opponent's RD, score), the opponents as they stood at the
start of the period; score 1 a win, 0.5 a draw, 0 a loss (RT-2).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import NamedTuple

START_RATING, START_RD, START_VOLATILITY = 1500.0, 350.0, 0.06  # RT-1
TAU = 0.5  # RT-1: the system constant
EPSILON = 0.000001  # RT-1: the volatility iteration's stopping change
SCALE = 173.7178  # Glickman's step 2: Glicko to Glicko-2
PROVISIONAL_RD = 110.0  # RT-4


class Rating(NamedTuple):
    rating: float = START_RATING
    rd: float = START_RD
    volatility: float = START_VOLATILITY


class Game(NamedTuple):
    opponent_rating: float
    opponent_rd: float
    score: float  # 1 win, 0.5 draw, 0 loss


def provisional(rd: float) -> bool:
    """RT-4: a rating is provisional while its RD is above 110."""
    return rd > PROVISIONAL_RD


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _e(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def idle(player: Rating) -> Rating:
    """RT-3, Glickman's step 6 alone: a period without a game raises only the RD."""
    phi = player.rd / SCALE
    return Rating(player.rating, math.sqrt(phi * phi + player.volatility * player.volatility) * SCALE,
                  player.volatility)


def rate(player: Rating, games: Iterable[Game], *, tau: float = TAU) -> Rating:
    """RT-1: ``player`` after one rating period with ``games`` (none: ``idle``)."""
    games = list(games)
    if not games:
        return idle(player)
    mu, phi, sigma = (player.rating - START_RATING) / SCALE, player.rd / SCALE, player.volatility  # step 2
    opponents = [
        (_g(game.opponent_rd / SCALE), _e(mu, (game.opponent_rating - START_RATING) / SCALE, game.opponent_rd / SCALE),
         game.score)
        for game in games
    ]
    v = 1.0 / sum(g * g * e * (1.0 - e) for g, e, _ in opponents)  # step 3
    delta = v * sum(g * (score - e) for g, e, score in opponents)  # step 4
    sigma = _volatility(delta, phi, v, sigma, tau)  # step 5
    phi_star = math.sqrt(phi * phi + sigma * sigma)  # step 6
    phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)  # step 7
    mu = mu + phi * phi * sum(g * (score - e) for g, e, score in opponents)
    return Rating(SCALE * mu + START_RATING, SCALE * phi, sigma)  # step 8


def _volatility(delta: float, phi: float, v: float, sigma: float, tau: float) -> float:
    """Glickman's step 5: the Illinois algorithm on f, stopping at a change under
    ``EPSILON`` (RT-1)."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex) ** 2) - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)
