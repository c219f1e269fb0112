"""What differs between game systems: result reporting, points, standings.

The engine asks a league for ``league.rules`` (its game's ``GameRules`` bound to
the league's settings) and never branches on the game. It imports no game: each
game is an app of its own whose ``AppConfig.ready()`` registers its declaration
(league/games.py), which carries its ``GameRules`` subclass
(``league/guildball/game.py``). Adding a game touches no file here.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from league import games
from league.rules.base import GameRules, Stat, Verdict

__all__ = [
    "GAMES", "GameRules", "Stat", "Verdict", "app_labels", "game_choices", "import_fallback", "rules_class",
]


class _Rules(Mapping[str, type[GameRules]]):
    """Every registered game's rules by its ``system``, in the order the games
    registered, read from their declarations whenever asked."""

    def __getitem__(self, system: str) -> type[GameRules]:
        return games.games()[system].rules

    def __iter__(self) -> Iterator[str]:
        return iter(games.games())

    def __len__(self) -> int:
        return len(games.games())


GAMES: Mapping[str, type[GameRules]] = _Rules()


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
