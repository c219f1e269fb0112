"""Reading one field of an import line (``manage.py import_results``), for the
games' ``parse_import_row``. Pure: a problem is a ``ValueError`` whose text is the
reason; ``league.spreadsheets.files`` adds the line number."""

from __future__ import annotations

import csv
from collections.abc import Iterator, Mapping, Sequence

from league.text import plaintext

# STYLE habit 15: no figure in an import file is anywhere near this; the game's
# own checks (VP, rounds, CP) then apply their real bounds.
MAX_WHOLE_NUMBER = 1_000_000_000


def shown(text: str, limit: int = 40) -> str:
    """A field quoted in a reason, cut short (a 1 MB field is not repeated back)."""
    return repr(text if len(text) <= limit else text[:limit] + "…")


def parse_whole_number(values: Mapping[str, str], column: str) -> int | None:
    """A whole number of 0 or more (at most MAX_WHOLE_NUMBER), or None when the
    field is empty."""
    text = values.get(column, "")
    if text == "":
        return None
    if len(text) > len(str(MAX_WHOLE_NUMBER)) + 1:  # before int(): thousands of digits are slow
        raise ValueError(f"{column} is too large a number ({shown(text, 12)})")
    try:
        number = int(text)
    except ValueError:
        raise ValueError(f"{column} must be a whole number, not {shown(text)}") from None
    if number < 0:
        raise ValueError(f"{column} cannot be negative ({number})")
    if number > MAX_WHOLE_NUMBER:
        raise ValueError(f"{column} is too large a number ({number})")
    return number


def csv_records(reader: csv.DictReader, bad_row) -> Iterator[tuple[int, dict]]:
    """(line number, record) for each line of ``reader``; a line the csv module
    cannot read (a field past its 128 KB limit, a stray quote) or that holds a
    character no name or figure has raises ``bad_row(line, reason)``: a NUL byte
    (PostgreSQL cannot store it), any other control character, a line break inside
    a quoted field or a text-direction override (league/text/plaintext.py:
    a backup cannot hold them)."""
    while True:
        try:
            record = next(reader)
        except StopIteration:
            return
        except csv.Error as error:
            # DictReader's own count lags on an error; its csv reader's does not.
            raise bad_row(reader.reader.line_num, f"the line cannot be read as CSV ({error})") from None
        for key, value in record.items():
            texts = value if isinstance(value, list) else [value]  # fields past the header come as a list
            found = next((found for text in texts if text is not None and (found := plaintext.problem(text))), None)
            if found:
                where = f"the {key} field" if key in (reader.fieldnames or ()) else "the line"
                raise bad_row(reader.line_num, f"{where} holds {found}")
        yield reader.line_num, record


def parse_choice(values: Mapping[str, str], column: str, choices: Sequence[str]) -> str | None:
    """One of ``choices`` (any case), or None when the field is empty."""
    text = values.get(column, "")
    if text == "":
        return None
    if text.lower() not in choices:
        raise ValueError(f"{column} must be {either(choices)}, not {shown(text)}")
    return text.lower()


def either(choices: Sequence[str]) -> str:
    """ "played, abandoned or scheduled" """
    choices = list(choices)
    return choices[0] if len(choices) == 1 else f"{', '.join(choices[:-1])} or {choices[-1]}"
