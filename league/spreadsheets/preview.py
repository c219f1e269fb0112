"""The web import: a preview that writes nothing, then the same import.

The preview runs ``importer.import_rows`` and rolls it back, so its counts are
exactly what confirming writes while the league does not change; the confirmed
import checks that it wrote what the preview showed (league/spreadsheets/views.py).
"""

from __future__ import annotations

import dataclasses
import datetime
from dataclasses import dataclass

from django.db import transaction

from league.spreadsheets.files import BadRow, ImportRow, read_rows, verdict_for
from league.spreadsheets.writer import ImportSummary, find_league, import_rows
from league.models import League
from league.rules import GAMES


MAX_UPLOAD_BYTES = 512 * 1024  # a 40-coach double round robin is about 70 KB
PREVIEW_LINES = 10


class ImportChanged(Exception):
    """The confirmed import would not write what its preview showed: the league
    changed in between."""


class _Undo(Exception):
    """Rolls a preview back, carrying what it would have written."""

    def __init__(self, summary: ImportSummary):
        self.summary = summary


@dataclass(frozen=True)
class PreviewLine:
    line: int
    round: int
    home: str
    away: str
    status: str
    result: str  # the result as the site shows it, or "" for a scheduled match
    date: datetime.date | None
    abandoned: bool = False  # GB-6, DB-5a: a loss for both, marked in the preview


def read_upload(data: bytes) -> str:
    """An uploaded file's text: UTF-8 with or without a byte-order mark, or a
    refusal at line 1 with how to save it."""
    if len(data) > MAX_UPLOAD_BYTES:
        raise BadRow(1, f"the file is {len(data) // 1024} KB; a file of at most {MAX_UPLOAD_BYTES // 1024} KB "
                        f"can be imported at once: split it by rounds")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise BadRow(1 + data[: error.start].count(b"\n"),
                     "the file is not UTF-8 text; save the spreadsheet as \"CSV UTF-8\"") from None


def rows_for_league(text: str, *, league: League) -> list[ImportRow]:
    """The rows of a results file for ``league``'s game, each naming ``league``
    (the first that names another is refused with its line)."""
    rows = read_rows(text.splitlines(keepends=True), rules=GAMES[league.game_system]())
    if not rows:
        raise BadRow(2, "the file has a header but no rows")
    names = {league.name.lower()}
    for row in rows:
        if row.league.lower() in names:
            continue
        found = find_league(row.slug, row.league, row.line)
        if found is None or found.pk != league.pk:
            raise BadRow(row.line, f"the line is for the league {row.league}; this page imports into {league.name} only")
        names.add(row.league.lower())
    return rows


def preview_import(rows: list[ImportRow], *, league: League, by, season_name: str,
                   start_date: datetime.date | None) -> tuple[ImportSummary, list[PreviewLine]]:
    """What importing ``rows`` would write, found by importing them and rolling
    back: the counts are exactly those the confirmed import writes while the
    league does not change. Raises ``BadRow`` or ``ImportRefused`` as the import
    would, having written nothing."""
    rules = league.rules
    try:
        with transaction.atomic():
            raise _Undo(import_rows(rows, rules=rules, by=by, season_name=season_name, start_date=start_date,
                                    source="upload"))
    except _Undo as undone:
        summary = undone.summary
    lines = [
        PreviewLine(line=row.line, round=row.round, home=row.home, away=row.away, status=row.status, date=row.date,
                    result=rules.summary(verdict_for(row, rules=rules)) if row.has_result else "",
                    abandoned=row.abandoned)
        for row in rows[:PREVIEW_LINES]
    ]
    return summary, lines


@transaction.atomic
def confirm_import(rows: list[ImportRow], *, league: League, by, season_name: str, start_date: datetime.date | None,
                   expected: dict, source: str) -> ImportSummary:
    """Import ``rows`` into ``league`` if that writes what the preview showed
    (``expected``, the preview's ``ImportSummary`` as a dict); else nothing is
    written and ``ImportChanged`` is raised."""
    summary = import_rows(rows, rules=league.rules, by=by, season_name=season_name, start_date=start_date,
                          source=source)
    if summary_dict(summary) != expected:
        raise ImportChanged(f"{league.name} changed since the preview; nothing was imported. Preview the file again.")
    return summary


def summary_dict(summary: ImportSummary) -> dict:
    return dataclasses.asdict(summary)
