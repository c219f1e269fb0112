"""Dungeon Bowl as the engine reads it (league/games.py): its rules, rule ids,
leaderboards, titles, rows in a league's file, API endpoints, the rows its pages
read, and its panels and demo data."""

from __future__ import annotations

from django.db.models import Q

from league.dungeonbowl import api, demo
from league.dungeonbowl.boards import PLAYERS, TEAMS, trophy_winners
from league.dungeonbowl.models import Honour, PlayoffGame, Redraft, Team, TeamSeason
from league.dungeonbowl.panels import fixture_panel, league_panel, my_fixtures_panel, organiser_panel, viewer_panel
from league.dungeonbowl.rulebook import SECTION
from league.dungeonbowl.rules import DungeonBowlRules
from league.dungeonbowl.seasons import honours_won
from league.dungeonbowl.transfer import export_rows
from league.dungeonbowl.followers import FACTS
from league.games import Game
from league.layers import Layer
from league.records.titles import Titles


def declaration() -> Game:
    return Game(
        name="Dungeon Bowl",
        rules=DungeonBowlRules,
        rule_entries=SECTION,
        boards=(PLAYERS, TEAMS),
        # DB-14: the play-off winner takes the Trophy; the profile shows every placing.
        titles=Titles(of_seasons=trophy_winners, won=honours_won),
        export_rows=export_rows(),
        api=api.router,
        tracked={
            # A team's place in a season links its standings row to the team.
            TeamSeason: lambda ts: Q(entries__pk=ts.entry_id),
            # The league page's play-off bracket (DB-5b) and honours (DB-14): a season's
            # honours show on the page of every season of the league.
            PlayoffGame: lambda game: Q(pk=game.season_id),
            Honour: lambda honour: Q(league__seasons__pk=honour.season_id),
            # The season checklist on the organiser's dashboard, kept per version:
            # a team accepted, drafted, locked or retiring (DB-1, DB-6, DB-15).
            Team: lambda team: Q(league_id=team.league_id),
            Redraft: lambda redraft: Q(league__dungeonbowl_teams__pk=redraft.team_id),
        },
        # Its kinds of fact and who follows them (its mail, its signed events).
        facts=FACTS,
        layers=(Layer(
            name="dungeonbowl", game_systems=frozenset({"dungeonbowl"}),
            panels={"league_detail": league_panel, "fixture_detail": fixture_panel, "my_fixtures": my_fixtures_panel,
                    "organiser_dashboard": organiser_panel, "league_viewer": viewer_panel},
            # A team is founded and drafted before it is entered in a season (DB-1, DB-6).
            coach_leagues=lambda coach_id: Q(pk__in=Team.objects.filter(coach_id=coach_id).values("league_id")),
            demo=demo.load, demo_accounts=demo.quickstart_accounts,
        ),),
    )
