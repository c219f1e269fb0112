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


# Across leagues: a coach's profile, the leaderboards and the records -----------------


class ProfileSeason(Schema):
    league: str
    league_name: str
    game: str
    season: str
    team: str
    division: str | None
    withdrawn: bool


class GameTotals(Schema):
    game: str
    played: int
    won: int
    drawn: int
    lost: int
    scored: int
    conceded: int
    unit: str


class TitleWon(Schema):
    title: str
    league: str
    league_name: str
    season: str
    game: str
    detail: str


class GameRating(Schema):
    game: str
    rating: float
    rd: float
    volatility: float
    games: int
    provisional: bool


class CoachProfile(Schema):
    id: int
    name: str
    seasons: list[ProfileSeason]
    totals: list[GameTotals]
    titles: list[TitleWon]
    ratings: list[GameRating]


class BoardColumn(Schema):
    key: str
    label: str


class Board(Schema):
    key: str
    title: str
    named: str  # what a row is ("Coach", "Player", "Team")
    columns: list[BoardColumn]
    rows: list[dict[str, Any]]  # coach_id, coach, name (a player's or a team's board), then each column's key


class Boards(Schema):
    game: str
    league: str | None
    season: str | None
    boards: list[Board]


class Honour(Schema):
    title: str
    coach_id: int
    coach: str
    detail: str


class SeasonHonours(Schema):
    season: str
    league: str
    honours: list[Honour]


class BiggestWin(Schema):
    fixture_id: int
    season: str
    home_coach_id: int
    home: str
    away_coach_id: int
    away: str
    home_score: int
    away_score: int
    margin: int


class RecordLine(Schema):
    coach_id: int
    coach: str
    figure: int


class Records(Schema):
    seasons: list[SeasonHonours]
    wins: list[BiggestWin]
    runs: list[RecordLine]
    most_seasons: list[RecordLine]
    most_games: list[RecordLine]
