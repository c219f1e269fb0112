"""The titles of a finished season, from a registry each game fills from its
``ready()``.

Every game's League Champion is the engine's: the first of the season's final
table (GB-3, DB-5a, DR-4); a game may give it its own name (DreadBall's
champion). What else a game awards it reads from its own rows: the Big League's
Master Strategos and Master of Shadows fixed on Final Day (GB-3, GB-26), the
Dungeon Bowl play-off winner with the Trophy (DB-14).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class Honour:
    """A title a coach won in a season. ``detail``: the figure or the team."""

    season_id: int
    title: str
    coach_id: int
    coach: str
    detail: str = ""


# From the ids of finished seasons, every title of those seasons: one query.
TitleSource = Callable[[list[int]], Iterable[Honour]]

_SOURCES: dict[str, list[TitleSource]] = {}
_CHAMPION: dict[str, str] = {}
LEAGUE_CHAMPION = "League Champion"


def register(game: str, source: TitleSource | None = None, *, champion: str | None = None) -> None:
    """Add ``source`` to ``game``'s titles and, with ``champion``, name the first of
    its final table."""
    if source is not None and source not in _SOURCES.setdefault(game, []):
        _SOURCES[game].append(source)
    if champion is not None:
        _CHAMPION[game] = champion


def champion_title(game: str) -> str:
    return _CHAMPION.get(game, LEAGUE_CHAMPION)


def game_titles(game: str, season_ids: list[int]) -> list[Honour]:
    """Every title ``game`` registered for the seasons ``season_ids`` (one query a
    source, none for no season)."""
    if not season_ids:
        return []
    return [honour for source in _SOURCES.get(game, []) for honour in source(season_ids)]
