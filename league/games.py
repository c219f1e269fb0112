"""Each game, and each layer on a game, declares itself once: one object carrying
every facet the engine reads, registered from its app's ``ready()``.

A ``Game`` (``league/guildball/game.py``) carries its ``GameRules`` and, as a
``Declaration`` of a layer does (The Big League's ``campaigns/game.py``):

- ``rule_entries``: its section of /rules/ (league/rules/rulebook.py);
- ``boards``: its leaderboards (league/records/boards.py);
- ``titles``: what a finished season awards, for the records pages and the
  profiles (league/records/titles.py);
- ``export_rows``: its rows in a league's file (league/leaguefiles/registry.py);
- ``api``: its read endpoints on /api/v1/ (league/api/site.py), or None;
- ``tracked``: the rows whose change gives a season's pages a new version, each
  with the seasons it selects (league/caching/versions.py); a game's settings and
  result details are tracked from its rules without being listed;
- ``layers``: what it adds to the engine's workflow and pages (league/layers.py);
- ``facts``: the kinds of fact its own writes record and who follows them, its
  mail or its signed events (league/facts/registry.py).

Every facet is a field without a default, so a declaration names each one, an
empty one too; ``register`` refuses a game without the facets every game needs
(``REQUIRED``). The engine reads the declarations through ``declared()`` and
``games()``; the two registries that must act when a declaration arrives (the
cache connects signals, the API mounts a router) ``follow`` them. This module
imports nothing of the project at run time, so the models' layer may read it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # third-party types, for a type checker only
    from django.db.models import Q
    from ninja import Router

# Each facet's type lives with the package that reads it: a ``Layer``
# (league/layers.py), a ``Board`` (league/records/boards.py), ``Titles``
# (league/records/titles.py), a rulebook ``Section`` (league/rules/rulebook.py), a
# league file's ``Part`` (league/leaguefiles/registry.py), a ``GameRules`` subclass
# (league/rules/base.py). Those packages read the declarations, so this module,
# below all of them, names their types in words only: an import of them, even for
# a type checker, would close a circle through it.


@dataclass(frozen=True)
class ExportRows:
    """A game's or a layer's rows in a league's file: its ``parts``, and
    ``coaches(league)``, a queryset of the ids of the coaches it holds beyond the
    seasons' entrants (a Dungeon Bowl team's coach who never entered a season)."""

    parts: tuple[Any, ...]  # leaguefiles.registry.Part
    coaches: Callable[[Any], Any] | None = None


@dataclass(frozen=True)
class Facts:
    """The kinds of fact a game's or a layer's own writes record, each with what it
    means, and who follows them: ``(kind, name, follower)``, the followers of a kind
    called in this order after the engine's (league/facts/registry.py)."""

    kinds: Mapping[str, str] = field(default_factory=dict)
    followers: tuple[tuple[str, str, Callable[[Any], None]], ...] = ()


@dataclass(frozen=True, kw_only=True)
class Declaration:
    """What a layer on a game declares (a ``Game`` declares the same and its rules)."""

    name: str
    rule_entries: Any  # rules.rulebook.Section
    boards: tuple[Any, ...]  # records.boards.Board
    titles: Any  # records.titles.Titles
    export_rows: ExportRows
    api: Router | None
    tracked: Mapping[type, Callable[[Any], Q]]
    layers: tuple[Any, ...]  # layers.Layer
    facts: Facts

    @property
    def game_systems(self) -> frozenset[str]:
        """The games whose leagues it serves: a layer's, those of its layers."""
        return frozenset(system for layer in self.layers for system in layer.game_systems)


@dataclass(frozen=True, kw_only=True)
class Game(Declaration):
    """A game: its ``GameRules`` subclass, whose ``system`` is its key, and its facets."""

    rules: type  # a rules.base.GameRules subclass

    @property
    def game_systems(self) -> frozenset[str]:
        return frozenset({self.rules.system})


FACETS = tuple(field.name for field in fields(Game) if field.name != "name")
# What every game gives the engine, not empty: its rules, its rule ids on /rules/,
# at least one leaderboard, its champion's name, its rows in a league's file.
REQUIRED = ("rules", "rule_entries", "boards", "titles", "export_rows")

_DECLARED: dict[str, Declaration] = {}
_GAMES: dict[str, Game] = {}
_FOLLOWERS: list[Callable[[Declaration], None]] = []


def missing(declaration: Declaration) -> list[str]:
    """The facets ``declaration`` must give and does not (a layer needs its rule entries
    and at least one layer)."""
    needed = REQUIRED if isinstance(declaration, Game) else ("rule_entries", "layers")
    return [
        name for name in needed
        if not getattr(declaration, name)
        or (name == "titles" and not declaration.titles.champion)
        or (name == "export_rows" and not declaration.export_rows.parts)
    ]


def register(declaration: Declaration) -> None:
    """Add a game or a layer once (``ready()`` can run twice in tests: its name is
    its key, registering it again replaces it); refuse one missing a facet, or
    whose boards share a key."""
    absent = missing(declaration)
    if absent:
        raise ValueError(f"{declaration.name} declares no {', '.join(absent)}.")
    keys = [(board.game, board.key) for board in declaration.boards]
    keys += [(board.game, board.key) for other in _DECLARED.values() if other.name != declaration.name
             for board in other.boards]
    if len(keys) != len(set(keys)):
        raise ValueError(f"Two boards of {declaration.name}'s games share a key.")
    _DECLARED[declaration.name] = declaration
    if isinstance(declaration, Game):
        _GAMES[declaration.rules.system] = declaration
    for follower in _FOLLOWERS:
        follower(declaration)


def follow(follower: Callable[[Declaration], None]) -> None:
    """Call ``follower`` with every declaration registered and every one registered
    from now on (the cache's signals, the API's routers, the facts' followers)."""
    if follower in _FOLLOWERS:
        return
    _FOLLOWERS.append(follower)
    for declaration in tuple(_DECLARED.values()):
        follower(declaration)


def declared() -> tuple[Declaration, ...]:
    """Every game and layer, in the order they registered (INSTALLED_APPS order)."""
    return tuple(_DECLARED.values())


def games() -> Mapping[str, Game]:
    """Every game by its ``system``, in the order they registered."""
    return MappingProxyType(_GAMES)


def serving(game_system: str) -> tuple[Declaration, ...]:
    """The game ``game_system`` and the layers on it."""
    return tuple(declaration for declaration in _DECLARED.values() if game_system in declaration.game_systems)
