"""Guild Ball as the engine reads it (league/games.py): its rules, its rule ids,
its leaderboard, its champion, its rows in a league's file. What The Big League
adds to Guild Ball leagues is that layer's own declaration (campaigns/game.py)."""

from __future__ import annotations

from league.games import Facts, Game
from league.guildball.boards import VICTORY_POINTS
from league.guildball.rulebook import SECTION
from league.guildball.rules import GuildBallRules
from league.guildball.transfer import export_rows
from league.records.titles import Titles


def declaration() -> Game:
    return Game(
        name="Guild Ball",
        rules=GuildBallRules,
        rule_entries=SECTION,
        boards=(VICTORY_POINTS,),
        # GB-3: the first of the final table is the League Champion.
        titles=Titles(),
        export_rows=export_rows(),
        api=None,
        tracked={},
        # Its writes record only the engine's kinds of fact.
        facts=Facts(),
        layers=(),
    )
