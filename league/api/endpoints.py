"""The engine's read endpoints: leagues, seasons, divisions, standings, rounds,
fixtures, results and coaches. Lists are bounded pages (``limit`` at most 100);
answers about a league are kept per version of its seasons (league/api/answers.py).
No ``from __future__ import annotations``: django-ninja reads the parameters' types."""


import datetime

from django.db.models import Count, Q
from django.http import Http404, HttpRequest
from ninja import Query, Router, Schema

from league import selectors
from league.api.answers import Id, RoundNumber, Page, PageQuery, league_for, league_get, page_of, season_for
from league.api.schemas import (
    CoachDetail, CoachOut, DivisionOut, FixtureOut, LeagueDetail, LeagueOut, RoundOut, SeasonBrief, SeasonOut,
    Standings,
)
from league.models import Coach, Entry, Fixture, League, Result, Round, Season
from league.standings.season import standings_for
from league.web import feeds

router = Router(tags=["leagues"])


def _league_out(league: League) -> dict:
    current = getattr(league, "current", None)
    return {
        "slug": league.slug,
        "name": league.name,
        "game": league.game_system,
        "description": league.description,
        "current_season": None if current is None else SeasonBrief(
            name=current.name, start_date=current.start_date, coaches=current.coach_count,
        ),
    }


class LeagueSearch(PageQuery):
    q: str = ""


@router.get("/leagues/", response=Page[LeagueOut], summary="Leagues, searchable by name")
def leagues(request: HttpRequest, params: Query[LeagueSearch]):
    """Every league by name; ``q`` searches names and slugs (as the league list does).
    Three queries a page whatever the number of leagues."""
    found = selectors.league_search(params.q.strip()[:100])
    return page_of(found, params, _league_out, prepare=selectors.attach_current_seasons)


class SeasonQuery(Schema):
    season: str = ""


@league_get(router, "/leagues/{slug}/", LeagueDetail, summary="A league")
def league(request: HttpRequest, slug: str):
    league = league_for(slug)
    selectors.attach_current_seasons([league])
    seasons = Season.objects.filter(league=league).order_by("-start_date", "-id").values_list("name", flat=True)
    return {**_league_out(league), "seasons": list(seasons)}


@league_get(router, "/leagues/{slug}/seasons/", list[SeasonOut], summary="A league's seasons, newest first")
def seasons(request: HttpRequest, slug: str):
    league = league_for(slug)
    found = Season.objects.filter(league=league).annotate(coaches=Count("entries")).order_by("-start_date", "-id")
    return [
        {"name": s.name, "start_date": s.start_date, "cadence_days": s.cadence_days,
         "double_round_robin": s.double_round_robin, "coaches": s.coaches}
        for s in found
    ]


@league_get(router, "/leagues/{slug}/divisions/", list[DivisionOut], summary="A season's divisions")
def divisions(request: HttpRequest, slug: str, params: Query[SeasonQuery]):
    """The divisions of ``season`` (the current one without it), each with its coaches' ids."""
    _, season = season_for(slug, params.season)
    found: dict[str, list[int]] = {}
    for name, coach_id in Entry.objects.filter(season=season, division__isnull=False).order_by(
            "division__name", "coach_id").values_list("division__name", "coach_id"):
        found.setdefault(name, []).append(coach_id)
    names = season.divisions.order_by("name").values_list("name", flat=True)
    return [{"name": name, "coaches": found.get(name, [])} for name in names]


@league_get(router, "/leagues/{slug}/standings/", Standings, summary="A season's table")
def standings(request: HttpRequest, slug: str, params: Query[SeasonQuery]):
    """The same figures as the league's standings.json, from the same selector."""
    league, season = season_for(slug, params.season)
    return {
        "league": league.slug,
        "season": season.name,
        "standings": feeds.standings_rows(standings_for(season), league.rules),
    }


@league_get(router, "/leagues/{slug}/rounds/", list[RoundOut], summary="A season's rounds")
def rounds(request: HttpRequest, slug: str, params: Query[SeasonQuery]):
    _, season = season_for(slug, params.season)
    return [{"number": n, "date": d, "label": label} for n, d, label in selectors.round_numbers(season)]


def _side(entry) -> dict | None:
    if entry is None:
        return None
    return {"coach_id": entry.coach_id, "coach": entry.coach.name, "team": entry.team}


