"""A Dungeon Bowl game's outcome and what it pays (RULES.md DB-4, DB-5, DB-5a,
DB-9 to DB-11) as plain functions over plain values: each side's result, League
points, winnings, the Treasure Room bonus and the Star Player Points a player earns.

No ORM here: the post-game sequence feeds these from the report and stores what
they return. Gold is an ``int`` in gold pieces. Dice rolls are inputs (DB-16): the
caller rolls, logs the roll, then passes the values in.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from league.dungeonbowl.teams.rules import MAX_PLAYERS
from league.dungeonbowl.units import check_die

# Outcomes, League points, winnings (DB-4, DB-5a, DB-10) ---------------------------------


class Outcome(StrEnum):
    HOME_WIN = "home_win"
    AWAY_WIN = "away_win"
    DRAW = "draw"  # DB-5: a time limit with equal distances
    HOME_CONCEDED = "home_conceded"  # DB-5a: a 1-0 win for the away team
    AWAY_CONCEDED = "away_conceded"
    UNPLAYED = "unplayed"  # DB-5a Decision: a loss for both


def result_for(outcome: Outcome, side: str) -> str:
    """'win', 'draw' or 'loss' for side 'home' or 'away'."""
    if side not in ("home", "away"):
        raise ValueError(f"A side is 'home' or 'away', not {side!r}.")
    if outcome == Outcome.DRAW:
        return "draw"
    if outcome == Outcome.UNPLAYED:
        return "loss"
    home_won = outcome in (Outcome.HOME_WIN, Outcome.AWAY_CONCEDED)
    return "win" if home_won == (side == "home") else "loss"


def league_points(result: str, *, spp_casualties: int = 0, casualty_bonus: bool = False) -> int:
    """DB-4: win 3, draw 1, loss 0; with the league's optional bonus, +1 for causing
    3 or more casualties that earn SPP."""
    base = {"win": 3, "draw": 1, "loss": 0}
    if result not in base:
        raise ValueError(f"A result is win, draw or loss, not {result!r}.")
    if spp_casualties < 0:
        raise ValueError("Casualties cannot be negative.")
    return base[result] + (1 if casualty_bonus and spp_casualties >= 3 else 0)


@dataclass(frozen=True)
class Winnings:
    home: int
    away: int


def winnings_dice(outcome: Outcome) -> int:
    """How many D6 the winnings take (DB-10): the winner's 2D6, one die each on a
    draw (home then away), none for an unplayed fixture."""
    return 0 if outcome == Outcome.UNPLAYED else 2


def winnings(outcome: Outcome, dice: Sequence[int]) -> Winnings:
    """DB-10 and its Decision. Win: the winner's 2D6, the higher die x 10,000 to the
    winner, the lower to the loser. Draw: each team its own D6 (``dice`` = home,
    away). Conceded: the winner still gets the higher die, the conceding team
    nothing. Unplayed: nothing, and no dice."""
    outcome = Outcome(outcome)
    if len(dice) != winnings_dice(outcome):
        raise ValueError(f"{outcome.value} winnings take {winnings_dice(outcome)} dice, not {len(dice)}.")
    for die in dice:
        check_die(die)
    if outcome == Outcome.UNPLAYED:
        return Winnings(0, 0)
    if outcome == Outcome.DRAW:
        return Winnings(dice[0] * 10_000, dice[1] * 10_000)
    high, low = max(dice) * 10_000, min(dice) * 10_000
    if outcome in (Outcome.HOME_CONCEDED, Outcome.AWAY_CONCEDED):
        low = 0
    home_won = outcome in (Outcome.HOME_WIN, Outcome.AWAY_CONCEDED)
    return Winnings(high, low) if home_won else Winnings(low, high)


MAX_GATHERERS = MAX_PLAYERS


def treasure_room_bonus(players: int) -> int:
    """DB-10: players who used Gather Funds -> 0 / 1-2: 10,000 / 3-4: 20,000 / 5+: 30,000."""
    if not 0 <= players <= MAX_GATHERERS:
        raise ValueError(f"Gather Funds is used by 0 to {MAX_GATHERERS} players, not {players}.")
    if players >= 5:
        return 30_000
    if players >= 3:
        return 20_000
    return 10_000 if players >= 1 else 0


# Star Player Points (DB-11) ----------------------------------------------------------


@dataclass(frozen=True)
class SppValues:
    """DB-11 defaults (Blood Bowl 2020), editable per league."""

    completion: int = 1
    deflection: int = 1
    interception: int = 2
    casualty: int = 2
    touchdown: int = 3
    mvp: int = 4


@dataclass(frozen=True)
class GameEvents:
    """What one player did in one game."""

    completions: int = 0
    deflections: int = 0
    interceptions: int = 0
    casualties: int = 0  # only those that earn SPP
    touchdowns: int = 0
    mvp: bool = False


def spp_earned(events: GameEvents, values: SppValues = SppValues()) -> int:
    """DB-11: the SPP a player earns for one game."""
    counts = {
        "completion": events.completions,
        "deflection": events.deflections,
        "interception": events.interceptions,
        "casualty": events.casualties,
        "touchdown": events.touchdowns,
    }
    for name, count in counts.items():
        if count < 0:
            raise ValueError(f"A player's {name}s cannot be negative.")
    return sum(getattr(values, name) * count for name, count in counts.items()) + (values.mvp if events.mvp else 0)
