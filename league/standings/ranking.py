"""Standings and tiebreakers as pure functions (GB-9, GB-10, DB-5a, DR-4).

A Dungeon Bowl or DreadBall league may put head-to-head first (the organiser's
house rule, ``GameRules.head_to_head``): among entrants level on League Points,
the League Points each earned in their games against the others of that group
decide first, then the rulebook's keys. Entrants of the group who never met are
not separated by it.

Plain values in, plain values out: ``compute_table`` orders rows by League Points
and then the game's tiebreak keys. Rows still level on every key share the position
(standard competition ranking: 1, 2, =3, =3, 5) and are listed by name. No database
access: league/standings/season.py and league/standings/sums.py read the rows and hand them here.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import groupby

from league.rules.base import DRAW, EntryInfo, GameRules, PlayedResult, side_lost, side_won
from league.rules.terms import Summing

__all__ = [
    "EntryInfo",
    "PlayedResult",
    "Standing",
    "StandingRow",
    "compute_table",
    "explain",
    "lp_before_round",
    "new_rows",
    "rank",
    "rounds_ranked",
    "sort_key",
    "standings_by_round",
    "with_history",
]


@dataclass
class StandingRow:
    entry_id: int
    coach_id: int
    coach: str
    team: str = ""
    division: str | None = None
    name: str = ""  # what the row is called and listed by: the coach, or the team (DB)
    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    lp: int = 0
    stats: dict[str, int] = field(default_factory=dict)  # the game's figures (GB-9 VP, DB-5a TD ...)
    position: int = 0
    tied: bool = False
    note: str = ""
    movement: int | None = None  # places gained since the previous round (+) or lost (-)
    history: list[int] = field(default_factory=list)  # position after each played round
    withdrawn_on: datetime.date | None = None  # LG-2: the row stays, marked with the day the entrant left
    # Head-to-head first (a league's house rule): League Points earned against each
    # opponent entry, filled only when the rule is on; and, once ranked, the LP
    # earned in games against the others level on LP with it (None when nobody is
    # level) and whether any of that group met at all.
    against: dict[int, int] = field(default_factory=dict)
    mutual_lp: int | None = None
    group_met: bool = False

    @property
    def position_label(self) -> str:
        return f"={self.position}" if self.tied else str(self.position)

    def value(self, key: str):
        """A column of the published feeds: one of the row's own fields or a game figure."""
        if key in self.stats:
            return self.stats[key]
        return getattr(self, key)


def compute_table(entries: Iterable[EntryInfo], results: Iterable[PlayedResult], rules: GameRules) -> list[StandingRow]:
    """The ordered table for ``results`` (GB-9, DB-5a, DR-4), division by division.
    Pure: no database access."""
    rows = new_rows(entries, rules)
    for result in results:
        _apply(rows, result, rules)
    return rank(list(rows.values()), rules)


def new_rows(entries: Iterable[EntryInfo], rules: GameRules) -> dict[int, StandingRow]:
    """A blank row per entry, by entry id, with every figure of the game at 0."""
    blank = {stat.key: 0 for stat in rules.stats}
    return {
        e.entry_id: StandingRow(
            entry_id=e.entry_id,
            coach_id=e.coach_id,
            coach=e.coach,
            team=e.team,
            division=e.division,
            name=(e.team or e.coach) if rules.rows_named_by_team else e.coach,
            stats=dict(blank),
            withdrawn_on=e.withdrawn_on,
        )
        for e in entries
    }


def _apply(rows: dict[int, StandingRow], r: PlayedResult, rules: GameRules) -> None:
    """Add one approved result to both sides' rows."""
    for side, entry_id in (("home", r.home_id), ("away", r.away_id)):
        row = rows.get(entry_id)
        if row is None:
            continue
        row.played += 1
        lp = rules.league_points(r, side)
        row.lp += lp
        if rules.head_to_head:
            opponent = r.away_id if side == "home" else r.home_id
            row.against[opponent] = row.against.get(opponent, 0) + lp
        if side_won(r.outcome, side):
            row.won += 1
        elif r.outcome == DRAW:
            row.drawn += 1
        elif side_lost(r.outcome, side):
            row.lost += 1
        for key, amount in rules.side_stats(r, side).items():
            row.stats[key] += amount


