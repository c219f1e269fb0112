"""``insert_rows`` (league/bulkinsert.py) writes plain values as ``bulk_create``
would: dates, floats and keys read back the same, by one INSERT run and by
PostgreSQL's COPY (forced from the first row here)."""

from __future__ import annotations

import datetime

import pytest

from league import bulkinsert
from league.ratings.models import RatingWeek
from tests.support.factories import CoachFactory

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("copy_from", [bulkinsert.COPY_FROM, 1])
def test_rows_read_back_as_written(monkeypatch, copy_from):
    monkeypatch.setattr(bulkinsert, "COPY_FROM", copy_from)
    coaches = [CoachFactory().pk for _ in range(3)]
    monday = datetime.date(2026, 11, 30)
    rows = [(coach, "guildball", monday - datetime.timedelta(weeks=n), 1500.0 + n / 3, 350.0 - n, 0.06, n)
            for coach in coaches for n in range(4)]
    assert bulkinsert.insert_rows(RatingWeek, ("coach_id", "game_system", "week", "rating", "rd", "volatility",
                                               "games"), rows) == 12
    stored = sorted(RatingWeek.objects.values_list("coach_id", "game_system", "week", "rating", "rd", "volatility",
                                                   "games"))
    assert stored == sorted(rows)
    assert bulkinsert.insert_rows(RatingWeek, ("coach_id",), []) == 0
