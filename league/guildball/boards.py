"""Guild Ball's leaderboard (league/records/boards.py): Victory Points scored and
conceded in League Matches (GB-9's VP for and against)."""

from __future__ import annotations

from django.db.models import Count, Sum

from league.models import Result
from league.records.boards import Board, Column, Scope, SideTotals, coaches_in, counted_results, other


def _rows(scope: Scope):
    return SideTotals(Result.objects.filter(counted_results(scope)), lambda side: f"fixture__{side}__coach", {
        "played": lambda side: Count("pk"),
        "vp_for": lambda side: Sum(f"{side}_score"),
        "vp_against": lambda side: Sum(f"{other(side)}_score"),
    }, coaches_in(scope))


VICTORY_POINTS = Board(
    key="vp", title="Victory Points", game="guildball", named="Coach",
    columns=(Column("played", "Played"), Column("vp_for", "VP for"), Column("vp_against", "VP against")),
    rows=_rows, order="vp_for",
    about="Victory Points scored and conceded in League Matches and play-offs with an approved result.",
)
