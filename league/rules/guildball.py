"""Guild Ball result rules (RULES.md GB-6, GB-7, GB-8, GB-9)."""

from __future__ import annotations

from django.core.exceptions import ValidationError

from league.rules.base import ABANDONED, AWAY_WIN, HOME_WIN, GameRules, Tiebreak

WIN_LP = 3  # GB-7
LOSS_LP = 0  # GB-7; GB-6: an abandoned match is a loss for both
GOAL_OVERSHOOT = 4  # GB-8 Decision: a goal scored from target - 1 ends at target + 3


class GuildBallRules(GameRules):
    system = "guildball"
    name = "Guild Ball"
    score_label = "VP"
    allows_draws = False
    # GB-9: LP, then cumulative VP scored, then VP difference.
    tiebreakers = (
        Tiebreak("score_for", "VP scored"),
        Tiebreak("score_diff", "VP difference", signed=True),
    )

    def validate_score(self, *, home_score: int, away_score: int, vp_target: int, override: bool = False) -> str:
        """GB-7/GB-8: no draws; the winner reaches the target, the loser stays below
        the winner, nobody scores more than target + 4. ``override`` (the Longshanks,
        with a recorded reason) lifts the target checks but never allows a draw."""
        _check_not_negative(home_score, away_score)
        if home_score == away_score:
            raise ValidationError("Guild Ball has no draws: one coach must finish ahead on VP (GB-7).")
        outcome = HOME_WIN if home_score > away_score else AWAY_WIN
        if override:
            return outcome
        winner = max(home_score, away_score)
        ceiling = vp_target + GOAL_OVERSHOOT
        if winner < vp_target:
            raise ValidationError(
                f"The winner must reach {vp_target} VP (GB-8); the higher score here is {winner}."
            )
        if winner > ceiling:
            raise ValidationError(
                f"No score can be above {ceiling} VP in a {vp_target} VP game (GB-8); "
                f"a goal from {vp_target - 1} VP ends the game on {vp_target + 3}."
            )
        return outcome

    def validate_abandoned(self, *, home_score: int, away_score: int, vp_target: int) -> str:
        """GB-6/GB-8: an abandoned match keeps the VP played so far (or 0-0)."""
        _check_not_negative(home_score, away_score)
        ceiling = vp_target + GOAL_OVERSHOOT
        if max(home_score, away_score) > ceiling:
            raise ValidationError(f"No score can be above {ceiling} VP in a {vp_target} VP game (GB-8).")
        return ABANDONED

    def league_points(self, *, outcome: str, side: str) -> int:
        """GB-7: 3 LP for the winner, 0 for the loser; GB-6: 0 each when abandoned."""
        return WIN_LP if outcome == side else LOSS_LP

    def scores_count_for_tiebreak(self, outcome: str) -> bool:
        """GB-6 Decision: VP of an abandoned match are kept for information only."""
        return outcome != ABANDONED


def _check_not_negative(*scores: int) -> None:
    if any(score < 0 for score in scores):
        raise ValidationError("Victory Points cannot be negative.")


RULES = GuildBallRules()
