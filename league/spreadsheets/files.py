"""Reading a results import file (``manage.py import_results --game G``): its
columns, each line parsed and checked, a bad line refused with its number.

The engine reads the CSV file and keeps everything every game shares; the game
(its ``GameRules``) says what differs. A header is ``league,round,home,away``,
then the game's ``import_columns``, then ``status`` (Guild Ball:
``home_vp,away_vp``; DreadBall: ``winner,difference,rush,sudden_death``).
``read_rows`` parses and checks each line on its own (pure: no database); the
game's ``parse_import_row`` turns its columns into the facts its report form
would give. ``check_rows`` then checks the rows against each other and the
game's rules (``validate``, as for a result entered on the site; a coach plays
once a round). ``league.spreadsheets.writer`` writes the rows read here.

A game's layer adds its own optional columns (the Big League's ``home_cp,away_cp``)
through ``league.layers.ImportColumns``: parsed here with each line.

``csv_lines`` and ``text_field`` also read the other import files (Dungeon Bowl's
teams, ``league.dungeonbowl.importing``).
"""

from __future__ import annotations

import csv
import datetime
import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.text import slugify

from league import layers
from league.datebounds import MAX_ROUNDS, validate_match_date
from league.models import Coach, League
from league.rules import GAMES, GameRules
from league.rules.base import Verdict
from league.rules.importing import csv_records, either, parse_whole_number, shown


ENGINE_COLUMNS = ("league", "round", "home", "away")  # then the game's columns, then "status"
DATE_COLUMN = "date"  # optional in every results file: the day the match is (was) played
DATE_FORMATS = ("%Y-%m-%d", "%d/%m/%Y", "%d.%m.%Y")  # ISO, then the day first as European spreadsheets write it


def date_formats_shown() -> list[str]:
    """DATE_FORMATS as a person writes them (YYYY-MM-DD, DD/MM/YYYY ...): what the
    import page and a refused date list, from the reader's own list."""
    return [pattern.replace("%Y", "YYYY").replace("%m", "MM").replace("%d", "DD") for pattern in DATE_FORMATS]

_MAX_COACH_NAME = Coach._meta.get_field("name").max_length
_MAX_LEAGUE_NAME = League._meta.get_field("name").max_length


def required_columns(rules: GameRules) -> tuple[str, ...]:
    """The header a file for ``rules``' game must have (in the game's own order when
    it gives one; columns are matched by name)."""
    if rules.import_header is not None:
        return tuple(rules.import_header)
    return (*ENGINE_COLUMNS, *rules.import_columns, "status")


def rules_for(game: str) -> GameRules:
    """The game's rules with its default settings, for reading a file."""
    return GAMES[game]()


class BadRow(Exception):
    """A line of the file that cannot be imported; ``line`` 1 is the header."""

    def __init__(self, line: int, reason: str):
        super().__init__(f"line {line}: {reason}")
        self.line = line
        self.reason = reason


@dataclass(frozen=True)
class ImportRow:
    line: int
    league: str
    round: int
    home: str
    away: str
    status: str
    abandoned: bool = False  # the game records the line as abandoned/unplayed (``import_abandoned``)
    facts: Mapping[str, Any] | None = None  # the game's report-form facts; None: no result yet
    date: datetime.date | None = None  # the optional ``date`` column: the fixture's day, else its round's
    # What the game's layers read from their own columns: (columns, parsed) pairs.
    extras: tuple[tuple[layers.ImportColumns, object], ...] = ()

    @property
    def slug(self) -> str:
        return slugify(self.league)

    @property
    def has_result(self) -> bool:
        return self.facts is not None


def separator(header: str) -> str:
    """The file's field separator, from its header: a semicolon where the header
    has more of them than commas (a spreadsheet saved as CSV in a country whose
    decimal mark is the comma, as European Excel does), else a comma."""
    return ";" if header.count(";") > header.count(",") else ","


def csv_lines(lines: Iterable[str], *, required: Sequence[str], optional: Sequence[str] = ()):
    """Every import's reading of a CSV text (an open file or a list of lines),
    separated by commas or semicolons (``separator``), a byte-order mark before the
    header ignored: the header (line 1) must hold each of ``required`` once and nothing but them and
    ``optional``, matched by name whatever the case; then each line that is not
    empty as (its line number, its stripped values by column), a line with more or
    fewer fields than the header refused. Pure: no database."""
    lines = iter(lines)
    first = next(lines, "")
    if isinstance(first, str) and first.startswith("\ufeff"):  # a byte-order mark read as text
        first = first[1:]
    reader = csv.DictReader(itertools.chain([first], lines), restkey="\0extra", delimiter=separator(first))
    try:
        header = reader.fieldnames
    except csv.Error as error:  # a header field past the csv module's 128 KB
        raise BadRow(1, f"the line cannot be read as CSV ({error})") from None
    if header and any("\x00" in (name or "") for name in header):
        raise BadRow(1, "the header holds a NUL byte")
    if not header:
        raise BadRow(1, f"the file is empty; the first line must be the header {','.join(required)}")
    columns = [(name or "").strip().lower() for name in header]
    missing = [c for c in required if c not in columns]
    if missing:
        raise BadRow(1, f"missing column(s) {', '.join(missing)}; the header must hold {','.join(required)}")
    unknown = [c for c in columns if c not in (*required, *optional)]
    if unknown:
        raise BadRow(1, f"unknown column(s) {', '.join(unknown)}")
    duplicated = sorted({c for c in columns if columns.count(c) > 1})
    if duplicated:
        raise BadRow(1, f"column(s) {', '.join(duplicated)} appear more than once")
    reader.fieldnames = columns
    for line, record in csv_records(reader, BadRow):
        if "\0extra" in record:
            raise BadRow(line, f"more fields than the header's {len(columns)}")
        if None in record.values() and any(record.values()):
            given = sum(value is not None for value in record.values())
            raise BadRow(line, f"{given} fields where the header has {len(columns)}")
        values = {key: (value or "").strip() for key, value in record.items()}
        if any(values.values()):
            yield line, values


