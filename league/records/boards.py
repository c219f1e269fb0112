"""Leaderboards: each game and layer declares its boards (league/games.py).

A board is a name, its columns and a query over the game's own models scoped to a
season, a league or the whole site for one game (``Scope``). Each board's rows are
one SQL statement (grouped sums; figures counted from both sides of a match are
each side's grouping added up in one more, ``SideTotals``), never a loop over rows
in Python, so a board costs the same number of queries whatever the number of
coaches, and its order happens in the database.

What counts, for every board built on results (``counted_results``): approved
results of regular-season and play-off fixtures that were played. Friendlies count
for nothing in a league (DB-5a) and abandoned or unplayed games were not played.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.db import connection
from django.db.models import Expression, F, Q, QuerySet

from league import games
from league.models import Coach, Entry, Fixture, Result

SIDES = ("home", "away")
COUNTED_STAGES = (Fixture.Stage.REGULAR, Fixture.Stage.PLAYOFF)


@dataclass(frozen=True)
class Scope:
    """Which seasons a board or a record reads: every season of ``game``'s leagues,
    one league's or one season's."""

    game: str
    league_id: int | None = None
    season_id: int | None = None

    def seasons(self, path: str = "") -> Q:
        """The condition on the seasons at ``path`` (a lookup path to a Season from
        the model filtered, "" for Season itself)."""
        prefix = f"{path}__" if path else ""
        condition = Q(**{f"{prefix}league__game_system": self.game})
        if self.league_id is not None:
            condition &= Q(**{f"{prefix}league_id": self.league_id})
        if self.season_id is not None:
            condition &= Q(**{f"{prefix}pk": self.season_id})
        return condition


@dataclass(frozen=True)
class Column:
    key: str  # the row's key in the query, the JSON and the CSV
    label: str  # the header on the page
    text: bool = False  # a name (sorted A to Z), not a figure (sorted largest first)


@dataclass(frozen=True)
class Board:
    """One leaderboard of ``game``. ``rows(scope)`` is a ``values()`` queryset: each
    row has ``coach_id``, the coach's name under ``coach_field``, the row's own name
    under ``name_field`` when the row is not the coach but a player or a team
    (``named``), and every column's key. ``order`` is the default order (a column
    key, ``-`` first for largest first)."""

    key: str
    title: str
    game: str
    named: str  # the header of the identifying column: "Coach", or "Player", "Team" (rows with a ``name``)
    columns: tuple[Column, ...]
    rows: Callable[[Scope], QuerySet]
    order: str
    about: str = ""
    coach_field: str = "coach"
    name_field: str = ""

    @property
    def keys(self) -> tuple[str, ...]:
        return tuple(column.key for column in self.columns)

    @property
    def by_coach(self) -> bool:
        """Each row is a coach (not a player or a team they coach)."""
        return not self.name_field

    @property
    def ident(self) -> str:
        """The query's key of the identifying column."""
        return self.name_field or self.coach_field

    def line(self, row: dict) -> dict:
        """A row as the page, the JSON and the CSV show it: ``coach_id``, ``coach``,
        ``name`` (a player's or a team's board) and the columns, in order."""
        found = {"coach_id": row["coach_id"], "coach": row[self.coach_field]}
        if self.name_field:
            found["name"] = row[self.name_field]
        return found | {key: row[key] for key in self.keys}

    def sortable(self, sort: str) -> str:
        """``sort`` if the board sorts by it (a column, ``coach``, or ``name`` on a
        player's or team's board; ``-`` first for the other way round), else ""."""
        names = ("coach", "name") if self.name_field else ("coach",)
        return sort if sort.lstrip("-") in (*self.keys, *names) else ""

    def sorted_rows(self, scope: Scope, sort: str = "") -> QuerySet:
        """Rows in ``sort`` order (else the board's own), ties by name. A figure
        sorts largest first, and smallest first with ``-``; a name A to Z, and Z
        to A with ``-`` (the page's headers ask for these: league/web/tables.py)."""
        sort = self.sortable(sort) or self.order
        key = sort.lstrip("-")
        field = {"coach": self.coach_field, "name": self.name_field}.get(key, key)
        text = key in ("coach", "name") or any(column.key == key and column.text for column in self.columns)
        reverse = sort.startswith("-") == text  # largest first, or Z to A
        return self.rows(scope).order_by(f"-{field}" if reverse else field, self.ident, "coach_id")


def boards_for(game: str) -> list[Board]:
    """``game``'s boards (its own, then its layers') in the order they were declared."""
    return [board for declaration in games.serving(game) for board in declaration.boards if board.game == game]


def board_for(game: str, key: str) -> Board | None:
    """``game``'s board ``key``, or its first board when ``key`` names none."""
    boards = boards_for(game)
    return next((board for board in boards if board.key == key), boards[0] if boards else None)


# Shared queries the games build their boards from --------------------------------


def counted_results(scope: Scope, path: str = "") -> Q:
    """The condition on the results at ``path`` ("" for Result itself) that a board
    counts: approved, played, regular season or play-off, in ``scope``."""
    prefix = f"{path}__" if path else ""
    return (
        scope.seasons(f"{prefix}fixture__round__season")
        & Q(**{f"{prefix}status": Result.Status.APPROVED, f"{prefix}fixture__stage__in": COUNTED_STAGES})
        & ~Q(**{f"{prefix}outcome": Result.Outcome.ABANDONED})
    )


