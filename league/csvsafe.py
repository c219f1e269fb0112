"""CSV cells that a spreadsheet opens as text, never as a formula.

A name such as ``=HYPERLINK("http://evil","Click")`` or ``@SUM(1+1)`` written raw at
the start of a cell is run by Excel, LibreOffice and Google Sheets when the
organiser opens the file. As OWASP's "CSV Injection" advice says, a text cell that
starts with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return gets a single
quote in front, which the spreadsheet shows as plain text. Numbers are left alone
(``-3`` is a VP difference, not a formula), including text that is only a number.

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


def csv_cell(value: Any) -> Any:
    """The value to write in a cell: text that a spreadsheet would run as a formula
    gets a leading single quote; anything else (numbers, None, safe text) unchanged."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS) and not PLAIN_NUMBER.fullmatch(value):
        return "'" + value
    return value


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
