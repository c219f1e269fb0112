"""Date bounds: a date a person enters stays where day arithmetic and iCalendar work."""

from __future__ import annotations

import datetime

import pytest
from django import forms
from django.core.exceptions import ValidationError

from league.datebounds import (
    EARLIEST,
    LATEST,
    MAX_ROUNDS,
    MatchDateField,
    validate_match_date,
    validate_season_dates,
)

D = datetime.date


@pytest.mark.parametrize("value", [EARLIEST, LATEST, D(2026, 3, 9), datetime.datetime(2026, 3, 9, 19, 30)])
def test_dates_within_bounds_pass(value):
    validate_match_date(value)


@pytest.mark.parametrize("value", [D(9999, 12, 31), D(1, 1, 1), D(1900, 1, 1), D(2200, 12, 31)])
def test_dates_outside_bounds_are_refused_with_the_range(value):
    with pytest.raises(ValidationError) as caught:
        validate_match_date(value)
    assert caught.value.code == "date_out_of_range"
    assert "between 2 January 1900 and 30 December 2200" in caught.value.messages[0]


def test_bounds_leave_room_for_a_day_either_side():
    """What the iCalendar feeds do (an all-day event ends the next day) never overflows."""
    assert LATEST + datetime.timedelta(days=1) < D.max
    assert EARLIEST - datetime.timedelta(days=1) > D.min


def test_season_whose_last_round_fits():
    validate_season_dates(D(2026, 1, 5), rounds=9)
    validate_season_dates(LATEST - datetime.timedelta(weeks=8), rounds=9)


def test_season_whose_last_round_would_pass_the_bound_names_the_latest_start():
    start = LATEST - datetime.timedelta(weeks=7)
    with pytest.raises(ValidationError) as caught:
        validate_season_dates(start, rounds=9)
    assert caught.value.code == "season_out_of_range"
    message = caught.value.messages[0]
    assert message.startswith("Round 9 would fall on ")
    assert "start the season by 4 November 2200" in message
    validate_season_dates(D(2200, 11, 4), rounds=9)  # the day it names works


@pytest.mark.parametrize("rounds", [0, -1, MAX_ROUNDS + 1, 10**9])
def test_absurd_round_counts_are_refused(rounds):
    with pytest.raises(ValidationError):
        validate_season_dates(D(2026, 1, 5), rounds=rounds)


class RearrangeForm(forms.Form):
    date = MatchDateField()


@pytest.mark.parametrize(
    ("raw", "ok"),
    [("2026-03-09", True), ("9999-12-31", False), ("0001-01-01", False), ("2200-12-30", True), ("31/02/2026", False)],
)
def test_match_date_field(raw, ok):
    form = RearrangeForm({"date": raw})
    assert form.is_valid() is ok
    if not ok and raw != "31/02/2026":
        assert "between 2 January 1900 and 30 December 2200" in form.errors["date"][0]


def test_match_date_field_bounds_the_date_picker():
    html = str(RearrangeForm()["date"])
    assert 'type="date"' in html and 'min="1900-01-02"' in html and 'max="2200-12-30"' in html
