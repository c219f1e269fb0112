from django.apps import AppConfig


class DungeonBowlConfig(AppConfig):
    """Dungeon Bowl college leagues (RULES.md section 2): colleges, teams, drafts,
    the Treasury ledger and the dice log. Its own label, so the engine's ``league``
    app stays free of anything game-specific."""

    name = "league.dungeonbowl"
    label = "dungeonbowl"
    verbose_name = "Dungeon Bowl"

    def ready(self) -> None:
        from django.db.models import Q

        from league import layers, rules
        from league.caching import versions
        from league.dungeonbowl import demo
        from league.dungeonbowl.models import Honour, PlayoffGame, Redraft, Team, TeamSeason
        from league.dungeonbowl.panels import fixture_panel, league_panel, my_fixtures_panel, organiser_panel, viewer_panel
        from league.dungeonbowl.rules import DungeonBowlRules
        from league.dungeonbowl.rulebook import SECTION
        from league.rules import rulebook
        from league.dungeonbowl import seasons
        from league.profiles import titles as profile_titles

        from league.dungeonbowl import boards

        rules.register(DungeonBowlRules)
        # The profile's titles: the season's placings and the Trophy (DB-14).
        profile_titles.register("Dungeon Bowl", seasons.honours_won)
        rulebook.register(SECTION)
        boards.register()  # its leaderboards and the Trophy (league/records)
        # Its rows in a league's file (league/transfer/).
        from league.dungeonbowl.transfer import register_rows

        register_rows()
        # Its read endpoints on the API (/api/v1/).
        from league.api import registry
        from league.dungeonbowl import api as dungeonbowl_api

        registry.add(dungeonbowl_api.router)
        # Who follows its kinds of fact (league/facts/).
        from league.dungeonbowl import followers

        followers.register()

        # A team's place in a season links its standings row to the team (versions.py).
        versions.track(TeamSeason, lambda ts: Q(entries__pk=ts.entry_id))
        # The league page's play-off bracket (DB-5b) and honours (DB-14): a season's
        # honours show on the page of every season of the league.
        versions.track(PlayoffGame, lambda game: Q(pk=game.season_id))
        versions.track(Honour, lambda honour: Q(league__seasons__pk=honour.season_id))
        # The season checklist on the organiser's dashboard, kept per version:
        # a team accepted, drafted, locked or retiring (DB-1, DB-6, DB-15).
        versions.track(Team, lambda team: Q(league_id=team.league_id))
        versions.track(Redraft, lambda redraft: Q(league__dungeonbowl_teams__pk=redraft.team_id))

        layers.register(layers.Layer(
            name="dungeonbowl", game_systems=frozenset({"dungeonbowl"}),
            panels={"league_detail": league_panel, "fixture_detail": fixture_panel, "my_fixtures": my_fixtures_panel,
                    "organiser_dashboard": organiser_panel, "league_viewer": viewer_panel},
            # A team is founded and drafted before it is entered in a season (DB-1, DB-6).
            coach_leagues=lambda coach_id: Q(pk__in=Team.objects.filter(coach_id=coach_id).values("league_id")),
            demo=demo.load, demo_accounts=demo.quickstart_accounts,
        ))
