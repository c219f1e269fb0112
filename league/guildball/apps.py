from django.apps import AppConfig


class GuildBallConfig(AppConfig):
    name = "league.guildball"
    label = "guildball"
    verbose_name = "Guild Ball"
