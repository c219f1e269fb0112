"""Reading one field of an import line (``manage.py import_results``), for the
games' ``parse_import_row``. Pure: a problem is a ``ValueError`` whose text is the
reason; the importer adds the line number."""

from __future__ import annotations

from collections.abc import Mapping, Sequence


def parse_whole_number(values: Mapping[str, str], column: str) -> int | None:
    """A whole number of 0 or more, or None when the field is empty."""
    text = values.get(column, "")
    if text == "":
        return None
    try:
        number = int(text)
    except ValueError:
        raise ValueError(f"{column} must be a whole number, not {text!r}") from None
    if number < 0:
        raise ValueError(f"{column} cannot be negative ({number})")
    return number


def parse_choice(values: Mapping[str, str], column: str, choices: Sequence[str]) -> str | None:
    """One of ``choices`` (any case), or None when the field is empty."""
    text = values.get(column, "")
    if text == "":
        return None
    if text.lower() not in choices:
        raise ValueError(f"{column} must be {either(choices)}, not {text!r}")
    return text.lower()


def either(choices: Sequence[str]) -> str:
    """ "played, abandoned or scheduled" """
    choices = list(choices)
    return choices[0] if len(choices) == 1 else f"{', '.join(choices[:-1])} or {choices[-1]}"
