"""DreadBall result rules (RULES.md DR-1 to DR-4).

A result is the winner (or a draw), the final score difference, the Rush the game
ended in and whether Sudden Death was played; landslide follows from the
difference. ``check_result`` is the DR-3 Decision as a pure function; the checks
run in this order and the first that fails is the coach's message:

1. a draw has a difference of 0 (DR-3);
2. a win has a difference of 1 to 7, or of 0 in Sudden Death (DR-3 Decision: won
   with the score level when only one team can still throw, as the seed allows);
3. a draw needs Sudden Death (DR-3 Decision; DR-2: level after 14 Rushes goes on);
4. with Sudden Death the game ended in Rush 15 or later (DR-3 Decision);
5. without Sudden Death it ended by Rush 14 (DR-3 Decision);
6. a game that ended before Rush 14 was a landslide, a difference of 7 (DR-3
   Decision; DR-2: only a lead of 7 ends the game early);
7. a Sudden Death game is won by at most 4, so never by landslide: it starts
   level, a Rush ends with its one Strike (1 to 4 points, DR-1) and the game ends
   at the end of the Visiting team's Rush once a side is ahead (DR-2).

Rush and difference are also bounded (1 to 30, 0 to 7) at the form and the database.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.core.exceptions import ValidationError
from django.urls import reverse

from league.dreadball.forms import DreadBallResultForm
from league.dreadball.models import (
    LANDSLIDE_DIFFERENCE,
    MAX_DIFFERENCE,
    MAX_RUSH,
    REGULATION_RUSHES,
    SUDDEN_DEATH_MAX_DIFFERENCE,
    DreadBallResult,
    DreadBallSettings,
)
from league.rules.base import ABANDONED, AWAY_WIN, DRAW, HOME_WIN, GameRules, Stat, Verdict
from league.rules.importing import parse_choice, parse_whole_number
from league.rules.terms import DRAWN, LOST_TO_OPPONENT, WON, Detail, Flag, when

WINNERS = (HOME_WIN, AWAY_WIN, DRAW)
YES_NO = {"yes": True, "no": False}


def check_result(*, winner: str, difference: int, rush: int, sudden_death: bool) -> None:
    """The DR-3 Decision: raise ValidationError with the first check that fails
    (the order is the module docstring's)."""
    if winner not in WINNERS:
        raise ValidationError("Choose who won, or a draw.")
    if not 0 <= difference <= MAX_DIFFERENCE:
        raise ValidationError("The difference is 0 to 7: a lead of 7 wins by landslide at once.")
    if not 1 <= rush <= MAX_RUSH:
        raise ValidationError(f"The Rush is 1 to {MAX_RUSH}.")
    if winner == DRAW and difference != 0:
        raise ValidationError(f"A draw ends level: the difference is 0, not {difference}.")
    if winner != DRAW and difference == 0 and not sudden_death:
        raise ValidationError(
            "A win is by 1 to 7; a difference of 0 is a draw, or a Sudden Death win when only one team "
            "could still throw."
        )
    if winner == DRAW and not sudden_death:
        raise ValidationError(
            "A draw needs Sudden Death: level after Rush 14, the game goes on, and only ends level "
            "when neither team can score."
        )
    if sudden_death and rush <= REGULATION_RUSHES:
        raise ValidationError(
            f"Sudden Death starts after Rush 14, so a game with Sudden Death ended in Rush 15 or later, "
            f"not Rush {rush}."
        )
    if not sudden_death and rush > REGULATION_RUSHES:
        raise ValidationError(
            f"A game ends by Rush 14 unless it goes to Sudden Death: one that ended in Rush {rush} "
            f"went to Sudden Death."
        )
    if rush < REGULATION_RUSHES and difference != LANDSLIDE_DIFFERENCE:
        raise ValidationError(
            f"A game that ended in Rush {rush} must have been a landslide: a difference of 7."
        )
    if sudden_death and difference > SUDDEN_DEATH_MAX_DIFFERENCE:
        raise ValidationError(
            f"Sudden Death starts level and ends after a Visiting Rush with one side ahead, so it is won "
            f"by 1 to 4 (one Strike), never by {difference}{' (a landslide)' if difference == 7 else ''}."
        )


class DreadBallRules(GameRules):
    system = "dreadball"
    name = "DreadBall"
    app_label = "dreadball"
    entry_label = "Team"
    rows_named_by_team = False
    score_label = None  # DR-1: one running difference, no score per side
    allows_draws = True
    allows_override = False
    abandoned_label = "Abandoned"
    stats = (
        Stat("landslides", "landslides won", "LS"),
        Stat("strike_diff", "Strike Difference", "SD±", signed=True),
    )
    # DR-4: League Points, then Strike Difference, then landslides won.
    tiebreakers = ("strike_diff", "landslides")
    feed_columns = (
        "position", "tied", "coach", "team", "played", "won", "drawn", "lost", "landslides", "lp", "strike_diff",
    )
    settings_model = DreadBallSettings
    settings_fields = ("landslide_win", "win", "draw", "loss")  # DR-4
    # DR-4: League Points per result, the same for every match of a season.
    settings_locked = {"landslide_win": "DR-4", "win": "DR-4", "draw": "DR-4", "loss": "DR-4",
                       "head_to_head_first": "DR-4"}

    @classmethod
    def data_pages(cls, league) -> list[tuple[str, str, str]]:
        return [("Published teams", reverse("dreadball:published_teams", args=[league.slug]),
                 "The published teams your coaches pick from, with their rosters: every league's, "
                 "and those you add for this league.")]
    detail_values = {"difference": "dreadball_detail__difference", "landslide": "dreadball_detail__landslide"}
    detail_models = (DreadBallResult,)
    import_columns = ("winner", "difference", "rush", "sudden_death")
    import_statuses = ("played", "abandoned")

    def _points(self) -> DreadBallSettings:
        return self.settings if self.settings is not None else DreadBallSettings()

    # Reporting -------------------------------------------------------------------

    def report_form_class(self):
        return DreadBallResultForm

    def form_labels(self, form, fixture) -> None:
        form.fields["winner"].choices = [
            (HOME_WIN, f"{fixture.home} won"),
            (AWAY_WIN, f"{fixture.away} won" if fixture.away_id else "Away won"),
            (DRAW, "Draw (only after Sudden Death)"),
        ]

    def initial_from(self, result) -> dict[str, Any]:
        detail = _detail(result)
        if detail is None:
            return {}
        return {
            "winner": result.outcome,
            "difference": detail.difference,
            "rush": detail.rush,
            "sudden_death": detail.sudden_death,
        }

    def report_help(self) -> str:
        return (
            "A lead of 7 wins at once by landslide; otherwise the game ends after Rush 14, "
            "or in Sudden Death (Rush 15 or later) when level."
        )

    def abandon_help(self) -> str:
        return "Abandoned: both coaches record a loss, with no Strike Difference; the result boxes are ignored"

    def validate(self, facts: Mapping[str, Any], *, override: bool = False, abandoned: bool = False) -> Verdict:
        if abandoned:
            return Verdict(ABANDONED)
        winner, difference, rush = facts.get("winner"), facts.get("difference"), facts.get("rush")
        if winner in (None, "") or difference is None or rush is None:
            raise ValidationError("Give the result, the final score difference and the Rush the game ended in.")
        sudden_death = bool(facts.get("sudden_death"))
        check_result(winner=winner, difference=difference, rush=rush, sudden_death=sudden_death)
        return Verdict(
            winner,
            details={
                "difference": difference,
                "landslide": difference == LANDSLIDE_DIFFERENCE,
                "rush": rush,
                "sudden_death": sudden_death,
            },
        )

    def save_details(self, result, verdict: Verdict) -> None:
        if verdict.outcome == ABANDONED:
            DreadBallResult.objects.filter(result=result).delete()
            return
        DreadBallResult.objects.update_or_create(result=result, defaults=dict(verdict.details))

    def verdict_of(self, result) -> Verdict:
        detail = _detail(result)
        details = {}
        if detail is not None:
            details = {
                "difference": detail.difference,
                "landslide": detail.landslide,
                "rush": detail.rush,
                "sudden_death": detail.sudden_death,
            }
        return Verdict(result.outcome, result.home_score, result.away_score, result.conceded, details)

    def summary(self, verdict: Verdict) -> str:
        """"7–0, landslide", "0–2", "0–0, Sudden Death": the winner's side shows the
        difference (DR-1 keeps no per-side score). A Sudden Death win with the score
        level (DR-3 Decision) says so: "0–0, Sudden Death win", never a draw's words."""
        if verdict.outcome == ABANDONED:
            return "abandoned"
        difference = verdict.details["difference"]
        text = f"0–{difference}" if verdict.outcome == AWAY_WIN else f"{difference}–0"
        if verdict.details["landslide"]:
            text += ", landslide"
        if verdict.details["sudden_death"]:
            text += ", Sudden Death win" if difference == 0 and verdict.outcome != DRAW else ", Sudden Death"
        return text

    # Import ------------------------------------------------------------------------

    def parse_import_row(self, values: Mapping[str, str], *, status: str) -> dict[str, Any]:
        """``winner`` home/away/draw, ``difference`` and ``rush`` whole numbers,
        ``sudden_death`` yes/no. An abandoned line may leave them empty (they are
        not kept); what is given is still checked."""
        facts = {
            "winner": parse_choice(values, "winner", WINNERS),
            "difference": parse_whole_number(values, "difference"),
            "rush": parse_whole_number(values, "rush"),
            "sudden_death": None,
        }
        sudden_death = parse_choice(values, "sudden_death", tuple(YES_NO))
        facts["sudden_death"] = YES_NO[sudden_death] if sudden_death is not None else None
        if status != ABANDONED:
            missing = [name for name, value in facts.items() if value is None]
            if missing:
                raise ValueError(f"a played game needs {', '.join(missing)}")
        return facts

    # Standings ---------------------------------------------------------------------

    def terms(self):
        """DR-4 Decision, from the league's settings: League Points per outcome
        (abandoned is a loss for both); Strike Difference is the differences won
        minus those lost, an abandoned match or a draw counting for neither;
        landslides won."""
        points = self._points()
        difference = Detail("difference", self.detail_values["difference"])
        landslide = Flag("landslide", self.detail_values["landslide"])
        return {
            "lp": when(DRAWN, points.draw, when(WON, when(landslide, points.landslide_win, points.win), points.loss)),
            "strike_diff": when(WON, difference, when(LOST_TO_OPPONENT, -difference)),
            "landslides": when(WON & landslide, 1),
        }

    def row_figures(self, row) -> str:
        return f"Strike Difference {row.stats['strike_diff']:+d}, {row.stats['landslides']} landslide(s) won"

    def standings_help(self) -> str:
        p = self._points()
        return (
            f"Order: League Points (landslide win {p.landslide_win}, other win {p.win}, draw {p.draw}, "
            f"loss {p.loss}), then Strike Difference (differences won minus lost), then landslides won. "
            "Coaches level on all three share the position. An abandoned match is a loss for both."
        )


def _detail(result) -> DreadBallResult | None:
    try:
        return result.dreadball_detail
    except DreadBallResult.DoesNotExist:
        return None


__all__ = ["DreadBallRules", "check_result"]
