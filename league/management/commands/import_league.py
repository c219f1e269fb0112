"""``manage.py import_league FILE [--organiser USERNAME] [--slug NEW]``: a league
exported from an installation of this site (its settings page's download) becomes
a new league here, in one transaction (league/leaguefiles/importer.py)."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from league.leaguefiles.importer import ImportRefused, import_league, read_file


class Command(BaseCommand):
    help = (
        "Import a league file (docs/export-format.md) as a new league: every season, entrant, fixture, result "
        "and its history, and the game's data, with new ids. Nothing is written if any of it cannot be."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="the league's JSON file")
        parser.add_argument("--organiser", metavar="USERNAME", help="the account that organises the new league")
        parser.add_argument("--slug", help="the new league's address (default: the file's, if free here)")

    def handle(self, *args, file, organiser=None, slug=None, **options):
        account = None
        if organiser:
            account = get_user_model().objects.filter(username=organiser).first()
            if account is None:
                raise CommandError(f"No account is called {organiser!r}.")
        try:
            # Read as it is written: the file is streamed into the league, a batch of rows at a time.
            with open(file, "rb") as handle:
                league = import_league(read_file(handle), organiser=account, slug=slug)
        except OSError as error:
            raise CommandError(f"Cannot read {file}: {error.strerror}.") from None
        except ImportRefused as error:
            raise CommandError(str(error)) from None
        self.stdout.write(f"Imported {league.name} at {league.get_absolute_url()}.")
