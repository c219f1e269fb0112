"""What differs between game systems: result reporting, points, standings.

The engine asks a league for ``league.rules`` (its game's ``GameRules`` bound to
the league's settings) and never branches on the game. It imports no game: each
game is an app of its own whose ``AppConfig.ready()`` calls ``register`` with its
``GameRules`` subclass (``league/guildball/apps.py``), as a layer registers with
``league.layers``. Adding a game touches no file here.
"""

from __future__ import annotations

from collections.abc import Callable

from league.rules.base import GameRules, Stat, Verdict

__all__ = [
    "GAMES", "GameRules", "Stat", "Verdict", "app_labels", "game_choices", "import_fallback", "register", "rules_class",
    "watch",
]

# Filled from the games' ready(), in INSTALLED_APPS order; read through the functions below.
GAMES: dict[str, type[GameRules]] = {}

# Told of every game as it registers: the cache tracks each game's settings and
# detail rows (LeagueConfig.ready, league/caching/versions.py ``track_game``), so
# this registry, which the models read, imports nothing above it.
_WATCHERS: list[Callable[[type[GameRules]], None]] = []


def register(rules: type[GameRules]) -> None:
    """Add a game once (``ready()`` can run twice in tests); its ``system`` is its key."""
    if GAMES.get(rules.system) is rules:
        return
    GAMES[rules.system] = rules
    for watcher in _WATCHERS:
        watcher(rules)


def watch(watcher: Callable[[type[GameRules]], None]) -> None:
    """Call ``watcher`` with every game registered so far and every game that
    registers later (once each, however often ``ready()`` runs)."""
    if watcher not in _WATCHERS:
        _WATCHERS.append(watcher)
    for rules in GAMES.values():
        watcher(rules)


def rules_class(game_system: str) -> type[GameRules]:
    return GAMES[game_system]


def game_choices() -> list[tuple[str, str]]:
    """``League.game_system``'s choices: every registered game."""
    return [(system, cls.name) for system, cls in GAMES.items()]


def app_labels() -> tuple[str, ...]:
    """The Django apps the registered games live in (their models' permissions go to
    the organisers)."""
    return tuple(dict.fromkeys(cls.app_label for cls in GAMES.values()))


def import_fallback() -> str | None:
    """The game ``import_results`` reads a file as when nothing else tells: the one
    game that says so (``GameRules.import_fallback``), or None."""
    found = [system for system, cls in GAMES.items() if cls.import_fallback]
    return found[0] if len(found) == 1 else None


def settings_relations() -> tuple[str, ...]:
    """The league's relation to each game's settings row (``GameRules.settings_relation``):
    what a query loading a league of any game joins in so that ``league.rules``
    needs no query of its own."""
    return tuple(rules.settings_relation() for rules in GAMES.values() if rules.settings_model is not None)
