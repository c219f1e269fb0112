"""Ringball: the side with more rings wins, level is a draw; a win is worth the
league's ``win_points``, a draw 1; ties are broken by rings scored."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.core.exceptions import ValidationError

from league.rules.base import ABANDONED, AWAY_WIN, DRAW, HOME_WIN, GameRules, Stat, Verdict
from league.rules.importing import parse_whole_number
from league.rules.terms import ABANDONED_MATCH, DRAWN, WON, Score, when
from tests.fourth_game.forms import RingballResultForm
from tests.fourth_game.models import RingballSettings


class RingballRules(GameRules):
    system = "ringball"
    name = "Ringball"
    app_label = "fourth_game"
    entry_label = "Crew"
    score_label = "rings"
    allows_draws = True
    stats = (Stat("rings_for", "rings scored", "R+"), Stat("rings_against", "rings conceded", "R−"))
    tiebreakers = ("rings_for",)
    feed_columns = ("position", "tied", "coach", "played", "won", "drawn", "lost", "lp", "rings_for", "rings_against")
    settings_model = RingballSettings
    import_columns = ("home_rings", "away_rings")

    def report_form_class(self):
        return RingballResultForm

    def initial_from(self, result) -> dict[str, Any]:
        return {"home_score": result.home_score, "away_score": result.away_score}

    def standings_help(self) -> str:
        return "Order: League Points, then rings scored."

    def validate(self, facts: Mapping[str, Any], *, override: bool = False, abandoned: bool = False) -> Verdict:
        home, away = facts.get("home_score") or 0, facts.get("away_score") or 0
        if home < 0 or away < 0:
            raise ValidationError("Rings cannot be negative.")
        if abandoned:
            return Verdict(ABANDONED, home, away)
        outcome = HOME_WIN if home > away else AWAY_WIN if away > home else DRAW
        return Verdict(outcome, home, away)

    def parse_import_row(self, values: Mapping[str, str], *, status: str) -> dict[str, Any]:
        return {"home_score": parse_whole_number(values, "home_rings") or 0,
                "away_score": parse_whole_number(values, "away_rings") or 0}

    def terms(self):
        win = self.settings.win_points if self.settings is not None else 2
        counts = ~ABANDONED_MATCH
        return {
            "lp": when(WON, win, when(DRAWN, 1)),
            "rings_for": when(counts, Score()),
            "rings_against": when(counts, Score(mine=False)),
        }
