"""The engine's read endpoints across leagues: a game's ratings, a coach's profile,
the leaderboards and the records. Each gives the figures of the site's own page or
JSON (the same selectors) and is kept as that page is: a game's answers per the
versions of the game (the ratings' own for the ranking), a league's per its
seasons, a coach's per every season they play in (league/api/answers.py).
No ``from __future__ import annotations``: django-ninja reads the parameters' types."""

from django.http import Http404, HttpRequest
from django.shortcuts import get_object_or_404
from ninja import Query, Router, Schema

from league.api.answers import Id, Page, PageQuery, coach_get, game_get, league_for, league_get
from league.api.schemas import Boards, CoachProfile, Records
from league.models import Coach, Season
from league.profiles import selectors as profiles
from league.records.titles import titles_won
from league.ratings import selectors as ratings
from league.ratings.models import Rating
from league.records import boards as registry
from league.records import halloffame
from league.records.boards import Scope
from league.rules import GAMES
from league.web import converters  # noqa: F401  registers <id:...>: {id:coach_id} below is a bounded id

router = Router(tags=["Ratings, profiles and records"])


def _game(game: str) -> str:
    if game not in GAMES:
        raise Http404(f"No game called {game!r}.")
    return game


class RatingRow(Schema):
    coach_id: int
    coach: str
    rating: float
    rd: float
    volatility: float
    games: int
    provisional: bool


@game_get(router, "/ratings/{game}/", Page[RatingRow], version=ratings.version, summary="A game's ranking")
def ranking(request: HttpRequest, game: str, params: Query[PageQuery]):
    """Every rated coach of ``game``, best first: the rows of /ratings/<game>.json
    (RT-1), a page at a time (two queries)."""
    _game(game)
    return {"count": Rating.objects.filter(game_system=game).count(), "limit": params.limit,
            "offset": params.offset, "items": ratings.feed_rows(game, offset=params.offset, limit=params.limit)}


@coach_get(router, "/coaches/{id:coach_id}/profile/", CoachProfile, summary="A coach's profile")
def profile(request: HttpRequest, coach_id: Id):
    """What the coach's profile page shows: every league, season and team, the record
    per game, the titles won and the rating in each game. Never the email."""
    coach = get_object_or_404(Coach.objects.only("pk", "name"), pk=coach_id)
    return {
        "id": coach.pk, "name": coach.name,
        "seasons": [{"league": e.season.league.slug, "league_name": e.season.league.name,
                     "game": e.season.league.game_system, "season": e.season.name, "team": e.team,
                     "division": e.division.name if e.division_id else None, "withdrawn": e.withdrawn_at is not None}
                    for e in profiles.entries(coach)],
        "totals": [{"game": t.game, "played": t.played, "won": t.won, "drawn": t.drawn, "lost": t.lost,
                    "scored": t.scored, "conceded": t.conceded, "unit": t.unit}
                   for t in profiles.totals_per_game(coach)],
        "titles": [{"title": t.title, "league": t.league_slug, "league_name": t.league, "season": t.season,
                    "game": t.game, "detail": t.detail} for t in titles_won(coach.pk)],
        "ratings": [{"game": r.game_system, "rating": r.rating, "rd": r.rd, "volatility": r.volatility,
                     "games": r.games, "provisional": r.provisional} for r in ratings.ratings_for(coach)],
    }


class BoardQuery(Schema):
    board: str = ""


class LeagueBoardQuery(BoardQuery):
    season: str = ""


def _boards(scope: Scope, key: str) -> list[dict]:
    """Every board of ``scope`` whole, or board ``key`` (404 for a board the game
    has not): the rows of the leaderboards' JSON, one query a board."""
    found = registry.boards_for(scope.game)
    if key:
        found = [board for board in found if board.key == key]
        if not found:
            raise Http404(f"No leaderboard called {key!r}.")
    return [
        {"key": board.key, "title": board.title, "named": board.named,
         "columns": [{"key": column.key, "label": column.label} for column in board.columns],
         "rows": [board.line(row) for row in board.sorted_rows(scope)]}
        for board in found
    ]


@league_get(router, "/leagues/{slug}/leaderboards/", Boards, summary="A league's leaderboards")
def league_leaderboards(request: HttpRequest, slug: str, params: Query[LeagueBoardQuery]):
    """The league's boards over all its seasons, or ``season``'s; ``board`` for one
    board: the figures of the league's leaderboards.json."""
    league = league_for(slug)
    season = None
    if params.season:
        season = Season.objects.filter(league=league, name=params.season).first()
        if season is None:
            raise Http404(f"{league} has no season called {params.season!r}.")
    scope = Scope(league.game_system, league.pk, season.pk if season else None)
    return {"game": league.game_system, "league": league.slug, "season": season.name if season else None,
            "boards": _boards(scope, params.board)}


@game_get(router, "/leaderboards/{game}/", Boards, summary="A game's leaderboards across every league")
def game_leaderboards(request: HttpRequest, game: str, params: Query[BoardQuery]):
    """The game's boards across every league; ``board`` for one board: the figures
    of /leaderboards/<game>.json."""
    return {"game": _game(game), "league": None, "season": None, "boards": _boards(Scope(game), params.board)}


def _line(line) -> dict:
    return {"coach_id": line.coach_id, "coach": line.coach, "figure": line.figure}


@league_get(router, "/leagues/{slug}/records/", Records, summary="A league's hall of fame and records")
def records(request: HttpRequest, slug: str):
    """What the league's records page shows: each finished season's champions and
    titles (latest first), the biggest wins, the longest winning runs, the most
    seasons and the most games played."""
    league = league_for(slug)
    found = halloffame.records(Scope(league.game_system, league.pk))
    return {
        "seasons": [{"season": shown.season.name, "league": shown.season.league.slug,
                     "honours": [{"title": h.title, "coach_id": h.coach_id, "coach": h.coach, "detail": h.detail}
                                 for h in shown.honours]} for shown in found.seasons],
        "wins": [{"fixture_id": win.result.fixture_id, "season": win.result.fixture.round.season.name,
                  "home_coach_id": win.result.fixture.home.coach_id, "home": win.result.fixture.home.coach.name,
                  "away_coach_id": win.result.fixture.away.coach_id, "away": win.result.fixture.away.coach.name,
                  "home_score": win.result.home_score, "away_score": win.result.away_score, "margin": win.margin}
                 for win in found.wins],
        "runs": [_line(line) for line in found.runs],
        "most_seasons": [_line(line) for line in found.most_seasons],
        "most_games": [_line(line) for line in found.most_games],
    }
