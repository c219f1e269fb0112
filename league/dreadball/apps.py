from django.apps import AppConfig


class DreadBallConfig(AppConfig):
    """DreadBall leagues (RULES.md section 3): the settings, each result's details,
    the published teams and the coaches' rosters. Its own label, so the engine's
    ``league`` app stays free of anything game-specific."""

    name = "league.dreadball"
    label = "dreadball"
    verbose_name = "DreadBall"

    def ready(self) -> None:
        # The engine reads its games from their declarations (league/games.py).
        # Imported here: the declaration names the game's models, loaded only now.
        from league import games
        from league.dreadball import game

        games.register(game.declaration())
