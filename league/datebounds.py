"""Sane bounds for dates a person or a file enters: fixture dates, a rearranged
match, a season's start.

Python's dates end at 9999-12-31, so a match rearranged to that day breaks the
iCalendar feeds (a whole-day event ends the next day: OverflowError), and a
season starting near it cannot date its later rounds. Nobody plays Guild Ball in
1066 or 9999 either. A date between EARLIEST and LATEST leaves room for any
day-arithmetic the site does (a day either side for feeds, a week per round for a
long season) and is still far wider than any real league.
"""

from __future__ import annotations

import datetime

from django import forms
from django.core.exceptions import ValidationError

EARLIEST = datetime.date(1900, 1, 2)
LATEST = datetime.date(2200, 12, 30)
# The longest season a start date must leave room for: round n is dated
# start + days_between * (n - 1). A double round robin of 500 entries has 998
# rounds (the benchmark plays 400 coaches once: 399).
MAX_ROUNDS = 1000


def _day(value: datetime.date) -> str:
    return f"{value.day} {value:%B %Y}"


def validate_match_date(value: datetime.date) -> None:
    """A fixture or round date between EARLIEST and LATEST."""
    if isinstance(value, datetime.datetime):
        value = value.date()
    if not EARLIEST <= value <= LATEST:
        raise ValidationError(
            "Enter a date between %(earliest)s and %(latest)s.",
            code="date_out_of_range",
            params={"earliest": _day(EARLIEST), "latest": _day(LATEST)},
        )


def validate_season_dates(start: datetime.date, *, rounds: int, days_between: int = 7) -> None:
    """A season's start such that every round's date (start + days_between × (n − 1),
    n = 1..rounds) is within bounds; raises ValidationError naming the last round."""
    validate_match_date(start)
    if not 1 <= rounds <= MAX_ROUNDS:
        raise ValidationError(
            "A season has between 1 and %(max)s rounds.", code="rounds_out_of_range", params={"max": MAX_ROUNDS}
        )
    last = start + datetime.timedelta(days=days_between * (rounds - 1))
    if last > LATEST:
        raise ValidationError(
            "Round %(rounds)s would fall on %(last)s; start the season by %(latest_start)s.",
            code="season_out_of_range",
            params={
                "rounds": rounds,
                "last": _day(last),
                "latest_start": _day(LATEST - datetime.timedelta(days=days_between * (rounds - 1))),
            },
        )


class MatchDateField(forms.DateField):
    """A DateField that refuses dates outside EARLIEST..LATEST with a clear message,
    shown as a date picker bounded to the same range."""

    default_validators = [validate_match_date]

    def __init__(self, **kwargs) -> None:
        kwargs.setdefault(
            "widget",
            forms.DateInput(attrs={"type": "date", "min": EARLIEST.isoformat(), "max": LATEST.isoformat()}, format="%Y-%m-%d"),
        )
        super().__init__(**kwargs)
