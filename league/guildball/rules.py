"""Guild Ball result rules (RULES.md GB-6, GB-7, GB-8, GB-9)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import forms
from django.core.exceptions import ValidationError

from league.web.forms import MAX_SCORE
from league.guildball.forms import GuildBallResultForm
from league.guildball.models import GuildBallSettings
from league.rules.base import ABANDONED, AWAY_WIN, HOME_WIN, GameRules, Stat, Verdict
from league.rules.importing import parse_whole_number
from league.rules.terms import ABANDONED_MATCH, WON, Difference, Score, when

WIN_LP = 3  # GB-7
LOSS_LP = 0  # GB-7; GB-6: an abandoned match is a loss for both
GOAL_OVERSHOOT = 4  # GB-8 Decision: a goal scored from target - 1 ends at target + 3


class GuildBallRules(GameRules):
    system = "guildball"
    name = "Guild Ball: The Big League"
    app_label = "guildball"
    import_fallback = True  # the files import_results read before it knew other games
    entry_label = "Guild"
    score_label = "VP"
    allows_draws = False
    allows_override = True
    stats = (
        Stat("vp_for", "VP scored", "VP+"),
        Stat("vp_against", "VP conceded", "VP−"),
        Stat("vp_diff", "VP difference", "VP±", signed=True),
    )
    # GB-9: LP, then cumulative VP scored, then VP difference.
    tiebreakers = ("vp_for", "vp_diff")
    feed_columns = ("position", "tied", "coach", "played", "won", "lost", "lp", "vp_for", "vp_against", "vp_diff")
    settings_model = GuildBallSettings
    settings_fields = ("vp_target",)  # GB-8
    # GB-8: the target decides which recorded scores are valid; GB-9 sums the VP.
    settings_locked = {"vp_target": "GB-8"}
    cites = {"entrants": "GB-2", "fixtures": "GB-4", "cadence": "GB-5", "override": "GB-8"}
    import_columns = ("home_vp", "away_vp")
    import_statuses = ("played", "abandoned", "scheduled")

    @property
    def vp_target(self) -> int:
        return self.settings.vp_target if self.settings is not None else 12

    def report_form_class(self):
        return GuildBallResultForm

    def form_labels(self, form, fixture) -> None:
        form.fields["home_score"].label = f"{fixture.home} (VP)"
        if fixture.away_id:
            form.fields["away_score"].label = f"{fixture.away} (VP)"
        if "override" in form.fields:
            form.fields["override"].label = "Accept a score the VP rules reject (the reason is recorded)"

    def initial_from(self, result) -> dict[str, Any]:
        return {"home_score": result.home_score, "away_score": result.away_score}

    def report_help(self) -> str:
        return f"No draws: the winner reaches {self.vp_target} VP."

    def row_figures(self, row) -> str:
        vp = row.stats
        return f"{vp['vp_for']} VP scored, {vp['vp_against']} conceded ({vp['vp_diff']:+d})"

    def standings_help(self) -> str:
        return "Order: League Points, then VP scored, then VP difference. Coaches level on all three share the position."

    def abandon_help(self) -> str:
        return "Abandoned (both coaches record a loss; VP kept for information)"

    def abandon_fields(self):
        return {
            "home_score": forms.IntegerField(label="Home VP so far", min_value=0, max_value=MAX_SCORE, initial=0),
            "away_score": forms.IntegerField(label="Away VP so far", min_value=0, max_value=MAX_SCORE, initial=0),
        }

    def validate(self, facts: Mapping[str, Any], *, override: bool = False, abandoned: bool = False) -> Verdict:
        home, away = facts["home_score"], facts["away_score"]
        if abandoned:
            return Verdict(self.validate_abandoned(home_score=home, away_score=away), home, away)
        return Verdict(self.validate_score(home_score=home, away_score=away, override=override), home, away)

    def validate_score(self, *, home_score: int, away_score: int, override: bool = False) -> str:
        """GB-7/GB-8: no draws; the winner reaches the target, the loser stays below
        the winner, nobody scores more than target + 4. ``override`` (the Longshanks,
        with a recorded reason) lifts the target checks but never allows a draw."""
        _check_not_negative(home_score, away_score)
        if home_score == away_score:
            raise ValidationError("Guild Ball has no draws: one coach must finish ahead on VP.")
        outcome = HOME_WIN if home_score > away_score else AWAY_WIN
        if override:
            return outcome
        target = self.vp_target
        winner = max(home_score, away_score)
        ceiling = target + GOAL_OVERSHOOT
        if winner < target:
            raise ValidationError(f"The winner must reach {target} VP; the higher score here is {winner}.")
        if winner > ceiling:
            raise ValidationError(
                f"No score can be above {ceiling} VP in a {target} VP game; "
                f"a goal from {target - 1} VP ends the game on {target + 3}."
            )
        return outcome

    def validate_abandoned(self, *, home_score: int, away_score: int) -> str:
        """GB-6/GB-8: an abandoned match keeps the VP played so far (or 0-0)."""
        _check_not_negative(home_score, away_score)
        ceiling = self.vp_target + GOAL_OVERSHOOT
        if max(home_score, away_score) > ceiling:
            raise ValidationError(f"No score can be above {ceiling} VP in a {self.vp_target} VP game.")
        return ABANDONED

    def parse_import_row(self, values: Mapping[str, str], *, status: str) -> dict[str, Any] | None:
        """``home_vp,away_vp``: both for a played match, both or neither (0-0) for an
        abandoned one (GB-6, GB-8), neither for a scheduled one."""
        home_vp = parse_whole_number(values, "home_vp")
        away_vp = parse_whole_number(values, "away_vp")
        if status == "scheduled":
            if home_vp is not None or away_vp is not None:
                raise ValueError("a scheduled fixture has no VP yet; leave home_vp and away_vp empty")
            return None
        if status != ABANDONED and (home_vp is None or away_vp is None):
            raise ValueError("a played fixture needs both home_vp and away_vp")
        if status == ABANDONED and (home_vp is None) != (away_vp is None):
            raise ValueError("give both home_vp and away_vp for an abandoned fixture, or neither (0-0)")
        if home_vp is None:
            home_vp = away_vp = 0  # GB-8: an abandoned match records the VP so far, or 0-0
        return {"home_score": home_vp, "away_score": away_vp}

    def terms(self):
        """GB-7: 3 LP for the winner, 0 for the loser; GB-6: 0 each when abandoned.
        GB-9's VP; GB-6 Decision: VP of an abandoned match are kept for information
        only and count for nothing here."""
        counts = ~ABANDONED_MATCH
        vp_for, vp_against = when(counts, Score()), when(counts, Score(mine=False))
        return {
            "lp": when(WON, WIN_LP, LOSS_LP),
            "vp_for": vp_for,
            "vp_against": vp_against,
            "vp_diff": Difference(vp_for, vp_against, of=("vp_for", "vp_against")),
        }


def _check_not_negative(*scores: int) -> None:
    """No negative VP, and none above the engine's bound even with an override
    (STYLE habit 15: a Result's scores are bounded by a database check too)."""
    if any(score < 0 for score in scores):
        raise ValidationError("Victory Points cannot be negative.")
    if any(score > MAX_SCORE for score in scores):
        raise ValidationError(f"No side scores more than {MAX_SCORE} VP, even with an override.")
