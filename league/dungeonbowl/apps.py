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

        from league import layers, versions
        from league.dungeonbowl import demo
        from league.dungeonbowl.league_models import TeamSeason
        from league.dungeonbowl.panels import fixture_panel, my_fixtures_panel

        # A team's place in a season links its standings row to the team (versions.py).
        versions.track(TeamSeason, lambda ts: Q(entries__pk=ts.entry_id))

        layers.register(layers.Layer(
            name="dungeonbowl", game_systems=frozenset({"dungeonbowl"}),
            panels={"fixture_detail": fixture_panel, "my_fixtures": my_fixtures_panel},
            demo=demo.load, demo_accounts=demo.quickstart_accounts,
        ))
