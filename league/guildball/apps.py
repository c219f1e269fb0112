from django.apps import AppConfig


class GuildBallConfig(AppConfig):
    name = "league.guildball"
    label = "guildball"
    verbose_name = "Guild Ball"

    def ready(self) -> None:
        # Imported here, not at the top: apps.py loads before any model, and these
        # modules import models (Django's app loading; ready() runs once all are loaded).
        # The engine reads its games from one explicit registry (league.rules), as it
        # reads its layers; Guild Ball adds itself here.
        from league import rules
        from league.guildball.rulebook import SECTION
        from league.guildball.rules import GuildBallRules
        from league.rules import rulebook

        from league.guildball import boards

        rules.register(GuildBallRules)
        rulebook.register(SECTION)
        boards.register()  # its leaderboard (league/records/boards.py)
        # Its rows in a league's file (league/leaguefiles/).
        from league.guildball.transfer import register_rows

        register_rows()
