"""Leaderboards and records pages: a league's (all its seasons, or one) and a
game's across the site, each leaderboard with its CSV and JSON. Every page is
shared by anonymous visitors per version of the seasons it reads
(league/caching/pages.py) and costs the same number of queries whatever the
number of coaches: each board one statement, sorted and sliced in the database."""

from __future__ import annotations

import io
import json

from django.core.paginator import Paginator
from django.core.serializers.json import DjangoJSONEncoder
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from league.caching import pages
from league.models import League, Season
from league.records import boards as registry
from league.records import halloffame
from league.records.boards import Board, Scope
from league.rules import GAMES
from league.text import csvsafe
from league.records.tables import LeaderboardTable

ROWS_PER_PAGE = 50  # a board's rows a page shows (bounded by what a person reads)


def _all_boards() -> list[Board]:
    return [board for game in GAMES for board in registry.boards_for(game)]


def _known_board(key: str) -> str:
    """``key`` if some game has a board called so, else "" (the first board)."""
    return key if any(board.key == key for board in _all_boards()) else ""


def _known_sort(sort: str) -> str:
    """``sort`` if some board sorts by it, else "" (the board's own order): a
    made-up value never stores a page of its own."""
    return sort if any(board.sortable(sort) for board in _all_boards()) else ""


def _page_number(value: str) -> str:
    return value if value.isascii() and value.isdigit() and len(value) <= 4 else ""


BOARD_QUERY = {"board": _known_board, "sort": _known_sort, "page": _page_number}


def _game(game: str) -> str:
    if game not in GAMES:
        raise Http404(f"No game called {game!r}.")
    return game


def _league_scope(request: HttpRequest, slug: str) -> tuple[League, Season | None, Scope]:
    """The league, the season asked for (``?season=``, None for all its seasons)
    and what the page reads."""
    league = get_object_or_404(League, slug=slug)
    name = request.GET.get("season", "")
    season = None
    if name:
        season = Season.objects.filter(league=league, name=name).first()
        if season is None:
            raise Http404(f"{league} has no season called {name!r}.")
    return league, season, Scope(league.game_system, league.pk, season.pk if season else None)


def _board_page(request: HttpRequest, scope: Scope) -> dict:
    """The board asked for (``?board=``), one page of its rows in the order asked
    for (``?sort=``) and the table showing them: three queries (the count, the
    rows, where each coach's league page is)."""
    board = registry.board_for(scope.game, request.GET.get("board", ""))
    if board is None:
        return {"boards": []}
    sort = board.sortable(request.GET.get("sort", "")) or board.order
    page = Paginator(board.sorted_rows(scope, sort), ROWS_PER_PAGE).get_page(request.GET.get("page"))
    offset = (page.number - 1) * ROWS_PER_PAGE
    lines = [{"rank": offset + i, **board.line(row)} for i, row in enumerate(page.object_list, start=1)]
    places = halloffame.coach_places(scope, [line["coach_id"] for line in lines]) if lines else {}
    table = LeaderboardTable(lines, board=board, places=places, sort=sort)
    return {"boards": registry.boards_for(scope.game), "board": board, "page": page, "table": table, "sort": sort}


def _feed_boards(scope: Scope, key: str | None = None) -> list[dict]:
    """Every board of ``scope`` (or board ``key``) whole, as the JSON and CSV give
    them: one query each."""
    found = registry.boards_for(scope.game)
    if key is not None:
        found = [board for board in found if board.key == key]
    return [
        {
            "key": board.key, "title": board.title, "named": board.named,
            "columns": [{"key": column.key, "label": column.label} for column in board.columns],
            "rows": [board.line(row) for row in board.sorted_rows(scope)],
        }
        for board in found
    ]


def _json(body: dict) -> HttpResponse:
    return HttpResponse(json.dumps(body, cls=DjangoJSONEncoder), content_type="application/json")


def _csv(scope: Scope, key: str, filename: str) -> HttpResponse:
    """One board as CSV: the coach, the row's name on a player's or team's board,
    then its columns. Every cell passes league/text/csvsafe.py."""
    board = registry.board_for(scope.game, key)
    if board is None:
        return HttpResponse("This game has no leaderboard.", status=404, content_type="text/plain")
    out = io.StringIO()
    fields = ["coach_id", "coach", *(["name"] if board.name_field else []), *board.keys]
    writer = csvsafe.writer(out, fieldnames=fields)
    writer.writeheader()
    writer.writerows(board.line(row) for row in board.sorted_rows(scope))
    response = HttpResponse(out.getvalue(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}-{board.key}.csv"'
    return response


# A league's ------------------------------------------------------------------------


@pages.public_page(query={"season": str, **BOARD_QUERY})
def league_leaderboards(request: HttpRequest, slug: str) -> HttpResponse:
    """A league's leaderboards over all its seasons, or one (``?season=``)."""
    league, season, scope = _league_scope(request, slug)
    context = {"league": league, "season": season, "seasons": league.seasons.order_by("-start_date", "-id"),
               "is_organiser": league.is_organised_by(request.user), **_board_page(request, scope)}
    return render(request, "league/leaderboards.html", context)


@pages.public_page(everyone=True)
def league_leaderboards_json(request: HttpRequest, slug: str) -> HttpResponse:
    league, season, scope = _league_scope(request, slug)
    return _json({"game": league.game_system, "league": league.slug, "season": season.name if season else None,
                  "boards": _feed_boards(scope)})


@pages.public_page(query={"season": str, "board": _known_board}, everyone=True)
def league_leaderboards_csv(request: HttpRequest, slug: str) -> HttpResponse:
    league, season, scope = _league_scope(request, slug)
    return _csv(scope, request.GET.get("board", ""), league.slug)


@pages.public_page(query={})
def league_records(request: HttpRequest, slug: str) -> HttpResponse:
    """A league's hall of fame and records over all its seasons."""
    league = get_object_or_404(League, slug=slug)
    scope = Scope(league.game_system, league.pk)
    return render(request, "league/records.html", {
        "league": league, "season": None, "is_organiser": league.is_organised_by(request.user),
        "records": halloffame.records(scope), "game_name": league.rules.name,
    })


# A game's, across the site -------------------------------------------------------------


@pages.game_page(query=BOARD_QUERY)
def game_leaderboards(request: HttpRequest, game: str) -> HttpResponse:
    """A game's leaderboards across every league of the site."""
    scope = Scope(_game(game))
    context = {"game": game, "game_name": GAMES[game].name, "games": _games(), **_board_page(request, scope)}
    return render(request, "league/game_leaderboards.html", context)


@pages.game_page(everyone=True)
def game_leaderboards_json(request: HttpRequest, game: str) -> HttpResponse:
    return _json({"game": _game(game), "league": None, "season": None, "boards": _feed_boards(Scope(game))})


@pages.game_page(query={"board": _known_board}, everyone=True)
def game_leaderboards_csv(request: HttpRequest, game: str) -> HttpResponse:
    return _csv(Scope(_game(game)), request.GET.get("board", ""), game)


@pages.game_page()
def game_records(request: HttpRequest, game: str) -> HttpResponse:
    """A game's hall of fame and records across every league of the site."""
    scope = Scope(_game(game))
    return render(request, "league/records.html", {
        "game": game, "game_name": GAMES[game].name, "games": _games(), "records": halloffame.records(scope),
    })


def _games() -> list[tuple[str, str]]:
    return [(system, rules.name) for system, rules in GAMES.items()]
