"""CSV cells that a spreadsheet opens as text, never as a formula.

A name such as ``=HYPERLINK("http://evil","Click")`` or ``@SUM(1+1)`` written raw at
the start of a cell is run by Excel, LibreOffice and Google Sheets when the
organiser opens the file. As OWASP's "CSV Injection" advice says, a text cell that
starts with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return gets a single
quote in front, which the spreadsheet shows as plain text. Numbers are left alone
(``-3`` is a VP difference, not a formula), including text that is only a number.

A cell is a cell only for a spreadsheet that splits where this file does: Excel in
many European locales splits a CSV on ``;``, and an import dialog offers tab and
``|`` as well. So the same rule holds after every such separator inside the text:
``Zed;=1+2`` is written ``Zed;'=1+2``, whose second half is text wherever it is
split. Line breaks count too, for a reader that ignores quotes.
Space is left out: only the import wizard offers it, and it would put a quote
into every ``Ada - Velocity``.

Every CSV the site writes goes through :func:`writer` (or :func:`csv_cell` for each
value), so a new export cannot forget it.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, TextIO

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
# Text that is just a number (an optional sign, digits, an optional decimal part)
# cannot be a formula; a spreadsheet reads it as that number.
PLAIN_NUMBER = re.compile(r"[+-]?\d+(\.\d+)?")
# What a spreadsheet may split a line on (the capturing group keeps them in re.split).
SEPARATORS = re.compile(r"([,;\t|\r\n])")


def _neutral(part: str) -> str:
    if part.startswith(FORMULA_STARTS) and not PLAIN_NUMBER.fullmatch(part):
        return "'" + part
    return part


def csv_cell(value: Any) -> Any:
    """The value to write in a cell: text that a spreadsheet would run as a formula,
    at its start or after any separator a spreadsheet may split on, gets a single
    quote there; anything else (numbers, None, safe text) unchanged."""
    if not isinstance(value, str) or not value:
        return value
    parts = SEPARATORS.split(value)
    # Odd places are the separators, even ones the pieces after them; the first
    # piece is judged with the whole value, whose leading tab or CR counts too.
    neutral = _neutral("".join(_neutral(part) if index and index % 2 == 0 else part for index, part in enumerate(parts)))
    return value if neutral == value else neutral


class SafeDictWriter(csv.DictWriter):
    """csv.DictWriter whose every cell, the header's included, passes csv_cell."""

    def writerow(self, rowdict: Mapping[str, Any]) -> Any:
        return super().writerow({key: csv_cell(value) for key, value in rowdict.items()})

    def writerows(self, rowdicts: Iterable[Mapping[str, Any]]) -> None:
        for row in rowdicts:
            self.writerow(row)


def writer(response: TextIO, fieldnames: Sequence[str], **kwargs: Any) -> SafeDictWriter:
    """A drop-in for ``csv.DictWriter(response, fieldnames=...)``: call
    ``writeheader()`` and ``writerows(rows)`` on it as before."""
    return SafeDictWriter(response, fieldnames=fieldnames, **kwargs)
