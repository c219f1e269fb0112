from django.apps import AppConfig


class RingballConfig(AppConfig):
    name = "tests.fourth_game"
    label = "fourth_game"
    verbose_name = "Ringball (a test game)"

    def ready(self) -> None:
        # Declared as any game is (league/games.py). Imported here: the declaration
        # names the game's models, loaded only now.
        from league import games
        from tests.fourth_game import game

        games.register(game.declaration())
