"""Dungeon Bowl's read endpoints (/api/v1/leagues/<slug>/dungeonbowl/...): teams,
a team's roster (the team feed's figures), its Treasury lines and a season's
play-offs. Mounted on the API by the game's declaration (league/dungeonbowl/game.py).
No ``from __future__ import annotations``: django-ninja reads the parameters' types."""

import datetime

from django.http import Http404
from django.shortcuts import get_object_or_404
from ninja import Query, Router, Schema

from league.api.answers import Page, PageQuery, league_for, league_get, page_of, season_for
from league.dungeonbowl.playoffs import services as playoffs
from league.dungeonbowl.teams import selectors
from league.dungeonbowl.models import Team, TreasuryLine
from league.dungeonbowl.models.teams import GAME_SYSTEM

router = Router(tags=["Dungeon Bowl"])


def _league(slug: str):
    league = league_for(slug)
    if league.game_system != GAME_SYSTEM:
        raise Http404(f"{league} is not a Dungeon Bowl league.")
    return league


class TeamOut(Schema):
    slug: str
    name: str
    coach_id: int
    coach: str
    college: str
    accepted: bool


class PlayerOut(Schema):
    name: str
    number: int
    position: str
    value: int
    ma: int
    st: int
    ag: int
    pa: int | None
    av: int
    skills: list[str]
    spp: int
    mvp_awards: int
    niggling_injuries: int
    miss_next_game: bool


class Honour(Schema):
    season: str
    placing: str


class Roster(Schema):
    """The same figures as the team's team.json: gold in gp; AG, PA and AV as the
    roster's target number, PA null for "-"."""

    league: str
    team: str
    coach: str
    college: str
    division: str | None
    treasury: int
    team_value: int
    current_team_value: int
    rerolls: int
    trophy: bool
    honours: list[Honour]
    players: list[PlayerOut]


class TreasuryLineOut(Schema):
    amount: int
    kind: str
    reason: str
    at: datetime.datetime


class PlayoffGameOut(Schema):
    slot: int
    stage: str
    fixture_id: int
    home: str
    away: str
    home_score: int | None
    away_score: int | None
    status: str | None
    winner: str | None


class SeasonQuery(Schema):
    season: str = ""


@league_get(router, "/leagues/{slug}/dungeonbowl/teams/", Page[TeamOut], kept=False, summary="Dungeon Bowl teams",
            url_name="dungeonbowl_teams")
def teams(request, slug: str, params: Query[PageQuery]):
    league = _league(slug)
    found = Team.objects.filter(league=league).select_related("coach", "college").order_by("name", "pk")
    return page_of(found, params, lambda t: {
        "slug": t.slug, "name": t.name, "coach_id": t.coach_id, "coach": t.coach.name, "college": t.college.name,
        "accepted": t.accepted_at is not None,
    })


@league_get(router, "/leagues/{slug}/dungeonbowl/teams/{team_slug}/", Roster, kept=False,
            summary="A Dungeon Bowl team's roster", url_name="dungeonbowl_roster")
def roster(request, slug: str, team_slug: str):
    return selectors.team_json(selectors.team_sheet(_league(slug), team_slug))


@league_get(router, "/leagues/{slug}/dungeonbowl/teams/{team_slug}/treasury/", Page[TreasuryLineOut], kept=False,
            summary="A Dungeon Bowl team's Treasury lines, newest first", url_name="dungeonbowl_treasury")
def treasury(request, slug: str, team_slug: str, params: Query[PageQuery]):
    team = get_object_or_404(Team, league=_league(slug), slug=team_slug)
    lines = TreasuryLine.objects.filter(team=team).order_by("-created_at", "-id")
    return page_of(lines, params, lambda line: {
        "amount": line.amount, "kind": line.kind, "reason": line.reason, "at": line.created_at,
    })


@league_get(router, "/leagues/{slug}/dungeonbowl/playoffs/", list[PlayoffGameOut], summary="A season's play-offs",
            url_name="dungeonbowl_playoffs")
def playoff_games(request, slug: str, params: Query[SeasonQuery]):
    """The season's play-off games in bracket order, each with its result (empty
    before the play-offs start)."""
    _league(slug)
    _, season = season_for(slug, params.season)
    return [
        {"slot": g.slot, "stage": g.stage, "fixture_id": g.fixture.pk, "home": g.home, "away": g.away,
         "home_score": g.result.home_score if g.result else None,
         "away_score": g.result.away_score if g.result else None,
         "status": g.result.status if g.result else None, "winner": g.winner}
        for g in playoffs.bracket(season)
    ]
