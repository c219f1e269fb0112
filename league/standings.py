"""The standings of a season (GB-9, GB-10, DB-5a, DR-4), read from its approved results.

Nothing here is stored: ``standings_for(season)`` reads the season's entries and its
approved results (league/selectors.py) and hands plain values to the pure ranking of
league/ranking.py, or, for a game that declares its ``terms``, has the sums made in
the database (league/sums.py). Either way once per version of the season
(league/versions.py).
"""

from __future__ import annotations

from league import sums, versions
from league.ranking import EntryInfo, PlayedResult, StandingRow, with_history
from league.rules.base import GameRules
from league.selectors import approved_results, season_entries

__all__ = [
    "RESULT_FIELDS",
    "compute_standings",
    "history_for",
    "played_result",
    "result_fields",
    "season_inputs",
    "standings_for",
]


RESULT_FIELDS = (
    "fixture__round__number",
    "fixture__home_id",
    "fixture__away_id",
    "home_score",
    "away_score",
    "outcome",
    "conceded",
)


def played_result(values: dict, rules: GameRules | None = None) -> PlayedResult:
    """An approved result from a ``.values(*result_fields(rules))`` row."""
    details = {key: values[lookup] for key, lookup in rules.detail_values.items()} if rules is not None else {}
    return PlayedResult(
        round_number=values["fixture__round__number"],
        home_id=values["fixture__home_id"],
        away_id=values["fixture__away_id"],
        home_score=values["home_score"],
        away_score=values["away_score"],
        outcome=values["outcome"],
        conceded=values.get("conceded", False),
        details=details,
    )


def result_fields(rules: GameRules) -> tuple[str, ...]:
    """What to read of each result: the engine's fields and the game's details."""
    return RESULT_FIELDS + tuple(rules.detail_values.values())


def season_inputs(season) -> tuple[list[EntryInfo], list[PlayedResult]]:
    """Two queries: the entries with their coaches, the approved results."""
    rules = season.league.rules
    results = approved_results(season).values(*result_fields(rules))
    return season_entries(season), [played_result(r, rules) for r in results]


def standings_for(season) -> list[StandingRow]:
    """The season's current table with each row's movement since the previous round
    (GB-9, GB-10, DB-5a, DR-4), computed once per version of the season
    (league/versions.py).

    For pages: ``season`` must have been read in this request, so its version is
    current. Code that has just written results uses ``compute_standings``."""
    return versions.cached(season, "standings", lambda: compute_standings(season))


def history_for(season) -> dict[int, list[int]]:
    """Each entry's position after every round with a result (GB-10, a coach's
    page), computed once per version of the season in one pass over the results."""
    def compute() -> dict[int, list[int]]:
        entries, results = season_inputs(season)
        return {row.entry_id: row.history for row in with_history(entries, results, season.league.rules)}

    return versions.cached(season, "standings-history", compute)


def compute_standings(season) -> list[StandingRow]:
    """``standings_for`` without the cache. A game that declares its ``terms`` has
    its sums made in the database (league/sums.py: the entries, the latest round,
    one aggregate query); any other game's in Python over the approved results."""
    rules = season.league.rules
    if rules.side_terms() is None:
        entries, results = season_inputs(season)
        table = with_history(entries, results, rules)
        for row in table:
            row.history = []
        return table
    return sums.standings(season, season_entries(season), rules)