class _Adder:
    """``_apply`` for a game that declares its terms (league/rules/terms.py), as
    the database's sums add them (``terms.Summing``): each kind of side (home or
    away, outcome, flags) is worked out once, so a result costs a few
    multiplications a side, not every term evaluated on it. A whole season's
    history is built in under half the time (GB-9, GB-10, DR-4;
    1,000 coaches and 499,500 results, the first page after a correction)."""

    def __init__(self, rules: GameRules):
        self.summing = Summing(rules)
        self.rules = rules if rules.head_to_head else None

    def __call__(self, rows: dict[int, StandingRow], r: PlayedResult) -> None:
        summing = self.summing
        flags = tuple(bool(r.details.get(flag.key)) for flag in summing.flags)
        values = [1, r.score("home"), r.score("away"), *(int(r.details.get(d.key) or 0) for d in summing.details)]
        for side, entry_id in (("home", r.home_id), ("away", r.away_id)):
            row = rows.get(entry_id)
            if row is not None:
                summing.add(row, side, r.outcome, flags, values)
                summing.settle(row)
                if self.rules is not None:  # head-to-head first: LP against each opponent
                    opponent = r.away_id if side == "home" else r.home_id
                    row.against[opponent] = row.against.get(opponent, 0) + self.rules.league_points(r, side)


def adder(rules: GameRules):
    """What adds one approved result to both sides' rows for ``rules``: the terms'
    plans when the game declares terms, else the game's own ``side_stats``."""
    if rules.side_terms() is None:
        return lambda rows, result: _apply(rows, result, rules)
    return _Adder(rules)


@dataclass(frozen=True)
class Standing:
    """Where an entry stood after one round."""

    position: int
    lp: int


def standings_by_round(
    entries: Sequence[EntryInfo], results: Sequence[PlayedResult], rules: GameRules
) -> dict[int, dict[int, Standing]]:
    """Each entry's position and LP after every round that has a result (GB-10),
    built in one pass over the results, round by round."""
    rows = new_rows(entries, rules)
    snapshots: dict[int, dict[int, Standing]] = {}
    add = adder(rules)
    for number, round_results in _by_round(results):
        for result in round_results:
            add(rows, result)
        ranked = rank(list(rows.values()), rules, explain_ties=False)
        snapshots[number] = {row.entry_id: Standing(row.position, row.lp) for row in ranked}
    return snapshots


def _by_round(results: Iterable[PlayedResult]) -> list[tuple[int, list[PlayedResult]]]:
    grouped: dict[int, list[PlayedResult]] = {}
    for result in results:
        grouped.setdefault(result.round_number, []).append(result)
    return sorted(grouped.items())


def lp_before_round(snapshots: dict[int, dict[int, Standing]], number: int) -> dict[int, int]:
    """Each entry's LP from the results of all rounds before ``number`` (GB-18
    Decision: by round number, whatever order results were approved in)."""
    earlier = [n for n in snapshots if n < number]
    if not earlier:
        return {}
    return {entry_id: standing.lp for entry_id, standing in snapshots[max(earlier)].items()}


def sort_key(row: StandingRow, rules: GameRules) -> tuple:
    if rules.head_to_head:
        return (-row.lp, -(row.mutual_lp or 0), *(-row.stats[key] for key in rules.tiebreakers))
    return (-row.lp, *(-row.stats[key] for key in rules.tiebreakers))


def head_to_head(rows: Sequence[StandingRow]) -> None:
    """Head-to-head first (a Dungeon Bowl or DreadBall league's house rule): for
    each group of rows level on League Points, each row's LP from its games against
    the others of the group (``mutual_lp``) and whether any two of them met
    (``group_met``). A row level with nobody gets None."""
    by_lp: dict[int, list[StandingRow]] = {}
    for row in rows:
        by_lp.setdefault(row.lp, []).append(row)
    for group in by_lp.values():
        if len(group) == 1:
            group[0].mutual_lp, group[0].group_met = None, False
            continue
        ids = {row.entry_id for row in group}
        met = any(opponent in ids for row in group for opponent in row.against)
        for row in group:
            row.mutual_lp = sum(lp for opponent, lp in row.against.items() if opponent in ids)
            row.group_met = met


def _division_key(row: StandingRow) -> str:
    return row.division or ""


