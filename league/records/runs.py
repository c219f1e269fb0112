"""Longest winning runs in one SQL statement (gaps and islands), so a record over
a game's million results costs one query and no row in Python.

Each match is two rows, one per side: (coach, won), numbered by the moment it was
played (the day, then the fixture, then home before away). Per coach, in that
order, a row's run group is how many of the coach's matches up to it were not won:
it stays the same along consecutive wins and grows at every draw or loss (one
running sum, where a row number among all matches minus one among matches of the
same kind would sort each coach's matches twice). The wins of one group are one
run, ended at its latest moment. Each coach keeps their
longest run (the earlier one of two as long), and the coaches are ranked by its
length, then the run that ended first, then the coach. Each step reads the one
before it once (no join back to a step, which SQLite would run as a nested loop
over every match). Window functions need SQLite 3.25 or PostgreSQL.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import connection
from django.db.models import F, QuerySet
from django.db.models.functions import Coalesce

from league.models import Result


@dataclass(frozen=True)
class Run:
    coach_id: int
    length: int


_RUNS = """
WITH matches AS ({matches}),
sides AS (
    SELECT run_home AS coach, run_day AS day, run_fixture AS fixture, 0 AS side,
           CASE WHEN run_outcome = %s THEN 1 ELSE 0 END AS won
    FROM matches
    UNION ALL
    SELECT run_away, run_day, run_fixture, 1,
           CASE WHEN run_outcome = %s THEN 1 ELSE 0 END
    FROM matches
    WHERE run_away IS NOT NULL
),
moments AS (
    SELECT coach, won, ROW_NUMBER() OVER (ORDER BY day, fixture, side) AS moment
    FROM sides
),
numbered AS (
    SELECT coach, won, moment,
           SUM(1 - won) OVER (PARTITION BY coach ORDER BY moment ROWS UNBOUNDED PRECEDING) AS island
    FROM moments
),
runs AS (
    SELECT coach, COUNT(*) AS length, MAX(moment) AS ended,
           ROW_NUMBER() OVER (PARTITION BY coach ORDER BY COUNT(*) DESC, MAX(moment)) AS coach_rank
    FROM numbered
    WHERE won = 1
    GROUP BY coach, island
)
SELECT coach, length FROM runs WHERE coach_rank = 1 ORDER BY length DESC, ended, coach
LIMIT %s
"""


def longest_runs(results: QuerySet, *, limit: int) -> list[Run]:
    """Each coach's longest run of consecutive wins over ``results`` (the counted
    results of a scope, across seasons), longest first, then the run that ended
    first, then the coach, at most ``limit``. A draw or a loss ends a run; a coach
    with no win has no run. One query."""
    matches = (
        results.order_by()
        .annotate(run_day=Coalesce("fixture__date", "fixture__round__date"), run_fixture=F("fixture_id"),
                  run_home=F("fixture__home__coach_id"), run_away=F("fixture__away__coach_id"),
                  run_outcome=F("outcome"))
        .values("run_day", "run_fixture", "run_home", "run_away", "run_outcome")
    )
    sql, params = matches.query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute(_RUNS.format(matches=sql),
                       [*params, Result.Outcome.HOME_WIN, Result.Outcome.AWAY_WIN, limit])
        return [Run(coach_id, length) for coach_id, length in cursor.fetchall()]
