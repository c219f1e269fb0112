"""Longest winning runs in one SQL statement (gaps and islands), so a record over
a game's million results costs one query and no row in Python.

Each match is two rows, one per side: (coach, played on, fixture, side, won). Per
coach, in the order the matches were played (the day, then the fixture, then home
before away), a row's run group is its row number among the coach's matches minus
its row number among the coach's matches of the same kind (won or not won): the
difference stays the same along consecutive wins and changes at every draw or loss.
The wins of one group are one run. Each coach keeps their longest run (the earlier
one of two as long), and the coaches are ranked by its length, then the run that
ended first, then the coach. Window functions need SQLite 3.25 or PostgreSQL.
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
numbered AS (
    SELECT coach, day, fixture, won,
           ROW_NUMBER() OVER (PARTITION BY coach ORDER BY day, fixture, side) AS place,
           ROW_NUMBER() OVER (PARTITION BY coach ORDER BY day, fixture, side)
             - ROW_NUMBER() OVER (PARTITION BY coach, won ORDER BY day, fixture, side) AS island
    FROM sides
),
runs AS (
    SELECT coach, COUNT(*) AS length, MAX(place) AS last_place,
           ROW_NUMBER() OVER (PARTITION BY coach ORDER BY COUNT(*) DESC, MAX(place)) AS coach_rank
    FROM numbered
    WHERE won = 1
    GROUP BY coach, island
)
SELECT runs.coach, runs.length
FROM runs JOIN numbered ON numbered.coach = runs.coach AND numbered.place = runs.last_place
WHERE runs.coach_rank = 1
ORDER BY runs.length DESC, numbered.day, numbered.fixture, runs.coach
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
