"""``manage.py import_results FILE.csv [--game G]``: move a running league in from a
spreadsheet. The file is read by ``league.spreadsheets.files`` and written by
``league.spreadsheets.writer``; each game's columns are its own (``GameRules.import_columns``)."""

from __future__ import annotations

import csv
import datetime
import itertools
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from league.spreadsheets.files import BadRow, read_rows, required_columns, rules_for, separator
from league.spreadsheets.writer import DEFAULT_SEASON, ImportRefused, game_for_header, import_rows, organiser_named
from league.models import League
from league.rules import GAMES, import_fallback


class Command(BaseCommand):
    help = (
        "Import a league from a UTF-8 CSV file. Columns by game: "
        + "; ".join(f"{system}: {','.join(required_columns(cls()))}" for system, cls in GAMES.items())
        + ". Creates the league (with the game's default settings), season, coaches, rounds, fixtures and "
        "approved results; importing the same file again changes nothing. A bad line stops the import "
        "and nothing is written."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="the CSV file")
        parser.add_argument(
            "--game", choices=sorted(GAMES), default=None,
            help="the league's game (default: the game of the existing league the file names, else the game whose "
            f"header the file has, else {import_fallback() or 'none: give --game'})"
        )
        parser.add_argument(
            "--by",
            metavar="USERNAME",
            help="the organiser the results are recorded by, made organiser of the leagues the file creates "
            "(required)",
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
        game = rules_for(options["game"] or self._guess_game(path))
        try:
            by = organiser_named(options["by"])  # an import always names its organiser, as on the web
        except ImportRefused as error:
            raise CommandError(f"{error}.") from None
        try:
            with path.open(encoding="utf-8-sig", newline="") as handle:
                rows = read_rows(handle, rules=game)
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
                rows, rules=game, by=by, season_name=options["season"].strip() or DEFAULT_SEASON,
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
    def _guess_game(path: Path) -> str:
        """The game of a file given without --game (``importer.game_for_header``).

        A file this cannot read (a field past the csv module's 128 KB; a NUL byte,
        which PostgreSQL cannot compare; a league name longer than any league's) is
        guessed from what it could read: reading the file again refuses it with the
        line and the reason."""
        header: list[str] = []
        first: list[str] = []
        try:
            with path.open(encoding="utf-8-sig", newline="") as handle:
                top = handle.readline()
                reader = csv.reader(itertools.chain([top], handle), delimiter=separator(top))
                header = next(reader, [])
                first = next(reader, [])
        except (OSError, UnicodeDecodeError, csv.Error):
            pass
        columns = [c.strip().lower() for c in header]
        league = " ".join(first[columns.index("league")].split()) if "league" in columns and len(first) == len(columns) else ""
        if "\x00" in league or len(league) > League._meta.get_field("name").max_length:
            league = ""  # no league has that name (a long one was SQLite's "LIKE pattern too complex")
        game = game_for_header(columns, league) or import_fallback()
        if game is None:
            raise CommandError(f"{path.name}: say which game the file is for with --game ({', '.join(sorted(GAMES))}).")
        return game

    @staticmethod
    def _refusal(path: Path, error: BadRow) -> str:
        return f"{path.name}, line {error.line}: {error.reason.rstrip('.')}. Nothing was imported."
