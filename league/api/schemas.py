"""What the API answers, as pydantic schemas (the OpenAPI schema is built from them)."""

from __future__ import annotations

import datetime

from ninja import Schema


class SeasonBrief(Schema):
    name: str
    start_date: datetime.date
    coaches: int


class LeagueOut(Schema):
    slug: str
    name: str
    game: str
    description: str
    current_season: SeasonBrief | None
