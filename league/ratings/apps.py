from django.apps import AppConfig
from django.db.models.signals import post_delete, post_migrate, post_save


class RatingsConfig(AppConfig):
    """Glicko-2 ratings per game system across every league (RULES.md section 4)."""

    name = "league.ratings"
    label = "ratings"
    verbose_name = "Ratings"

    def ready(self) -> None:
        # Imported here, not at the top: apps.py loads before any model, and these
        # modules import models (Django's app loading; ready() runs once all are loaded).
        from league.models import Coach
        from league.ratings import services
        from league.ratings.rulebook import SECTION
        from league.rules import rulebook

        rulebook.register(SECTION)

        # The ranking pages show coaches' names: a renamed or removed coach gives
        # every game's ranking a new version (league/ratings/services.py ``touch``).
        for signal in (post_save, post_delete):
            signal.connect(services.coach_changed, sender=Coach, weak=False,
                           dispatch_uid=f"ratings:coach:{signal is post_save}")

        # Every game has its ratings row from the start, so the write that marks
        # it (``services.mark``) is one UPDATE, the first approval of a game too.
        post_migrate.connect(services.rated_games_exist, sender=self, weak=False,
                             dispatch_uid="ratings:rated-games")
