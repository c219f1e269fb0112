import functools

from django.apps import AppConfig


class DreadBallConfig(AppConfig):
    """DreadBall leagues (RULES.md section 3): the settings, each result's details,
    the published teams and the coaches' rosters. Its own label, so the engine's
    ``league`` app stays free of anything game-specific."""

    name = "league.dreadball"
    label = "dreadball"
    verbose_name = "DreadBall"

    def ready(self) -> None:
        # Imported here, not at the top: apps.py loads before any model, and these
        # modules import models (Django's app loading; ready() runs once all are loaded).
        from league import layers, rules
        from league.dreadball import demo
        from league.dreadball.panels import my_fixtures_panel, roster_panel, viewer_panel
        from league.dreadball.rules import DreadBallRules
        from league.dreadball.rulebook import SECTION
        from league.rules import rulebook
        from league.profiles.titles import table_champions
        from league.profiles import titles as profile_titles

        from league.dreadball import boards

        rules.register(DreadBallRules)
        # The profile's titles: League Champion, the top of a finished season's
        # table (DR-4 orders it).
        profile_titles.register("DreadBall", functools.partial(table_champions, game="dreadball", rule="DR-4"))
        rulebook.register(SECTION)
        boards.register()  # its leaderboard and champion (league/records)
        # Its rows in a league's file (league/leaguefiles/).
        from league.dreadball.transfer import register_rows

        register_rows()
        # Its read endpoints on the API (/api/v1/).
        from league.api import registry
        from league.dreadball import api as dreadball_api

        registry.add(dreadball_api.router)

        # DR-5: the coach's page shows the team's roster (a panel, so the engine's
        # template knows nothing of DreadBall).
        layers.register(
            layers.Layer(
                name="DreadBall",
                game_systems=frozenset({"dreadball"}),
                panels={"coach_detail": roster_panel, "league_viewer": viewer_panel, "my_fixtures": my_fixtures_panel},
                demo=demo.load,
                demo_accounts=demo.quickstart_accounts,
            )
        )
