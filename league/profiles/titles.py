"""The titles and trophies a coach won, asked of each game or layer through one
registry filled from their apps' ``ready()`` (as league/layers.py is): the engine
knows no game's honours.

A source is a function of a coach's id that returns what they won, in a fixed
number of queries whatever the league's size (the profile's cost follows what it
shows). ``table_champions`` is the engine's own: the top of a finished season's
table, for a game whose champion is decided by the table.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from django.db.models import Exists, OuterRef, Q

from league.models import Fixture, Result, Season
from league.standings.season import standings_for


@dataclass(frozen=True)
class Won:
    """One title won: what, in which season of which league."""

    title: str  # "League Champion", "Master Strategos", "Dungeon Bowl Trophy"
    season_id: int
    season: str
    league: str
    league_slug: str
    game: str
    start_date: datetime.date
    detail: str = ""  # "shared", "North division", "runner-up's prize 30,000 gp"
    rule: str = ""  # the rule id the title comes from, for a small link to /rules/


Source = Callable[[int], Iterable[Won]]

_SOURCES: dict[str, Source] = {}


def register(name: str, source: Source) -> None:
    """Add ``source`` (a game's or a layer's titles) under ``name``; registering a
    name again replaces it (a test's app registry reloaded)."""
    _SOURCES[name] = source


def titles_won(coach_id: int) -> list[Won]:
    """Every title the coach won, newest season first."""
    won = [title for source in _SOURCES.values() for title in source(coach_id)]
    return sorted(won, key=lambda t: (t.start_date, t.season_id, t.title), reverse=True)


def finished_seasons(coach_id: int, game: str, *, exclude: Q | None = None):
    """The seasons of ``game`` the coach is entered in whose every regular match
    has its approved result (LG-2: one a withdrawal cancelled is never played)."""
    unplayed = Fixture.objects.filter(round__season=OuterRef("pk"), stage=Fixture.Stage.REGULAR).matches() \
        .to_play().exclude(result__status=Result.Status.APPROVED)
    regular = Fixture.objects.filter(round__season=OuterRef("pk"), stage=Fixture.Stage.REGULAR).matches()
    seasons = Season.objects.filter(entries__coach_id=coach_id, league__game_system=game) \
        .filter(Exists(regular), ~Exists(unplayed)).select_related("league")
    if exclude is not None:
        seasons = seasons.exclude(exclude)
    return seasons.order_by("-start_date", "-pk")


def table_champions(coach_id: int, game: str, *, exclude: Q | None = None, rule: str = "") -> list[Won]:
    """League Champion: the top of a finished season's table (of each division,
    where the season has them), shared when level on every tiebreaker. One query
    for the seasons, then each season's table as every page reads it (kept per
    version of the season)."""
    won = []
    for season in finished_seasons(coach_id, game, exclude=exclude):
        for row in standings_for(season):
            if row.coach_id == coach_id and row.position == 1:
                details = [f"{row.division} division" if row.division else "", "shared" if row.tied else ""]
                won.append(Won("League Champion", season.pk, season.name, season.league.name, season.league.slug,
                               game, season.start_date, ", ".join(d for d in details if d), rule))
    return won
