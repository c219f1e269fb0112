"""DreadBall's leaderboard and champion (league/records): landslides won (DR-2,
DR-3), Strike Difference (DR-4: the sum of score differences, won minus lost) and
Sudden Death wins (DR-2)."""

from __future__ import annotations

from django.db.models import Case, Count, F, IntegerField, Q, Sum, Value, When

from league.dreadball.models import DreadBallResult
from league.records.boards import Board, Column, Scope, SideTotals, coaches_in, counted_results, lost, won


def _rows(scope: Scope):
    details = DreadBallResult.objects.filter(counted_results(scope, "result"))
    coach = lambda side: f"result__fixture__{side}__coach"  # noqa: E731

    def difference(side: str):
        return Sum(Case(When(won(side, "result"), then=F("difference")),
                        When(lost(side, "result"), then=-F("difference")), default=Value(0),
                        output_field=IntegerField()))

    return SideTotals(details, coach, {
        "played": lambda side: Count("pk"),
        "landslides": lambda side: Count("pk", filter=Q(landslide=True) & won(side, "result")),
        "strike_difference": difference,
        "sudden_death_wins": lambda side: Count("pk", filter=Q(sudden_death=True) & won(side, "result")),
    }, coaches_in(scope))


COACHES = Board(
    key="coaches", title="Coaches", game="dreadball", named="Coach",
    columns=(Column("played", "Played"), Column("landslides", "Landslides"),
             Column("strike_difference", "Strike Difference"), Column("sudden_death_wins", "Sudden Death wins")),
    rows=_rows, order="strike_difference",
    about="From approved league and play-off games: landslides won, the sum of score differences won minus lost, "
          "and games won in Sudden Death.",
)
