"""Dungeon Bowl data (RULES.md section 2), one module per part, every public name
importable from here:

- ``teams``: the colleges as data (DB-7), teams and their players (DB-6, DB-8,
  DB-11, DB-13), the Treasury as an append-only ledger and the dice log (DB-16);
- ``league_play``: the league's settings, a team's place in a season, game reports
  and what approving one did to each player (DB-4, DB-5b, DB-9, DB-10, DB-13);
- ``redraft``: the off-season re-draft (DB-15);
- ``playoffs``: the play-off bracket's games and ties (DB-5b).

The modules import ``teams`` and never this package, so nothing imports back.
"""

from __future__ import annotations

from league.dungeonbowl.models.teams import (
    MAX_GP,
    MAX_COST,
    MAX_NUMBER,
    MAX_NIGGLING,
    target,
    College,
    PositionGroup,
    Position,
    positions_with_limits,
    Skill,
    GAME_SYSTEM,
    Team,
    PlayerQuerySet,
    Player,
    TreasuryKind,
    TreasuryLine,
    RollPurpose,
    DiceRoll,
)
from league.dungeonbowl.models.league_play import (
    MAX_TD,
    MAX_SPP_VALUE,
    MAX_PER_PLAYER,
    SPP_FIELDS,
    COUNTS,
    DungeonBowlSettings,
    TeamSeason,
    Ending,
    GameReport,
    Injury,
    Characteristic,
    PlayerGame,
    PlayerEffect,
    PlayerAdvancement,
    Placing,
    Honour,
)
from league.dungeonbowl.models.redraft import (
    RedraftStep,
    Redraft,
    RedraftRoll,
)
from league.dungeonbowl.models.playoffs import (
    PlayoffSlot,
    SEMI_FINALS,
    GAME_TITLES,
    SEMI_FINALS_ROUND,
    FINALS_ROUND,
    STAGE_NAMES,
    PlayoffGame,
    PlayoffTie,
)

__all__ = [
    "positions_with_limits",
    "COUNTS",
    "Characteristic",
    "College",
    "DiceRoll",
    "DungeonBowlSettings",
    "Ending",
    "FINALS_ROUND",
    "GAME_SYSTEM",
    "GAME_TITLES",
    "GameReport",
    "Honour",
    "Injury",
    "MAX_COST",
    "MAX_GP",
    "MAX_NIGGLING",
    "MAX_NUMBER",
    "MAX_PER_PLAYER",
    "MAX_SPP_VALUE",
    "MAX_TD",
    "Placing",
    "Player",
    "PlayerAdvancement",
    "PlayerEffect",
    "PlayerGame",
    "PlayerQuerySet",
    "PlayoffGame",
    "PlayoffSlot",
    "PlayoffTie",
    "Position",
    "PositionGroup",
    "Redraft",
    "RedraftRoll",
    "RedraftStep",
    "RollPurpose",
    "SEMI_FINALS",
    "SEMI_FINALS_ROUND",
    "SPP_FIELDS",
    "STAGE_NAMES",
    "Skill",
    "Team",
    "TeamSeason",
    "TreasuryKind",
    "TreasuryLine",
    "positions_with_limits",
    "target",
]
