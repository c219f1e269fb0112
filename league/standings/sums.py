"""Standings summed in the database (GB-9, DB-5a, DR-4), for games that declare
their ``terms`` (league/rules/terms.py).

One aggregate query reads every approved regular-season result once and sums only
plain columns (the count, both scores, the game's numeric details), grouped by
side and entry and by everything the terms' conditions read: the outcome, the
game's flags, and whether the result is in the latest round with a result (so the
same query gives the table and the table before that round, whose positions give
each row's movement). On PostgreSQL the home and away groupings are two grouping
sets of one pass; elsewhere two GROUP BYs joined by UNION ALL.

Each group is a ``terms.Summed`` and the terms are evaluated on it in Python:
a term is linear in the summed values once its conditions are settled, so its
coefficients are worked out once per kind of group (side, outcome, flags) and each
group costs a few multiplications. The ranking is the pure ``rank`` of
league/standings/ranking.py.
"""

from __future__ import annotations

from django.db import connection
from django.db.models import F

from league.models import Fixture, Result, Round
from league.standings.ranking import EntryInfo, StandingRow, new_rows, rank
from league.rules.base import GameRules
from league.rules.terms import Detail, Flag, Summing
from league.selectors import approved_results


def latest_round_sql(season) -> tuple[str, tuple]:
    """The highest round number with an approved regular-season result, as a
    scalar subquery (the database runs it once)."""
    rounds = Round.objects.filter(
        season=season,
        fixtures__stage=Fixture.Stage.REGULAR,
        fixtures__result__status=Result.Status.APPROVED,
    ).order_by("-number").values("number")[:1]
    return rounds.query.sql_with_params()


def side_groups(season, flags: list[Flag], details: list[Detail]) -> list[tuple]:
    """One query: (0 for home or 1 for away, entry id, in the latest round, outcome,
    each flag, count, home score sum, away score sum, each detail's sum) for every
    group of approved results."""
    per_result = approved_results(season).values(
        rnd=F("fixture__round__number"),
        home=F("fixture__home_id"),
        away=F("fixture__away_id"),
        o=F("outcome"),
        hs=F("home_score"),
        xs=F("away_score"),
        **{f"f{i}": F(flag.lookup) for i, flag in enumerate(flags)},
        **{f"d{i}": F(detail.lookup) for i, detail in enumerate(details)},
    )
    inner, params = per_result.query.sql_with_params()
    latest, latest_params = latest_round_sql(season)
    keys = ", ".join(["t.o", *(f"t.f{i}" for i in range(len(flags)))])
    sums = ", ".join(["COUNT(*)", "SUM(t.hs)", "SUM(t.xs)", *(f"SUM(t.d{i})" for i in range(len(details)))])
    # A comparison, not a CASE: PostgreSQL knows it has two values, and so plans a
    # hash aggregate (a CASE looks like 200 values and gets a sort spilled to disk).
    in_latest = f"t.rnd = ({latest})"
    if connection.vendor == "postgresql":
        sql = (
            f"SELECT GROUPING(t.home), CASE WHEN GROUPING(t.home) = 0 THEN t.home ELSE t.away END, "
            f"{in_latest}, {keys}, {sums} FROM ({inner}) t "
            f"GROUP BY GROUPING SETS ((t.home, 3, {keys}), (t.away, 3, {keys}))"
        )
        arguments = [*latest_params, *params]
    else:
        sql = " UNION ALL ".join(
            f"SELECT {side}, t.{column}, {in_latest}, {keys}, {sums} FROM ({inner}) t GROUP BY 2, 3, {keys}"
            for side, column in ((0, "home"), (1, "away"))
        )
        arguments = [*latest_params, *params] * 2
    with connection.cursor() as cursor:
        cursor.execute(sql, arguments)
        return cursor.fetchall()


def standings(season, entries: list[EntryInfo], rules: GameRules) -> list[StandingRow]:
    """The ranked table with movement: one query (the entries are given)."""
    rows = new_rows(entries, rules)
    before = new_rows(entries, rules)
    summing = Summing(rules)
    n_flags = len(summing.flags)
    earlier = False
    for side, entry_id, in_latest, outcome, *rest in side_groups(season, summing.flags, summing.details):
        values = [int(value or 0) for value in rest[n_flags:]]
        targets = [rows.get(entry_id)]
        if not in_latest:
            earlier = True
            targets.append(before.get(entry_id))
        for row in targets:
            if row is not None:
                summing.add(row, "away" if side else "home", outcome, tuple(rest[:n_flags]), values)
    for row in (*rows.values(), *before.values()):
        summing.settle(row)
    table = rank(list(rows.values()), rules)
    if earlier:
        previous = {row.entry_id: row.position for row in rank(list(before.values()), rules, explain_ties=False)}
        for row in table:
            row.movement = previous[row.entry_id] - row.position
    return table
