"""The standings of a season (GB-9, GB-10, DB-5a, DR-4), read from its approved results.

``standings_for(season)`` is the table a page shows, once per version of the season
(league/caching/versions.py): from the season's history snapshot when one is exact for that
version (league/standings/history.py, kept up to date by each approval), otherwise summed in
the database for a game that declares its ``terms`` (league/standings/sums.py) or ranked in
Python over the approved results (league/standings/ranking.py). ``history_for`` is each
entry's position round by round, from the same snapshot.
"""

from __future__ import annotations

from league.standings import history
from league.standings import sums
from league.caching import versions
from league.standings.ranking import StandingRow, with_history
from league.selectors import RESULT_FIELDS, played_result, result_fields, season_entries, season_inputs

__all__ = [
    "RESULT_FIELDS",
    "compute_standings",
    "history_for",
    "played_result",
    "result_fields",
    "season_inputs",
    "standings_for",
]


def standings_for(season) -> list[StandingRow]:
    """The season's current table with each row's movement since the previous round
    (GB-9, GB-10, DB-5a, DR-4), computed once per version of the season
    (league/caching/versions.py).

    For pages: ``season`` must have been read in this request, so its version is
    current. Code that has just written results uses ``compute_standings``."""
    def compute() -> list[StandingRow]:
        kept = history.current(season)
        return kept.table(season.league.rules) if kept is not None else compute_standings(season)

    return versions.cached(season, "standings", compute)


def history_for(season) -> history.Lines:
    """Each entry's position after every round with a result (GB-10), entry id to
    positions, built once per version of the season and kept (league/standings/history.py)."""
    return history.Lines(history.for_season(season))


def compute_standings(season) -> list[StandingRow]:
    """``standings_for`` without the cache or the snapshot. A game that declares its
    ``terms`` has its sums made in the database (league/standings/sums.py: the entries, the
    latest round, one aggregate query); any other game's in Python over the
    approved results."""
    rules = season.league.rules
    # Head-to-head first needs each result's two sides, which the database's sums
    # per entry do not keep: such a league's table is ranked in Python.
    if rules.side_terms() is None or rules.head_to_head:
        entries, results = season_inputs(season)
        table = with_history(entries, results, rules)
        for row in table:
            row.history = []
        return table
    return sums.standings(season, season_entries(season), rules)
