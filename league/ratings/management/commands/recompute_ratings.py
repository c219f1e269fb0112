"""``manage.py recompute_ratings [--game X]``: every game's ratings (or one's)
rebuilt from scratch from the approved results (RULES.md section 4)."""

from django.core.management.base import BaseCommand, CommandError

from league.ratings import services
from league.ratings.models import Rating
from league.rules import GAMES


class Command(BaseCommand):
    help = "Recompute the Glicko-2 ratings of every game (or --game) from scratch."

    def add_arguments(self, parser):
        parser.add_argument("--game", help=f"One game: {', '.join(GAMES)}.")

    def handle(self, *args, game=None, **options):
        if game is not None and game not in GAMES:
            raise CommandError(f"No game {game!r}: choose one of {', '.join(GAMES)}.")
        for system in [game] if game else list(GAMES):
            services.recompute(system)
            count = Rating.objects.filter(game_system=system).count()
            self.stdout.write(f"{system}: {count} coach{'es' if count != 1 else ''} rated.")
