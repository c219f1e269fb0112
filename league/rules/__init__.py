"""What differs between game systems: result reporting, points, standings.

The engine asks a league for ``league.rules`` (its game's ``GameRules`` bound to
the league's settings) and never branches on the game. Adding a game means one
module here with a ``GameRules`` subclass, listed in ``GAMES``.
"""

from __future__ import annotations

from league.rules.base import GameRules, Stat, Verdict
from league.rules.dreadball import DreadBallRules
from league.rules.dungeonbowl import DungeonBowlRules
from league.rules.guildball import GuildBallRules

__all__ = ["GAMES", "GameRules", "Stat", "Verdict", "game_choices", "rules_class"]

GAMES: dict[str, type[GameRules]] = {cls.system: cls for cls in (GuildBallRules, DungeonBowlRules, DreadBallRules)}


def rules_class(game_system: str) -> type[GameRules]:
    return GAMES[game_system]


def game_choices() -> list[tuple[str, str]]:
    return [(system, cls.name) for system, cls in GAMES.items()]
