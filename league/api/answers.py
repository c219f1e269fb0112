"""How an API endpoint is written: a function returning plain values, declared with
``league_get`` (kept per version of its league's seasons, with an ETag and 304, as
standings.json is) or ``listing`` (a bounded page of a queryset).

The engine and the games add their endpoints to routers of this package the same
way (a game or layer declares its router: league/games.py), so every answer has the
same shape and the same cache.
"""

from __future__ import annotations

import datetime
import functools
import inspect
from collections.abc import Callable
from typing import Annotated, Any, Generic, TypeVar

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from ninja import Router, Schema
from pydantic import Field, TypeAdapter

from league import selectors
from league.caching import pages
from league.models import League, Season

# The largest id a path or a filter takes: beyond it SQLite overflows (a 500), so it
# is refused as input instead (as the site's <id:...> converter does).
MAX_ID = 2**63 - 1
MAX_LIMIT = 100
DEFAULT_LIMIT = 25

Id = Annotated[int, Field(ge=1, le=MAX_ID)]
Limit = Annotated[int, Field(ge=1, le=MAX_LIMIT, description=f"At most {MAX_LIMIT} a page.")]
Offset = Annotated[int, Field(ge=0, le=10**9)]
RoundNumber = Annotated[int, Field(ge=1, le=10**4)]

T = TypeVar("T")


class Page(Schema, Generic[T]):
    """A page of a list: ``count`` items in all, ``items`` from ``offset``."""

    count: int
    limit: int
    offset: int
    items: list[T]


class PageQuery(Schema):
    limit: Limit = DEFAULT_LIMIT
    offset: Offset = 0


def page_of(queryset, page: PageQuery, row: Callable[[Any], Any], *, prepare: Callable[[list], None] | None = None):
    """A ``Page`` of ``queryset``: one count and one query for the rows, whatever
    the size of the list; ``prepare(rows)`` loads what every row needs at once."""
    rows = list(queryset[page.offset:page.offset + page.limit])
    if prepare is not None:
        prepare(rows)
    return {"count": queryset.count(), "limit": page.limit, "offset": page.offset, "items": [row(r) for r in rows]}


def _clean(value: Any) -> str:
    """A validated parameter as it keys a kept answer (``limit=010`` is ``limit=10``)."""
    if value is None:
        return ""
    if isinstance(value, (datetime.date, datetime.datetime)):
        return value.isoformat()
    return str(value)


def _parameters(values: dict[str, Any]) -> dict[str, str]:
    flat: dict[str, str] = {}
    for name, value in values.items():
        if isinstance(value, Schema):
            flat.update(_parameters(value.model_dump()))
        else:
            flat[name] = _clean(value)
    return flat


def league_get(router: Router, path: str, response: Any, *, kept: bool = True, **options):
    """``GET path`` on ``router`` for an answer about league ``slug`` (the view's
    first parameter after the request): the function returns plain values, checked
    against ``response``; the JSON is kept per version of the league's seasons and
    of the validated parameters and answered with an ETag, 304 to a client that has
    it (league/caching/pages.py, as standings.json).

    ``kept=False`` for an answer that reads rows no season's version tracks (a Dungeon
    Bowl roster, a Treasury): it is built for every request, so it is never stale."""
    adapter = TypeAdapter(response)

    def decorate(view):
        signature = inspect.signature(view)

        @functools.wraps(view)
        def endpoint(request: HttpRequest, slug: str, **params):
            # The parameters as django-ninja validated them key the kept answer, whatever
            # the raw query said (``?limit=010&ref=x`` is ``limit=10``).
            validated = {name: (lambda raw, value=value: value) for name, value in _parameters(params).items()}

            @pages.public_page(query=validated, everyone=True)
            def answer(request: HttpRequest, slug: str) -> HttpResponse:
                checked = adapter.validate_python(view(request, slug, **params))
                return HttpResponse(adapter.dump_json(checked, by_alias=True), content_type="application/json")

            return answer(request, slug) if kept else answer.__wrapped__(request, slug)

        endpoint.__signature__ = signature
        router.get(path, response={200: response, 404: Message}, **options)(endpoint)
        return view

    return decorate


class Message(Schema):
    detail: str


def league_for(slug: str) -> League:
    return get_object_or_404(League, slug=slug)


def season_for(slug: str, name: str | None) -> tuple[League, Season]:
    """League ``slug`` and its season ``name`` (its current one without a name).
    404 for an unknown league, season, or a league with no season yet."""
    league = league_for(slug)
    season = selectors.season_for(league, name or None)
    if season is None:
        raise Http404(f"{league} has no season yet.")
    return league, season


def _validated(params: dict[str, Any]) -> dict[str, Callable[[str], str]]:
    # The parameters as django-ninja validated them key the kept answer, whatever
    # the raw query said (``?limit=010&ref=x`` is ``limit=10``).
    return {name: (lambda raw, value=value: value) for name, value in _parameters(params).items()}


def game_get(router: Router, path: str, response: Any, *, version: Callable[[str], Any] | None = None, **options):
    """``GET path`` on ``router`` for an answer about game ``game`` across the site
    (the view's first parameter after the request), kept as the game's pages are
    (league/caching/pages.py ``game_page``): per the versions of every season of the
    game's leagues, or per ``version(game)`` (the ratings'), with an ETag and 304."""
    adapter = TypeAdapter(response)

    def decorate(view):
        signature = inspect.signature(view)

        @functools.wraps(view)
        def endpoint(request: HttpRequest, game: str, **params):
            @pages.game_page(version, query=_validated(params), everyone=True)
            def answer(request: HttpRequest, game: str) -> HttpResponse:
                checked = adapter.validate_python(view(request, game, **params))
                return HttpResponse(adapter.dump_json(checked, by_alias=True), content_type="application/json")

            return answer(request, game)

        endpoint.__signature__ = signature
        router.get(path, response={200: response, 404: Message}, **options)(endpoint)
        return view

    return decorate


def coach_get(router: Router, path: str, response: Any, **options):
    """``GET path`` on ``router`` for an answer about one coach across every league
    (``coach_id``, the view's first parameter after the request), kept as the
    profile page is (``pages.coaches_page``: per the versions of every season the
    coach plays in, their name and their ratings), with an ETag and 304."""
    adapter = TypeAdapter(response)

    def decorate(view):
        signature = inspect.signature(view)

        @functools.wraps(view)
        def endpoint(request: HttpRequest, coach_id: int):
            @pages.coaches_page(lambda coach_id: [coach_id])
            def answer(request: HttpRequest, coach_id: int) -> HttpResponse:
                checked = adapter.validate_python(view(request, coach_id))
                return HttpResponse(adapter.dump_json(checked, by_alias=True), content_type="application/json")

            return answer(request, coach_id=coach_id)

        endpoint.__signature__ = signature
        router.get(path, response={200: response, 404: Message}, **options)(endpoint)
        return view

    return decorate
