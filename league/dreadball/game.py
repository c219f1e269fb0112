"""DreadBall as the engine reads it (league/games.py): its rules, rule ids,
leaderboard, champion, rows in a league's file, API endpoint, and its panels (DR-5:
the coach's page shows the team's roster, so the engine's template knows nothing of
DreadBall) and demo data."""

from __future__ import annotations

import functools

from league.dreadball import api, demo
from league.dreadball.boards import COACHES
from league.dreadball.panels import my_fixtures_panel, roster_panel, viewer_panel
from league.dreadball.rulebook import SECTION
from league.dreadball.rules import DreadBallRules
from league.dreadball.transfer import export_rows
from league.games import Facts, Game
from league.layers import Layer
from league.records.titles import Titles, table_champions


def declaration() -> Game:
    return Game(
        name="DreadBall",
        rules=DreadBallRules,
        rule_entries=SECTION,
        boards=(COACHES,),
        # The top of a finished season's table (DR-4 orders it), named the game's way
        # on the records pages.
        titles=Titles(champion="DreadBall Champion",
                      won=functools.partial(table_champions, game="dreadball", rule="DR-4")),
        export_rows=export_rows(),
        api=api.router,
        tracked={},
        # Its writes record only the engine's kinds of fact.
        facts=Facts(),
        layers=(Layer(
            name="DreadBall",
            game_systems=frozenset({"dreadball"}),
            panels={"coach_detail": roster_panel, "league_viewer": viewer_panel, "my_fixtures": my_fixtures_panel},
            demo=demo.load,
            demo_accounts=demo.quickstart_accounts,
        ),),
    )
