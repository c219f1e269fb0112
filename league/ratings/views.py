"""The ranking pages of each game (RULES.md section 4): ``/ratings/<game>/`` and
its feed ``/ratings/<game>.json``, shared per version of the game's ratings
(league/caching/pages.py ``game_page``)."""

from __future__ import annotations

import json
import math

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_safe
from django_tables2 import RequestConfig

from league.caching import pages
from league.ratings import selectors
from league.ratings.models import Rating
from league.ratings.tables import RatingTable
from league.rules import GAMES

PER_PAGE = 50  # rows of the ranking page
FEED_PER_PAGE = 500  # coaches per page of the feed
SORTS = frozenset(
    order for column in ("place", "coach", "rating", "rd", "games", "volatility") for order in (column, f"-{column}")
)


def _page(value: str) -> str:
    return value if value.isascii() and value.isdigit() and 0 < len(value) <= 6 and int(value) > 0 else ""


def _sort(value: str) -> str:
    return value if value in SORTS else ""


def _game(game: str) -> str:
    if game not in GAMES:
        raise Http404("No such game.")
    return selectors.game_name(game)


@require_safe
@pages.game_page(selectors.version, query={"sort": _sort, "page": _page})
def ranking(request: HttpRequest, game: str) -> HttpResponse:
    """RT-1/RT-4: every rated coach of ``game``, sortable and paginated, the
    provisional ratings marked, and a line while a recomputation waits (five
    queries whatever the coaches)."""
    name = _game(game)
    table = RatingTable(selectors.ranking(game))
    RequestConfig(request, paginate={"per_page": PER_PAGE}).configure(table)
    games = [(system, label, reverse("ratings:ranking", args=[system])) for system, label in selectors.rated_games()]
    return render(request, "ratings/ranking.html", {
        "game": game, "name": name, "table": table, "games": games,
        "feed": reverse("ratings:feed", args=[game]), "waiting": game in selectors.waiting(),
    })


@require_safe
@pages.game_page(selectors.version, query={"page": _page}, everyone=True)
def feed(request: HttpRequest, game: str) -> HttpResponse:
    """The ranking as JSON: {"game", "ratings": [...]} with every rated coach, the
    floats unrounded. Over ``FEED_PER_PAGE`` coaches it is paginated with
    ``?page=``: then "page", "pages" and "next" (the next page's address, null on
    the last) are added beside the two keys (two queries)."""
    _game(game)
    total = Rating.objects.filter(game_system=game).count()
    pages_count = max(1, math.ceil(total / FEED_PER_PAGE))
    number = int(request.GET.get("page") or 1)
    if number > pages_count:
        raise Http404("No such page.")
    body = {"game": game, "ratings": selectors.feed_rows(game, offset=(number - 1) * FEED_PER_PAGE,
                                                          limit=FEED_PER_PAGE)}
    if pages_count > 1:
        path = reverse("ratings:feed", args=[game])
        body |= {"page": number, "pages": pages_count,
                 "next": f"{path}?page={number + 1}" if number < pages_count else None}
    return HttpResponse(json.dumps(body), content_type="application/json")