def text_field(values: Mapping[str, str], column: str, line: int, max_length: int, *, label: str = "",
               required: bool = True) -> str:
    """A line's text in ``column`` with its spaces tidied, checked against the
    database's ``max_length``; ``label`` names it in the messages (the column)."""
    label = label or column
    text = " ".join(values.get(column, "").split())
    if required and not text:
        raise BadRow(line, f"the {label} is missing")
    if len(text) > max_length:
        raise BadRow(line, f"the {label} is longer than {max_length} characters")
    return text


def read_rows(lines: Iterable[str], *, rules: GameRules) -> list[ImportRow]:
    """Parse a CSV text (an open file or a list of lines) for ``rules``' game into
    rows, checking the header and each line on its own. Lines with every field
    empty are skipped. The game's layers may add optional columns
    (``layers.import_columns``)."""
    extras = layers.import_columns(rules.system)
    optional = (DATE_COLUMN, *(column for extra in extras for column in extra.columns))
    return [
        parse_row(values, line, rules=rules, extras=extras)
        for line, values in csv_lines(lines, required=required_columns(rules), optional=optional)
    ]


def parse_row(
    values: dict[str, str], line: int, *, rules: GameRules, extras: Iterable[layers.ImportColumns] = ()
) -> ImportRow:
    """One line's fields (stripped strings) as an ``ImportRow``; the game reads its
    own columns, its layers theirs."""
    league = _name(values, "league", line, _MAX_LEAGUE_NAME)
    if not slugify(league):
        raise BadRow(line, f"the league name {shown(league)} gives no usable web address (slug)")
    home = _name(values, "home", line, _MAX_COACH_NAME)
    away = _name(values, "away", line, _MAX_COACH_NAME)
    if home == away:
        raise BadRow(line, f"{home} cannot play themselves: home and away must be different {rules.import_sides}")
    round_number = _whole_number(values, "round", line)
    if round_number is None:
        raise BadRow(line, "the round number is missing")
    if not 1 <= round_number <= MAX_ROUNDS:
        raise BadRow(line, f"the round number must be from 1 to {MAX_ROUNDS}, not {round_number}")
    status = values.get("status", "").lower()
    if status not in rules.import_statuses:
        raise BadRow(line, f"unknown status {shown(values.get('status', ''))}; use {either(rules.import_statuses)}")
    try:
        facts = rules.parse_import_row(values, status=status)
    except ValueError as error:
        raise BadRow(line, str(error)) from None
    parsed = []
    for extra in extras:
        try:
            value = extra.parse(values)
        except ValueError as error:
            raise BadRow(line, str(error)) from None
        if value is not None:
            parsed.append((extra, value))
    return ImportRow(
        line=line, league=league, round=round_number, home=home, away=away, status=status,
        abandoned=status in rules.import_abandoned, facts=facts, extras=tuple(parsed),
        date=_date(values, line),
    )


def _date(values: Mapping[str, str], line: int) -> datetime.date | None:
    """The line's ``date`` (in one of DATE_FORMATS) within
    league/datebounds.py's range, or None when the column is absent or empty."""
    text = values.get(DATE_COLUMN, "")
    if not text:
        return None
    for pattern in DATE_FORMATS:
        try:
            day = datetime.datetime.strptime(text, pattern).date()
        except ValueError:
            continue
        try:
            validate_match_date(day)
        except ValidationError as error:
            raise BadRow(line, f"the date {shown(text)}: {' '.join(error.messages)}") from None
        return day
    raise BadRow(line, f"the date {shown(text)} is not a date; write it as {either(date_formats_shown())}")


def check_rows(rows: Iterable[ImportRow], *, rules: GameRules) -> None:
    """Check one league's rows against the game's rules (bound to the league's
    settings) and each other, in line order: each result as the site would, and no
    coach twice in a round."""
    seen: dict[tuple[int, str], int] = {}
    for row in rows:
        if row.has_result:
            verdict_for(row, rules=rules)
        for coach in (row.home, row.away):
            earlier = seen.get((row.round, coach))
            if earlier is not None:
                raise BadRow(row.line, f"{coach} already plays in round {row.round} (line {earlier})")
            seen[(row.round, coach)] = row.line


def verdict_for(row: ImportRow, *, rules: GameRules) -> Verdict:
    """A row's result by the same rules as a result entered on the site."""
    try:
        return rules.validate(row.facts, abandoned=row.abandoned)
    except ValidationError as error:
        raise BadRow(row.line, " ".join(error.messages)) from None


def _name(values: dict[str, str], column: str, line: int, max_length: int) -> str:
    return text_field(values, column, line, max_length, label=f"{column} name")


def _whole_number(values: dict[str, str], column: str, line: int) -> int | None:
    try:
        return parse_whole_number(values, column)
    except ValueError as error:
        raise BadRow(line, str(error)) from None
