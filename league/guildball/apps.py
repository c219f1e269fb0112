from django.apps import AppConfig


class GuildBallConfig(AppConfig):
    name = "league.guildball"
    label = "guildball"
    verbose_name = "Guild Ball"

    def ready(self) -> None:
        # The engine reads its games from their declarations (league/games.py).
        # Imported here: the declaration names the game's models, loaded only now.
        from league import games
        from league.guildball import game

        games.register(game.declaration())