class SideTotals:
    """Figures summed over both sides of the matches in ``rows``, one row per owner
    of a side (a coach, a team), in one statement: each side's rows grouped by
    their owner (``owner(side)``, the ORM's own SQL, each ``figures[key](side)`` an
    aggregate), the two groupings added up in a GROUP BY over both (UNION ALL), and
    joined to ``owners``: a ``values()`` query of the owners' own columns, their id
    as ``owner``. Only owners with a row in ``rows`` are listed. The matches are
    read once a side, as one GROUP BY reads them.

    It answers as the querysets the pages read: ``order_by``, ``count()``, slicing
    (LIMIT and OFFSET), iteration (rows as dicts), each a single query; a page
    (``count()``, then a slice) reads every row once and slices what it read."""

    def __init__(self, rows: QuerySet, owner: Callable[[str], str], figures: dict[str, Callable[[str], Expression]],
                 owners: QuerySet, *, order: tuple[str, ...] = (), limits: tuple[int, int | None] = (0, None)):
        self._rows, self._owner, self._figures, self._owners = rows, owner, figures, owners
        self._order, self._limits = order, limits
        self._found: list[dict] | None = None

    def _copy(self, **changed) -> SideTotals:
        kept = {"order": self._order, "limits": self._limits} | changed
        return SideTotals(self._rows, self._owner, self._figures, self._owners, **kept)

    def order_by(self, *fields: str) -> SideTotals:
        return self._copy(order=fields)

    @property
    def ordered(self) -> bool:
        return bool(self._order)

    def _sql(self) -> tuple[str, list]:
        q = connection.ops.quote_name
        keys = list(self._figures)
        sides, params = [], []
        for side in SIDES:
            grouped = (self._rows.order_by().values(owner=F(self._owner(side)))
                       .annotate(**{key: figure(side) for key, figure in self._figures.items()}).values("owner", *keys))
            sql, side_params = grouped.query.sql_with_params()
            sides.append(sql)
            params += side_params
        owners, owner_params = self._owners.order_by().query.sql_with_params()  # the outer query orders
        totals = ", ".join(f"CAST(SUM(s.{q(key)}) AS BIGINT) AS {q(key)}" for key in keys)
        sql = (f"SELECT n.*, {', '.join(f't.{q(key)}' for key in keys)} FROM ({owners}) n "
               f"INNER JOIN (SELECT s.{q('owner')} AS {q('owner')}, {totals} FROM ({sides[0]} UNION ALL {sides[1]}) s "
               f"GROUP BY s.{q('owner')}) t ON t.{q('owner')} = n.{q('owner')}")
        return sql, [*owner_params, *params]

    def _ordered_sql(self) -> tuple[str, list]:
        sql, params = self._sql()
        q = connection.ops.quote_name
        if self._order:
            sql = f"SELECT * FROM ({sql}) b ORDER BY " + ", ".join(
                f"b.{q(field.lstrip('-'))} {'DESC' if field.startswith('-') else 'ASC'}" for field in self._order)
        start, stop = self._limits
        if stop is not None:
            sql += f" LIMIT {int(stop - start)}"
        elif start and connection.vendor == "sqlite":
            sql += " LIMIT -1"  # SQLite takes an OFFSET only after a LIMIT
        if start:
            sql += f" OFFSET {int(start)}"
        return sql, params

    def count(self) -> int:
        """How many rows: every row read in order and kept (one query), so that a
        page of them is then a slice of what was read, not the sums again."""
        return len(list(iter(self)))

    def __getitem__(self, index: slice) -> SideTotals | list[dict]:
        if not isinstance(index, slice) or index.step is not None or (index.start or 0) < 0 or (
                index.stop is not None and index.stop < (index.start or 0)):
            raise TypeError("SideTotals takes a slice [start:stop] of whole numbers.")
        if self._found is not None:
            return self._found[index]
        start, stop = self._limits
        first = start + (index.start or 0)
        last = stop if index.stop is None else start + index.stop if stop is None else min(stop, start + index.stop)
        return self._copy(limits=(first, last))

    def __iter__(self):
        if self._found is None:  # read once, as a queryset keeps what it read
            sql, params = self._ordered_sql()
            with connection.cursor() as cursor:
                cursor.execute(sql, params)
                names = [column[0] for column in cursor.description]
                self._found = [dict(zip(names, row)) for row in cursor.fetchall()]
        return iter(self._found)

    def __len__(self) -> int:
        return len(list(iter(self)))


def coaches_in(scope: Scope) -> QuerySet:
    """The coaches entered in any season of ``scope``, as rows (``owner`` and
    ``coach_id``, their id; ``coach``) a coach's board adds its figures to
    (``SideTotals``)."""
    return Coach.objects.filter(pk__in=Entry.objects.filter(scope.seasons("season")).values("coach_id")).values(
        owner=F("pk"), coach_id=F("pk"), coach=F("name"),
    )


def won(side: str, path: str = "") -> Q:
    """The result (at ``path``, "" for Result itself) is a win for ``side``."""
    prefix = f"{path}__" if path else ""
    return Q(**{f"{prefix}outcome": Result.Outcome.HOME_WIN if side == "home" else Result.Outcome.AWAY_WIN})


def lost(side: str, path: str = "") -> Q:
    return won(other(side), path)


def drawn(path: str = "") -> Q:
    prefix = f"{path}__" if path else ""
    return Q(**{f"{prefix}outcome": Result.Outcome.DRAW})


def other(side: str) -> str:
    return "away" if side == "home" else "home"
