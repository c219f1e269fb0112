"""Standings summed in the database (GB-9, DB-5a, DR-4), for games that declare
their ``terms`` (league/rules/terms.py).

One aggregate query reads every approved regular-season result once: each result
row is counted for both sides (a cross join with two rows, "home" and "away"), and
each side's figures are the game's terms compiled to SQL. Rows are grouped by entry
and by whether the result is in the latest round with a result, so the same query
gives the table and the table before that round, whose positions give each row's
movement. The ranking is the pure ``rank`` of league/standings.py.
"""

from __future__ import annotations

from django.db import connection
from django.db.models import F

from league.rules.base import GameRules
from league.rules.terms import ENGINE_SUMMED, ENGINE_TERMS, Difference
from league.standings import EntryInfo, StandingRow, _new_rows, approved_results, rank


def latest_round_sql(season) -> tuple[str, tuple]:
    """The highest round number with an approved regular-season result, as a
    scalar subquery (the database runs it once)."""
    from league.models import Fixture, Result, Round

    rounds = Round.objects.filter(
        season=season,
        fixtures__stage=Fixture.Stage.REGULAR,
        fixtures__result__status=Result.Status.APPROVED,
    ).order_by("-number").values("number")[:1]
    return rounds.query.sql_with_params()


def side_sums(season, rules: GameRules) -> list[tuple]:
    """(entry id, 1 if the result is in the latest round with a result else 0,
    played, then one sum per key of ``sum_keys(rules)``) for every entry with an
    approved result: one query."""
    terms = {**ENGINE_TERMS, **rules.side_terms()}
    keys = sum_keys(rules)
    per_result = approved_results(season).annotate(
        rnd=F("fixture__round__number"),
        home=F("fixture__home_id"),
        away=F("fixture__away_id"),
        **{f"h{i}": terms[key].sql("home") for i, key in enumerate(keys)},
        **{f"a{i}": terms[key].sql("away") for i, key in enumerate(keys)},
    ).values("rnd", "home", "away", *(f"{s}{i}" for i in range(len(keys)) for s in "ha"))
    inner, params = per_result.query.sql_with_params()
    latest, latest_params = latest_round_sql(season)
    n = len(keys)
    sums = ", ".join(f"SUM(CASE WHEN s.side = 0 THEN t.h{i} ELSE t.a{i} END)" for i in range(n))
    sql = (
        "SELECT CASE WHEN s.side = 0 THEN t.home ELSE t.away END, "
        f"CASE WHEN t.rnd = ({latest}) THEN 1 ELSE 0 END, COUNT(*), "
        f"{sums} FROM ({inner}) t CROSS JOIN (SELECT 0 AS side UNION ALL SELECT 1) s GROUP BY 1, 2"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [*latest_params, *params])
        return cursor.fetchall()


def sum_keys(rules: GameRules) -> tuple[str, ...]:
    """What the database sums: won, drawn, LP and every figure that is not the
    difference of two others."""
    terms = rules.side_terms()
    return (*ENGINE_SUMMED, "lp", *(s.key for s in rules.stats if not isinstance(terms[s.key], Difference)))


def standings(season, entries: list[EntryInfo], rules: GameRules) -> list[StandingRow]:
    """The ranked table with movement: one query (the entries are given)."""
    rows = _new_rows(entries, rules)
    before = _new_rows(entries, rules)
    keys = sum_keys(rules)[3:]
    differences = [(key, term.of) for key, term in rules.side_terms().items() if isinstance(term, Difference)]
    earlier = False
    for entry_id, in_latest, played, won, drawn, lp, *figures in side_sums(season, rules):
        targets = [rows.get(entry_id)]
        if not in_latest:
            earlier = True
            targets.append(before.get(entry_id))
        for row in targets:
            if row is None:
                continue
            won, drawn = int(won or 0), int(drawn or 0)
            row.played += played
            row.won += won
            row.drawn += drawn
            row.lost += played - won - drawn
            row.lp += int(lp or 0)
            for key, value in zip(keys, figures):
                row.stats[key] += int(value or 0)
    for row in (*rows.values(), *before.values()):
        for key, (a, b) in differences:
            row.stats[key] = row.stats[a] - row.stats[b]
    table = rank(list(rows.values()), rules)
    if earlier:
        previous = {row.entry_id: row.position for row in rank(list(before.values()), rules, explain_ties=False)}
        for row in table:
            row.movement = previous[row.entry_id] - row.position
    return table
