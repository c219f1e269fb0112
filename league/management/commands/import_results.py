"""``manage.py import_results FILE.csv``: move a running Guild Ball league in from a
spreadsheet. The work is in ``league.importer``."""

from __future__ import annotations

import datetime
from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from league.importer import (
    DEFAULT_SEASON,
    REQUIRED_COLUMNS,
    BadRow,
    ImportRefused,
    import_rows,
    read_rows,
)


class Command(BaseCommand):
    help = (
        f"Import a Guild Ball league from a UTF-8 CSV file with the columns {','.join(REQUIRED_COLUMNS)} "
        "(status: played, abandoned or scheduled; VP empty when scheduled). Creates the league, season, "
        "coaches, rounds, fixtures and approved results; importing the same file again changes nothing. "
        "A bad line stops the import and nothing is written."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="the CSV file")
        parser.add_argument(
            "--by",
            metavar="USERNAME",
            help="the organiser the results are recorded by (default: a system user 'importer', made "
            "organiser of the leagues it creates)",
        )
        parser.add_argument("--season", default=DEFAULT_SEASON, help=f"the season's name (default {DEFAULT_SEASON!r})")
        parser.add_argument(
            "--start",
            type=datetime.date.fromisoformat,
            metavar="YYYY-MM-DD",
            help="start date of a new season (default today); round n is dated start + 7 * (n - 1) days",
        )

    def handle(self, *args, **options):
        path = Path(options["file"])
        by = None
        if options["by"]:
            try:
                by = get_user_model().objects.get(username=options["by"])
            except get_user_model().DoesNotExist:
                raise CommandError(f"There is no user {options['by']!r}.") from None
        try:
            with path.open(encoding="utf-8-sig", newline="") as handle:
                rows = read_rows(handle)
        except OSError as error:
            raise CommandError(f"Cannot read {path}: {error.strerror or error}.") from None
        except UnicodeDecodeError:
            raise CommandError(f"{path} is not UTF-8 text; save the spreadsheet as CSV UTF-8.") from None
        except BadRow as error:
            raise CommandError(self._refusal(path, error)) from None
        if not rows:
            raise CommandError(f"{path} has a header but no rows; nothing was imported.")
        try:
            summary = import_rows(
                rows, by=by, season_name=options["season"].strip() or DEFAULT_SEASON,
                start_date=options["start"], source=path.name,
            )
        except BadRow as error:
            raise CommandError(self._refusal(path, error)) from None
        except ImportRefused as error:
            raise CommandError(f"{str(error).rstrip('.')}. Nothing was imported.") from None

        leagues = ", ".join(summary.league_names)
        if not summary.changed:
            self.stdout.write(f"{path.name}: {leagues} already up to date; nothing changed ({len(rows)} rows).")
            return
        self.stdout.write(self.style.SUCCESS(
            f"Imported {path.name} into {leagues}: "
            f"{summary.leagues} league(s), {summary.seasons} season(s), {summary.coaches} coach(es), "
            f"{summary.entries} entr(ies), {summary.rounds} round(s), {summary.fixtures} fixture(s) created; "
            f"{summary.results_recorded} result(s) recorded, {summary.results_approved} reported result(s) "
            f"approved, {summary.unchanged} already up to date."
        ))

    @staticmethod
    def _refusal(path: Path, error: BadRow) -> str:
        return f"{path.name}, line {error.line}: {error.reason.rstrip('.')}. Nothing was imported."