def _result(result: Result | None) -> dict | None:
    if result is None:
        return None
    return {
        "home_score": result.home_score, "away_score": result.away_score, "outcome": result.outcome,
        "status": result.status, "conceded": result.conceded, "summary": result.summary,
    }


def _fixture(fixture: Fixture) -> dict:
    return {
        "id": fixture.pk,
        "season": fixture.round.season.name,
        "round": fixture.round.number,
        "date": fixture.date,
        "stage": fixture.stage,
        "label": fixture.label or str(fixture.round),
        "home": _side(fixture.home),
        "away": _side(fixture.away) if fixture.away_id else None,
        "cancelled": fixture.is_cancelled,
        "result": _result(fixture.result_or_none),
    }


class FixtureQuery(PageQuery):
    season: str = ""
    round: RoundNumber | None = None
    coach: Id | None = None
    date_from: datetime.date | None = None
    date_to: datetime.date | None = None


def _fixtures(slug: str, params: FixtureQuery, *, played: bool):
    _, season = season_for(slug, params.season)
    found = Fixture.objects.filter(round__season=season)
    if played:
        found = found.played()
    if params.round is not None:
        found = found.filter(round__number=params.round)
    if params.coach is not None:
        found = found.filter(Q(home__coach_id=params.coach) | Q(away__coach_id=params.coach))
    if params.date_from is not None:
        found = found.filter(date__gte=params.date_from)
    if params.date_to is not None:
        found = found.filter(date__lte=params.date_to)
    found = found.with_related().select_related("round__season").order_by("round__number", "date", "id")
    return page_of(found, params, _fixture)


@league_get(router, "/leagues/{slug}/fixtures/", Page[FixtureOut], summary="A season's fixtures")
def fixtures(request: HttpRequest, slug: str, params: Query[FixtureQuery]):
    """Every fixture of ``season``, with its result as it stands; by ``round``, by
    ``coach`` (their id) and by date (``date_from``, ``date_to``, both included)."""
    return _fixtures(slug, params, played=False)


@league_get(router, "/leagues/{slug}/results/", Page[FixtureOut], summary="A season's approved results")
def results(request: HttpRequest, slug: str, params: Query[FixtureQuery]):
    """The fixtures of ``season`` with an approved result, filtered as ``fixtures``."""
    return _fixtures(slug, params, played=True)


class CoachQuery(PageQuery):
    season: str = ""


@league_get(router, "/leagues/{slug}/coaches/", Page[CoachOut], summary="A season's coaches")
def coaches(request: HttpRequest, slug: str, params: Query[CoachQuery]):
    _, season = season_for(slug, params.season)
    entries = Entry.objects.filter(season=season).select_related("coach", "division").order_by("coach__name", "id")
    return page_of(entries, params, lambda e: {
        "id": e.coach_id, "name": e.coach.name, "team": e.team,
        "division": e.division.name if e.division_id else None, "withdrawn": e.withdrawn_at is not None,
    })


@league_get(router, "/leagues/{slug}/coaches/{coach_id}/", CoachDetail, summary="A coach in a league")
def coach(request: HttpRequest, slug: str, coach_id: Id):
    """A coach's seasons in the league, newest first; 404 for one who never played in it."""
    league = league_for(slug)
    entries = list(Entry.objects.filter(season__league=league, coach_id=coach_id).select_related(
        "coach", "season", "division").order_by("-season__start_date", "-season_id"))
    if not entries:
        raise Http404("No such coach in this league.")
    return {
        "id": coach_id, "name": entries[0].coach.name,
        "seasons": [{"season": e.season.name, "team": e.team, "division": e.division.name if e.division_id else None,
                     "withdrawn": e.withdrawn_at is not None} for e in entries],
    }


@league_get(router, "/leagues/{slug}/coaches/{coach_id}/results/", Page[FixtureOut], summary="A coach's results")
def coach_results(request: HttpRequest, slug: str, coach_id: Id, params: Query[PageQuery]):
    """Every approved result of the coach in the league, every season, newest first."""
    league = league_for(slug)
    found = Fixture.objects.filter(round__season__league=league).played().filter(
        Q(home__coach_id=coach_id) | Q(away__coach_id=coach_id)
    ).with_related().select_related("round__season").order_by("-date", "-id")
    return page_of(found, params, _fixture)
