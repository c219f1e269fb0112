"""``<id:...>`` in URL patterns: a database id, bounded so it always fits a 64-bit
integer column. ``<int:...>`` takes any number of digits, and an id beyond 2**63-1
reaches the ORM, where SQLite raises OverflowError (a 500); here it simply does
not match, so the URL is a 404 like any other unknown id.

Importing this module registers the converter; league/urls.py and
campaigns/urls.py import it before their patterns.
"""

from __future__ import annotations

from django.urls import register_converter

MAX_ID = 2**63 - 1  # the largest BigAutoField / bigint value


class BoundedIdConverter:
    # 1 to 19 digits: every value up to MAX_ID, which has 19; to_python refuses the
    # 19-digit values above it. A leading zero is not an id Django ever writes.
    regex = "[1-9][0-9]{0,18}"

    def to_python(self, value: str) -> int:
        number = int(value)
        if number > MAX_ID:
            raise ValueError(f"{value} is beyond a 64-bit id")  # Django: no match, 404
        return number

    def to_url(self, value: int | str) -> str:
        number = int(value)
        if not 0 < number <= MAX_ID:
            raise ValueError(f"{value} is not an id")
        return str(number)


register_converter(BoundedIdConverter, "id")
