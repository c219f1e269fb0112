"""The interface every game system implements, over plain values (no ORM)."""

from __future__ import annotations

from dataclasses import dataclass

HOME_WIN = "home"
AWAY_WIN = "away"
DRAW = "draw"
ABANDONED = "abandoned"


@dataclass(frozen=True)
class Tiebreak:
    """One standings key after League Points, best first (higher is better)."""

    field: str  # attribute of a standings row
    label: str  # how a person names it: "VP scored"
    signed: bool = False  # show as +10 / -4


class GameRules:
    system: str
    name: str
    score_label: str  # the unit of a side's score: "VP", "TD"
    allows_draws: bool
    tiebreakers: tuple[Tiebreak, ...]

    def validate_score(self, *, home_score: int, away_score: int, vp_target: int, override: bool = False) -> str:
        """Return the outcome of a completed match, or raise ValidationError with a
        message a coach understands."""
        raise NotImplementedError

    def validate_abandoned(self, *, home_score: int, away_score: int, vp_target: int) -> str:
        raise NotImplementedError

    def league_points(self, *, outcome: str, side: str) -> int:
        raise NotImplementedError

    def scores_count_for_tiebreak(self, outcome: str) -> bool:
        return True

    # Game-level hooks, called inside the engine's transaction when a result
    # becomes approved or stops counting. Layers on top of a game (a Big League
    # campaign) register their own hooks in league.layers instead.

    def result_approved(self, result) -> None:
        """A result has just become approved (reported and approved, or entered,
        corrected or abandoned by the organiser). Nothing to derive by default."""

    def result_withdrawn(self, result) -> None:
        """An approved result is about to be corrected or reopened: undo what
        ``result_approved`` derived from it. Nothing by default."""


def side_won(outcome: str, side: str) -> bool:
    return outcome == side


def side_lost(outcome: str, side: str) -> bool:
    if outcome == ABANDONED:
        return True
    return outcome in (HOME_WIN, AWAY_WIN) and outcome != side
