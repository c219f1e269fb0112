"""Ringball's leaderboard (league/records/boards.py): rings scored and conceded."""

from __future__ import annotations

from django.db.models import Count, Sum

from league.models import Result
from league.records.boards import Board, Column, Scope, SideTotals, coaches_in, counted_results, other


def _rows(scope: Scope):
    return SideTotals(Result.objects.filter(counted_results(scope)), lambda side: f"fixture__{side}__coach", {
        "played": lambda side: Count("pk"),
        "rings_for": lambda side: Sum(f"{side}_score"),
        "rings_against": lambda side: Sum(f"{other(side)}_score"),
    }, coaches_in(scope))


RINGS = Board(
    key="rings", title="Rings", game="ringball", named="Coach",
    columns=(Column("played", "Played"), Column("rings_for", "Rings for"), Column("rings_against", "Rings against")),
    rows=_rows, order="rings_for", about="Rings scored and conceded in matches with an approved result.",
)
