from django.apps import AppConfig


class DungeonBowlConfig(AppConfig):
    """Dungeon Bowl college leagues (RULES.md section 2): colleges, teams, drafts,
    the Treasury ledger and the dice log. Its own label, so the engine's ``league``
    app stays free of anything game-specific."""

    name = "league.dungeonbowl"
    label = "dungeonbowl"
    verbose_name = "Dungeon Bowl"
