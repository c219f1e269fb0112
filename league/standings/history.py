"""A season's table and position history, kept up to date one approval at a time
(GB-9, GB-10, DB-5a, DR-4).

Ranking every round again in Python after each approval cost a cold league page
18 s at 1,000 coaches. Instead a season's ``History`` (every entry's running
figures after the latest round with a result, and every entry's position after
each such round, two bytes an entry a round) is kept in the cache under the
season's version (league/caching/versions.py) it is exact for, and used only for that
version:

- **Approval** (``advance``, run for the engine's result services by
  league/caching/writes.py ``results_write``): when the history exact for the
  version the season had as the approval took the season's row lock is kept,
  and the entries are unchanged, a result approved in the latest round with a result (or a later one) is added to
  the running figures and that round alone is ranked again. The result is kept
  under the version the approval leaves (nobody reads it before the approval
  commits, nor ever if it rolls back); the old one is dropped.
  A report, a confirmation or a dispute changes no table: the history is kept
  under the version it leaves as it is.
- **Anything else** (a correction, a late result of an earlier round, a reopened
  result, an import, a new entrant or division, a Big League campaign's own
  writes) leaves no history for the new
  version: the next page that needs it builds it in one pass (``build``, the pure
  ``ranking.rounds_ranked``) and keeps it only if the season's version has not
  moved meanwhile, so what is kept is exact. Pages that need only the table use
  the database's sums (league/standings/sums.py) rather than wait for that pass.

A history is never used for a version it was not made for, so it is never stale;
at worst it is built again. Nothing is written to the database: a GET writes
nothing (tests/campaigns/web/test_get_never_writes.py).
"""

from __future__ import annotations

import dataclasses
from array import array
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from django.core.cache import cache

from league.caching import versions
from league.models import Season
from league.standings.ranking import EntryInfo, StandingRow, new_rows, rank, rounds_ranked
from league.rules.base import GameRules
from league.selectors import approved_results, played_result, result_fields, season_entries, season_inputs

__all__ = ["History", "Lines", "advance", "build", "current", "for_season"]


@dataclass
class History:
    """A season's running rows (by entry id, unranked) and positions round by round."""

    entries: list[EntryInfo]  # by entry id
    rounds: list[int]
    positions: array  # len(rounds) blocks of len(entries), unsigned shorts
    rows: dict[int, StandingRow]

    def table(self, rules: GameRules) -> list[StandingRow]:
        """The table after the latest round (with the notes), each row's movement since
        the round before (as ``ranking.with_history`` gives it)."""
        table = rank([dataclasses.replace(row, stats=dict(row.stats), history=[]) for row in self.rows.values()], rules)
        if len(self.rounds) >= 2:
            before = self.after(len(self.rounds) - 2)
            for row in table:
                row.movement = before[row.entry_id] - row.position
        return table

    def after(self, index: int) -> dict[int, int]:
        """Each entry's position after the ``index``-th round with a result."""
        n = len(self.entries)
        block = self.positions[index * n:(index + 1) * n]
        return {entry.entry_id: position for entry, position in zip(self.entries, block)}

    def place(self) -> dict[int, int]:
        """Each entry id's place in ``entries`` (and in every round's block)."""
        return {entry.entry_id: i for i, entry in enumerate(self.entries)}

    def line(self, index: int) -> list[int]:
        """The positions, after each round with a result, of the entry at ``index``."""
        return list(self.positions[index::len(self.entries)])


class Lines(Mapping):
    """``history_for``'s mapping, entry id to positions, each line read when asked
    (a 1,000-entry season has 2 million positions: a page draws a dozen lines)."""

    def __init__(self, history: History):
        self._history = history
        self._place = history.place()

    def __getitem__(self, entry_id: int) -> list[int]:
        return self._history.line(self._place[entry_id])

    def __iter__(self) -> Iterator[int]:
        return iter(self._place)

    def __len__(self) -> int:
        return len(self._place)


def build(entries: list[EntryInfo], results, rules: GameRules) -> History:
    """The whole history in one pass over the approved results (``rounds_ranked``)."""
    history = History(sorted(entries, key=lambda entry: entry.entry_id), [], array("H"), {})
    history.rows = new_rows(history.entries, rules)
    place = history.place()
    for number, ranked in rounds_ranked(history.rows, results, rules):
        history.rounds.append(number)
        history.positions.extend(_block(ranked, place))
    return history


def _block(ranked: list[StandingRow], place: dict[int, int]) -> list[int]:
    """One round's positions in the order of ``place``."""
    block = [0] * len(place)
    for row in ranked:
        block[place[row.entry_id]] = row.position
    return block


def _key(season_id: int, version) -> str:
    return versions.version_key(season_id, version, "history")


def current(season) -> History | None:
    """The season's history if one is kept exact for the version ``season`` was
    read at, else None."""
    memo = getattr(season, "_history_memo", None)
    if memo is not None and memo[0] == season.version:
        return memo[1]
    history = cache.get(_key(season.pk, season.version))
    season._history_memo = (season.version, history)
    return history


def for_season(season) -> History:
    """The season's history for the version ``season`` was read at: the one kept,
    or built in one pass and kept when the season is still at that version."""
    history = current(season)
    if history is not None:
        return history
    history = build(*season_inputs(season), season.league.rules)
    # Read after the results: if the version is unchanged, nothing was committed
    # since the page read it, so the results read are that version's.
    if Season.objects.filter(pk=season.pk, version=season.version).exists():
        cache.set(_key(season.pk, season.version), history)
    season._history_memo = (season.version, history)
    return history


def advance(season_id: int, before, result=None) -> None:
    """The last step of a write to a season's results, in its transaction: if the
    history exact for the version ``before`` the write is kept and the entries are
    unchanged, add the approved ``result`` (none for a report, a confirmation or a
    dispute, which change no table; a play-off result adds nothing either) and keep
    it under the season's version now. A result of an earlier round than the
    latest with a result moves every later round: left for the next page to build."""
    kept = cache.get(_key(season_id, before))
    if kept is None:
        return
    season = Season.objects.select_related("league").get(pk=season_id)
    rules = season.league.rules
    if sorted(season_entries(season), key=lambda entry: entry.entry_id) != kept.entries:
        return  # an entrant, a name or a division changed: built again by the next page
    values = None if result is None else (
        approved_results(season).filter(pk=result.pk).values(*result_fields(rules)).first())
    if values is not None:
        played = played_result(values, rules)
        if kept.rounds and played.round_number < kept.rounds[-1]:
            return
        ((number, ranked),) = rounds_ranked(kept.rows, [played], rules)
        block = _block(ranked, kept.place())
        if kept.rounds and kept.rounds[-1] == number:
            del kept.positions[len(kept.positions) - len(block):]
        else:
            kept.rounds.append(number)
        kept.positions.extend(block)
    # Under the version the write leaves, which nobody reads before it commits (and
    # never, if it rolls back); the old version's is dropped.
    cache.set(_key(season_id, season.version), kept)
    cache.delete(_key(season_id, before))
