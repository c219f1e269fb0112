from django.apps import AppConfig


class DungeonBowlConfig(AppConfig):
    """Dungeon Bowl college leagues (RULES.md section 2): colleges, teams, drafts,
    the Treasury ledger and the dice log. Its own label, so the engine's ``league``
    app stays free of anything game-specific."""

    name = "league.dungeonbowl"
    label = "dungeonbowl"
    verbose_name = "Dungeon Bowl"

    def ready(self) -> None:
        from league import layers
        from league.dungeonbowl.panels import fixture_panel

        layers.register(layers.Layer(
            name="dungeonbowl", game_systems=frozenset({"dungeonbowl"}), panels={"fixture_detail": fixture_panel},
        ))
