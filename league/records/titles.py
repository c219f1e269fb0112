"""The titles of finished seasons: one registry, read by the records pages (a
season's titles) and by the profiles (a coach's titles across leagues).

Each game and each layer declares its ``Titles`` (league/games.py). Every game's
League Champion is the engine's: the first of the season's final table (GB-3,
DB-5a, DR-4), under the name the game gives it (DreadBall's champion). What else
a game or a layer awards it reads from its own rows: the Big League's Master
Strategos and Master of Shadows fixed on Final Day (GB-3, GB-26), the Dungeon Bowl
play-off winner with the Trophy (DB-14).

A source costs a fixed number of queries whatever the league's size (a page's
cost follows what it shows). ``table_champions`` is the engine's own source for a
coach's profile: the top of a finished season's table, for a game whose champion
is decided by the table.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from django.db.models import Exists, OuterRef, Q

from league import games
from league.models import Fixture, Result, Season
from league.standings.season import standings_for

LEAGUE_CHAMPION = "League Champion"


@dataclass(frozen=True)
class Honour:
    """A title a coach won in a season, on the records pages. ``detail``: the figure or the team."""

    season_id: int
    title: str
    coach_id: int
    coach: str
    detail: str = ""


@dataclass(frozen=True)
class Won:
    """One title a coach won, on their profile: what, in which season of which league."""

    title: str  # "League Champion", "Master Strategos", "Dungeon Bowl Trophy"
    season_id: int
    season: str
    league: str
    league_slug: str
    game: str
    start_date: datetime.date
    detail: str = ""  # "shared", "North division", "runner-up's prize 30,000 gp"
    rule: str = ""  # the rule id the title comes from, for a small link to /rules/


# From the ids of finished seasons of the game, every title of those seasons beyond
# the champion of the table: one query.
SeasonTitles = Callable[[list[int]], Iterable[Honour]]
# From a coach's id, every title they won in the game's (or the layer's) seasons.
CoachTitles = Callable[[int], Iterable[Won]]


@dataclass(frozen=True)
class Titles:
    """What a game or a layer awards. ``champion``: a game's name for the first of
    a finished season's table (a layer names none); ``of_seasons``: its other
    titles of finished seasons, for the records pages; ``won``: every title a coach
    won in it, for their profile."""

    champion: str | None = LEAGUE_CHAMPION
    of_seasons: SeasonTitles | None = None
    won: CoachTitles | None = None


def champion_title(game: str) -> str:
    declared = games.games().get(game)
    return (declared.titles.champion if declared is not None else None) or LEAGUE_CHAMPION


def game_titles(game: str, season_ids: list[int]) -> list[Honour]:
    """Every title ``game`` and its layers award for the seasons ``season_ids`` beyond
    the champion (one query a source, none for no season)."""
    if not season_ids:
        return []
    return [honour for declaration in games.serving(game) if declaration.titles.of_seasons is not None
            for honour in declaration.titles.of_seasons(season_ids)]


def titles_won(coach_id: int) -> list[Won]:
    """Every title the coach won, newest season first."""
    won = [title for declaration in games.declared() if declaration.titles.won is not None
           for title in declaration.titles.won(coach_id)]
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
                won.append(Won(LEAGUE_CHAMPION, season.pk, season.name, season.league.name, season.league.slug,
                               game, season.start_date, ", ".join(d for d in details if d), rule))
    return won
