"""``manage.py import_teams FILE.csv``: a Dungeon Bowl league's teams and drafts
from a spreadsheet (``league.dungeonbowl.importing``)."""

from __future__ import annotations

import datetime
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from league.dungeonbowl.importing import COLUMNS, import_teams, read_team_rows
from league.spreadsheets.files import BadRow
from league.spreadsheets.writer import DEFAULT_SEASON, ImportRefused, organiser_named


class Command(BaseCommand):
    help = (
        f"Import Dungeon Bowl teams from a UTF-8 CSV file with the header {','.join(COLUMNS)}, one line per "
        "player (an empty division means none). Creates the league, its season and divisions, the coaches, the "
        "teams and their drafts (checked like the draft form) and enters them; importing the same file again "
        "changes nothing. A bad line stops the import and nothing is written."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="the CSV file")
        parser.add_argument("--by", metavar="USERNAME", help="the commissioner the teams are entered by, made "
                            "commissioner of the leagues the file creates (required)")
        parser.add_argument("--season", default=DEFAULT_SEASON, help=f"the season's name (default {DEFAULT_SEASON!r})")
        parser.add_argument("--start", type=datetime.date.fromisoformat, metavar="YYYY-MM-DD",
                            help="start date of a new season (default today)")

    def handle(self, *args, **options):
        path = Path(options["file"])
        try:
            by = organiser_named(options["by"])  # an import always names its organiser, as on the web
        except ImportRefused as error:
            raise CommandError(f"{error}.") from None
        try:
            with path.open(encoding="utf-8-sig", newline="") as handle:
                teams = read_team_rows(handle)
            if not teams:
                raise CommandError(f"{path} has a header but no rows; nothing was imported.")
            summary = import_teams(teams, by=by, season_name=options["season"].strip() or DEFAULT_SEASON,
                                   start_date=options["start"])
        except OSError as error:
            raise CommandError(f"Cannot read {path}: {error.strerror or error}.") from None
        except UnicodeDecodeError:
            raise CommandError(f"{path} is not UTF-8 text; save the spreadsheet as CSV UTF-8.") from None
        except BadRow as error:
            raise CommandError(f"{path.name}, line {error.line}: {error.reason.rstrip('.')}. Nothing was imported.") from None
        except ImportRefused as error:
            raise CommandError(f"{str(error).rstrip('.')}. Nothing was imported.") from None
        leagues = ", ".join(dict.fromkeys(summary.league_names))
        if not summary.changed:
            self.stdout.write(f"{path.name}: {leagues} already up to date; nothing changed ({len(teams)} teams).")
            return
        self.stdout.write(self.style.SUCCESS(
            f"Imported {path.name} into {leagues}: {summary.leagues} league(s), {summary.seasons} season(s), "
            f"{summary.divisions} division(s), {summary.coaches} coach(es), {summary.teams} team(s) with "
            f"{summary.players} player(s), {summary.entries} entr(ies); {summary.unchanged} team(s) already up to date."
        ))
