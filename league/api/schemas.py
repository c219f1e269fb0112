"""What the API answers, as pydantic schemas (the OpenAPI schema is built from them)."""

from __future__ import annotations

import datetime
from typing import Any

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


class LeagueDetail(LeagueOut):
    seasons: list[str]


class SeasonOut(Schema):
    name: str
    start_date: datetime.date
    cadence_days: int
    double_round_robin: bool
    coaches: int


class DivisionOut(Schema):
    name: str
    coaches: list[int]


class Standings(Schema):
    """The same figures as the league's standings.json."""

    league: str
    season: str
    standings: list[dict[str, Any]]


class RoundOut(Schema):
    number: int
    date: datetime.date
    label: str


class Side(Schema):
    coach_id: int
    coach: str
    team: str


class ResultOut(Schema):
    home_score: int | None
    away_score: int | None
    outcome: str
    status: str
    conceded: bool
    summary: str


class FixtureOut(Schema):
    id: int
    season: str
    round: int
    date: datetime.date
    stage: str
    label: str
    home: Side
    away: Side | None
    cancelled: bool
    result: ResultOut | None


class CoachOut(Schema):
    id: int
    name: str
    team: str
    division: str | None
    withdrawn: bool


class CoachSeason(Schema):
    season: str
    team: str
    division: str | None
    withdrawn: bool


class CoachDetail(Schema):
    id: int
    name: str
    seasons: list[CoachSeason]