def rank(rows: list[StandingRow], rules: GameRules, *, explain_ties: bool = True) -> list[StandingRow]:
    """Order rows within each division (divisions by name) and give positions;
    level rows share one and are listed by name. One function for every game."""
    rows.sort(key=_division_key)
    ranked: list[StandingRow] = []
    for _, group in groupby(rows, key=_division_key):
        ranked += _rank_one(list(group), rules, explain_ties)
    return ranked


def _rank_one(rows: list[StandingRow], rules: GameRules, explain_ties: bool) -> list[StandingRow]:
    # Each row's key worked out once (a history ranks every round); the
    # index keeps the sort stable and is never level, so rows are never compared.
    if rules.head_to_head:
        head_to_head(rows)
    keyed = sorted((sort_key(row, rules), row.name.casefold(), index, row) for index, row in enumerate(rows))
    rows[:] = [row for *_, row in keyed]
    for index, (key, *_, row) in enumerate(keyed):
        row.tied = False
        if index and keyed[index - 1][0] == key:
            row.position = rows[index - 1].position
            row.tied = rows[index - 1].tied = True
        else:
            row.position = index + 1
    # Before anyone has played, every row is level on 0 LP: the page says so once
    # rather than "level with X on 0 LP: position shared" on every line.
    if explain_ties and any(row.played for row in rows):
        for index, row in enumerate(rows):
            row.note = explain(rows, index, rules)
    return rows


def explain(rows: Sequence[StandingRow], index: int, rules: GameRules) -> str:
    """Why this row sits where it does against a neighbour on the same LP.

    Compared with the row above when that one has the same LP (why not higher),
    otherwise with the row below (why not lower). Empty when no neighbour is level.
    """
    row = rows[index]
    above = rows[index - 1] if index > 0 else None
    below = rows[index + 1] if index + 1 < len(rows) else None
    if above is not None and above.lp == row.lp:
        other, relation = above, "behind"
    elif below is not None and below.lp == row.lp:
        other, relation = below, "ahead"
    else:
        return ""
    stats = {stat.key: stat for stat in rules.stats}
    level_on = [f"{row.lp} LP"]
    if rules.head_to_head:
        if not row.group_met:
            level_on.append("never met, so League Points against each other did not separate them")
        elif row.mutual_lp != other.mutual_lp:
            return (
                f"level with {other.name} on {row.lp} LP; {relation} on League Points in games between the "
                f"entrants level on {row.lp} LP, {row.mutual_lp} to {other.mutual_lp}"
            )
        else:
            level_on.append(f"{row.mutual_lp} LP in games between the entrants level on {row.lp} LP")
    for key in rules.tiebreakers:
        tiebreak = stats[key]
        mine, theirs = row.stats[key], other.stats[key]
        fmt = _signed if tiebreak.signed else str
        if mine != theirs:
            return (
                f"level with {other.name} on {' and '.join(level_on)}; "
                f"{relation} on {tiebreak.label}, {fmt(mine)} to {fmt(theirs)}"
            )
        level_on.append(f"{fmt(mine)} {tiebreak.label}")
    return f"level with {other.name} on {', '.join(level_on)}: position shared"


def _signed(value: int) -> str:
    return f"{value:+d}"


def rounds_ranked(
    rows: dict[int, StandingRow], results: Iterable[PlayedResult], rules: GameRules
) -> Iterator[tuple[int, list[StandingRow]]]:
    """Add ``results`` to ``rows`` round by round (GB-10); after each round that
    has a result, yield its number and the rows ranked (without the notes)."""
    add = adder(rules)
    for number, round_results in _by_round(results):
        for result in round_results:
            add(rows, result)
        yield number, rank(list(rows.values()), rules, explain_ties=False)


def with_history(
    entries: Sequence[EntryInfo], results: Sequence[PlayedResult], rules: GameRules
) -> list[StandingRow]:
    """The current table, each row carrying its position after every round and its
    movement since the round before the latest: one pass over the results, round
    by round, ranking after each; the rows after the last round are the table."""
    rows = new_rows(entries, rules)
    for _, ranked in rounds_ranked(rows, results, rules):
        for row in ranked:
            row.history.append(row.position)
    table = rank(list(rows.values()), rules)
    for row in table:
        if len(row.history) >= 2:
            row.movement = row.history[-2] - row.history[-1]
    return table
