from django.apps import AppConfig


class DungeonBowlConfig(AppConfig):
    """Dungeon Bowl college leagues (RULES.md section 2): colleges, teams, drafts,
    the Treasury ledger and the dice log. Its own label, so the engine's ``league``
    app stays free of anything game-specific."""

    name = "league.dungeonbowl"
    label = "dungeonbowl"
    verbose_name = "Dungeon Bowl"

    def ready(self) -> None:
        # The engine reads its games from their declarations (league/games.py).
        # Imported here: the declaration names the game's models, loaded only now.
        from league import games
        from league.dungeonbowl import game

        games.register(game.declaration())
