"""Leaderboards: a registry of boards each game fills from its ``ready()``.

A board is a name, its columns and a query over the game's own models scoped to a
season, a league or the whole site for one game (``Scope``). Each board's rows are
one SQL statement (grouped sums; a figure counted from both sides of a match is a
correlated sub-select a side), never a loop over rows in Python, so a board costs
the same number of queries whatever the number of coaches, and its order and
slicing happen in the database.

What counts, for every board built on results (``counted_results``): approved
results of regular-season and play-off fixtures that were played. Friendlies count
for nothing in a league (DB-5a) and abandoned or unplayed games were not played.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.db.models import Expression, F, IntegerField, OuterRef, Q, QuerySet, Subquery, Value
from django.db.models.functions import Coalesce

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


_BOARDS: dict[str, dict[str, Board]] = {}


def register(board: Board) -> None:
    """Add ``board`` to its game's boards (from the game's ``AppConfig.ready()``);
    registering the same board again changes nothing."""
    boards = _BOARDS.setdefault(board.game, {})
    if board.key in boards and boards[board.key] != board:
        raise ValueError(f"Two {board.game} boards are called {board.key!r}.")
    boards[board.key] = board


def boards_for(game: str) -> list[Board]:
    """``game``'s boards in the order they were registered."""
    return list(_BOARDS.get(game, {}).values())


def board_for(game: str, key: str) -> Board | None:
    """``game``'s board ``key``, or its first board when ``key`` names none."""
    boards = _BOARDS.get(game, {})
    return boards.get(key) or next(iter(boards.values()), None)


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


def both_sides(rows: QuerySet, side_path: Callable[[str], str], total: Callable[[str], Expression]) -> Expression:
    """A figure of the outer row (``OuterRef("pk")``) summed over both sides of the
    matches in ``rows``: for each side, ``rows`` whose ``side_path(side)`` is the
    outer row, grouped, ``total(side)`` (an aggregate), as one correlated sub-select
    a side, added in SQL. A match joined on both sides at once would count each
    row once per match of the other side."""
    parts = []
    for side in SIDES:
        grouped = (
            rows.filter(**{side_path(side): OuterRef("pk")}).order_by().values(side_path(side))
            .annotate(total=Coalesce(total(side), Value(0))).values("total")
        )
        parts.append(Coalesce(Subquery(grouped, output_field=IntegerField()), Value(0)))
    return parts[0] + parts[1]


def coaches_in(scope: Scope) -> QuerySet:
    """The coaches entered in any season of ``scope``, as rows (``coach_id``,
    ``coach``) a coach's board annotates with its figures."""
    return Coach.objects.filter(pk__in=Entry.objects.filter(scope.seasons("season")).values("coach_id")).values(
        coach_id=F("pk"), coach=F("name"),
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
