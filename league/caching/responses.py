"""A whole response kept by the versions of what it shows (league/caching/versions.py):
its cache key (``response_key`` for a league's pages, ``leagues_key`` for the league
list, ``game_key`` for a game's site-wide pages), the query parameters it may read
(``keep_only``), whether a visitor may share it (``anonymous``), and serving it
from the cache with an ETag (``serve``, ``shared``). The page decorators of
league/caching/pages.py are its one caller.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

from django.apps import apps
from django.conf import settings
from django.core.cache import cache
from django.http import HttpResponse, HttpResponseNotModified, QueryDict
from django.utils.cache import patch_vary_headers

from league.caching import versions


def keep_only(request, **values: str) -> None:
    """Replace ``request.GET`` by ``values``, the query parameters a shared page
    reads, each already validated by its view (empty ones left out). Anything else
    a visitor adds (``?ref=...``) is dropped before the page is built, so it can
    neither reach a cached page's links for every later visitor nor, with values a
    page does not know (``?sort=<random>``), store a new page per request: the
    cache key (``response_key``) holds only what the page shows."""
    query = QueryDict(mutable=True)
    for name, value in values.items():
        if value:
            query[name] = value
    query._mutable = False
    request.GET = query


def response_key(slug: str, seasons: list[tuple[int, str, Any]], request, variant: str = "",
                 params: tuple[str, ...] = ("season",)) -> str:
    """The cache key of a whole response for ``request``: its host, path and the
    query ``params`` the view reads (validated and alone in ``request.GET``, see
    ``keep_only``), the versions of all the league's seasons (so a new or
    renamed season, a league change and any write shown changes it) and
    ``variant`` (what else it depends on, such as the day)."""
    signature = ",".join(f"{pk}:{version}" for pk, _, version in seasons)
    query = "&".join(f"{name}={request.GET.get(name, '')}" for name in params)
    raw = f"{request.get_host()}|{request.path}|{query}|{variant}|{signature}"
    return f"response:{slug}:{hashlib.sha256(raw.encode()).hexdigest()}"


def anonymous(request) -> bool:
    """A visitor every other anonymous visitor can share a response with: no
    session (so not logged in) and no message waiting to be shown."""
    return settings.SESSION_COOKIE_NAME not in request.COOKIES and "messages" not in request.COOKIES


def shared(request, slug: str, build: Callable[[], Any], *, variant: str = "", params: tuple[str, ...] = ("season",),
           anonymous_only: bool = False):
    """The response to ``request`` built once per version of its league's seasons and
    shared by every visitor who would get the same bytes: one query (the versions)
    and one cache read when warm, with an ETag so a client that has it gets 304.

    ``anonymous_only``: the page shows who is looking (the menu, the organiser's
    links, messages), so only an ``anonymous`` visitor is served from here; anyone
    else gets ``build()``. Only 200 answers are stored."""
    if anonymous_only and not anonymous(request):
        return build()
    seasons = versions.league_versions(slug)
    if not seasons:  # unknown league or no season yet: nothing to key on, and cheap
        return build()
    return serve(request, response_key(slug, seasons, request, variant, params), build, vary_cookie=anonymous_only)


def serve(request, key: str, build: Callable[[], Any], *, vary_cookie: bool):
    """The response stored under ``key`` (built and stored when missing, 200s
    only), or 304 when the client already has it (its ETag is the key's hash).
    ``vary_cookie``: a shared HTTP cache must not hand it to someone logged in.
    What is stored is the body and every header it is served with, so a warm
    answer is one cache read and one response made from them."""
    etag = f'"{hashlib.sha256(key.encode()).hexdigest()[:32]}"'
    if request.META.get("HTTP_IF_NONE_MATCH") == etag:
        return _finish(HttpResponseNotModified(), etag, vary_cookie)
    key = f"{key}:finished"  # an entry stored before the headers were kept finished is never read
    stored = cache.get(key)
    if stored is None:
        response = build()
        if response.status_code != 200 or response.streaming:
            return response
        response = _finish(response, etag, vary_cookie)
        stored = (response.content, dict(response.items()))
        cache.set(key, stored)  # expires after settings.CACHES' TIMEOUT, as ``versions.cached``
        return response
    content, headers = stored
    return HttpResponse(content, headers=headers)


def _finish(response, etag: str, vary_cookie: bool):
    response["ETag"] = etag
    if vary_cookie:
        patch_vary_headers(response, ["Cookie"])
    return response


def leagues_key(request, leagues, *, extra: str = "") -> str:
    """The cache key of a page listing the ``leagues`` queryset (a page of the
    league list): what it shows of each league and the versions of their seasons
    (current season, its coaches). Two queries of plain values, each reading only
    the page's rows: no model is built unless the page has to be."""
    Season = apps.get_model("league", "Season")  # by its label, as versions.py: below the models

    shown = list(leagues.values_list("pk", "slug", "game_system", "name"))
    seasons = sorted(
        Season.objects.filter(league_id__in=[pk for pk, *_ in shown]).order_by().values_list("pk", "version")
    )
    raw = "|".join([
        request.get_host(), request.path, extra,
        ",".join(f"{pk}:{slug}:{game}:{name}" for pk, slug, game, name in shown),
        ",".join(f"{pk}:{version}" for pk, version in seasons),
    ])
    return f"response:list:{hashlib.sha256(raw.encode()).hexdigest()}"


def game_key(request, game: str, params: tuple[str, ...]) -> str | None:
    """The cache key of a site-wide page of ``game`` (its leaderboards, its
    records): its host, path and query ``params`` (validated, see ``keep_only``),
    and the versions of every season of the game's leagues with each league's
    name, so any write any of them shows, a new season or a league renamed
    changes it. One query; None when the game has no season anywhere (an unknown
    game too: nothing to key on)."""
    Season = apps.get_model("league", "Season")  # by its label, as versions.py: below the models

    seasons = Season.objects.filter(league__game_system=game).order_by("pk").values_list(
        "pk", "version", "league__slug", "league__name"
    )
    signature = ",".join(f"{pk}:{version}:{slug}:{name}" for pk, version, slug, name in seasons)
    if not signature:
        return None
    query = "&".join(f"{name}={request.GET.get(name, '')}" for name in params)
    raw = f"{request.get_host()}|{request.path}|{query}|{signature}"
    return f"response:game:{game}:{hashlib.sha256(raw.encode()).hexdigest()}"
