"""What differs between game systems: result validation, points, tiebreakers.

The engine asks ``rules_for(league.game_system)`` and never branches on the game.
A game system is one module here exposing a ``GameRules`` instance as ``RULES``.
"""

from __future__ import annotations

from league.rules import guildball
from league.rules.base import GameRules, Tiebreak

__all__ = ["GameRules", "Tiebreak", "rules_for"]

_BY_SYSTEM: dict[str, GameRules] = {guildball.RULES.system: guildball.RULES}


def rules_for(game_system: str) -> GameRules:
    return _BY_SYSTEM[game_system]
