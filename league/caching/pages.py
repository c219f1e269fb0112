"""How a view says what it serves: the one way pages reach the cache.

A view is written as if nothing were kept; a decorator says how its page is kept:

- ``public_page``: a page every anonymous visitor shares, built once per version
  of its league's seasons (league/caching/versions.py), with an ETag. It names the
  query parameters the page reads, each with the function that validates it: the
  rest of the query is dropped before the page is built, so no visitor can store
  a page per made-up address.
- ``public_listing``: the league list, kept per what its page of leagues shows.
- ``game_page``: a page of one game across every league (its ratings), kept per
  the version its reader names (one query); a logged-in visitor's kept apart,
  their menu filled in per request.
- ``kept_page``: a logged-in page kept per version of what it shows, the viewer's
  own parts (menu, CSRF token, submission keys, a layer's live panel) filled in per
  request (league/caching/kept_pages.py). It names what the page reads (the
  versions of a league's seasons, of a fixture's season, or of every season a
  coach plays in or organises: one query each) and how the viewer changes the page.

Inside a page, ``fragment`` keeps a piece per version of a season. Nothing else
of the cache is a view's business.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.utils import timezone

from league.caching import kept_pages, responses, versions
from league.permissions import coach_for

# A piece of a page kept per version of a season: ``fragment(season, name, compute)``.
fragment = versions.cached
# The cache key of a piece kept per version of a season that sets its own timeout.
version_key = versions.cache_key
# A page built to be kept, of a view that keeps a part no longer than it is true.
keep_for = kept_pages.keep_for
# Replaces ``request.GET`` by the parameters a page reads, each validated.
only_query = responses.keep_only


def today(request: HttpRequest | None = None) -> str:
    """The day, as pages that change at midnight are keyed (this week's round, a
    match that became overdue)."""
    return f"{timezone.localdate():%Y-%m-%d}"


def csrf_token(request: HttpRequest) -> str:
    """The CSRF token a form rendered for ``request`` carries: the viewer's own, or
    the marker a kept page fills in with each viewer's."""
    return kept_pages.CSRF if kept_pages.rendering_kept(request) else get_token(request)


def public_page(*, query: Mapping[str, Callable[[str], str]] | None = None, unshared: tuple[str, ...] = (),
                variant: Callable[[HttpRequest], str] | None = None, everyone: bool = False):
    """A public page of league ``slug`` (the view's second argument), shared per
    version of the league's seasons.

    ``query``: the parameters the page reads, each with its validation (the rest
    are dropped before the page is built); without it, the page reads ``season``
    alone (a feed) and is keyed by it. ``unshared``: parameters that make a page
    nobody else asks for (any value is a new page), built without being shared;
    ``variant``: what else the page depends on (``today``, the site's address).
    ``everyone``: the page shows nothing of who asks (a feed), so a logged-in
    visitor gets the shared one too; otherwise they get the view as decorated
    below (``kept_page``, or built)."""
    params = ("season",) if query is None else tuple(name for name in query if name not in unshared)

    def decorate(view):
        @functools.wraps(view)
        def serve(request: HttpRequest, slug: str, *args, **kwargs) -> HttpResponse:
            if query is not None:
                only_query(request, **{name: clean(request.GET.get(name, "")) for name, clean in query.items()})
            build = functools.partial(view, request, slug, *args, **kwargs)
            if any(request.GET.get(name) for name in unshared):
                return build()
            return responses.shared(request, slug, build, variant=variant(request) if variant else "", params=params,
                                   anonymous_only=not everyone)

        return serve

    return decorate


def game_page(version: Callable[[str], Any] | None = None, *,
              query: Mapping[str, Callable[[str], str]] | None = None, everyone: bool = False):
    """A public page of one game across the site (``game``, the view's second
    argument), shared per version. By default the version is that of every season
    of the game's leagues and the leagues' names (``responses.game_key``: its
    leaderboards, its records); a page that reads something else gives its own
    ``version(game)`` (one query; None: nothing to key on, such as an unknown game,
    so the page is built): the ratings, per ``RatedGame.version``. ``query`` and
    ``everyone`` as for ``public_page``: the parameters the page reads, each
    validated (the rest dropped, so no visitor stores a page per made-up address),
    and whether a logged-in visitor gets the shared page too (a feed). Otherwise a
    logged-in visitor gets the same page kept apart (``kept_pages.serve``, the key
    plus ``:kept``), their menu filled in per request: these pages show nothing
    else of who asks."""
    params = tuple(query or ())

    def decorate(view):
        @functools.wraps(view)
        def serve(request: HttpRequest, game: str, *args, **kwargs) -> HttpResponse:
            only_query(request, **{name: clean(request.GET.get(name, "")) for name, clean in (query or {}).items()})
            build = functools.partial(view, request, game, *args, **kwargs)
            shared = everyone or responses.anonymous(request)
            if not shared and not kept_pages.keepable(request):
                return build()
            if version is None:
                key = responses.game_key(request, game, params)
            else:
                found = version(game)
                key = None if found is None else _game_key(request, game, params, found)
            if key is None:  # nothing to key on: cheap to build
                return build()
            if not shared:  # the same page, the viewer's menu filled in per request
                return kept_pages.serve(request, f"{key}:kept", build)
            return responses.serve(request, key, build, vary_cookie=not everyone)

        return serve

    return decorate


def _game_key(request: HttpRequest, game: str, params: tuple[str, ...], found: Any) -> str:
    asked = "&".join(f"{name}={request.GET.get(name, '')}" for name in params)
    raw = f"{request.get_host()}|{request.path}|{asked}|{found}"
    return f"response:game:{game}:{hashlib.sha256(raw.encode()).hexdigest()}"


def public_listing(shown: Callable[[HttpRequest], tuple[Any, Any, str]]):
    """A page listing leagues, kept whole for anonymous visitors per what it shows
    of each league and the versions of their seasons. ``shown(request)`` gives what
    the view is handed after the request, the leagues the page shows (a queryset;
    None for a page that is not kept, such as a search: any text is one) and what
    else the page depends on."""

    def decorate(view):
        @functools.wraps(view)
        def serve(request: HttpRequest) -> HttpResponse:
            found, leagues, extra = shown(request)
            build = functools.partial(view, request, found)
            if leagues is None or not responses.anonymous(request):
                return build()
            return responses.serve(request, responses.leagues_key(request, leagues, extra=extra), build,
                                  vary_cookie=True)

        return serve

    return decorate



def coaches_page(coaches: Callable[..., list[int]]):
    """A page about coaches across every league (a profile, a head-to-head), shared
    by every anonymous visitor per version of each season the coaches play in and
    per their names and the ratings' versions (one query, ``versions.coaches_versions``), with an ETag.
    ``coaches(*args, **kwargs)``: the coaches' ids from the address. A logged-in
    visitor gets the same page kept apart (``kept_pages.serve``, the key plus
    ``:kept``), the menu filled in with who they are per request: the profile and
    head-to-head show nothing else of the viewer, their own profile included. An
    address of a coach that does not exist is a 404, never stored."""

    def decorate(view):
        name = f"{view.__module__}.{view.__qualname__}"

        @functools.wraps(view)
        def serve(request: HttpRequest, *args, **kwargs) -> HttpResponse:
            page = request.GET.get("page", "")
            # The one parameter these pages read (a page of results), a small whole
            # number or nothing: anything else would store a page per address.
            only_query(request, page=page if page.isascii() and page.isdigit() and len(page) <= 4 else "")
            build = functools.partial(view, request, *args, **kwargs)
            shared = responses.anonymous(request)
            if not shared and not kept_pages.keepable(request):
                return build()
            rows = versions.coaches_versions(coaches(*args, **kwargs))
            signature = ",".join(f"{coach}:{coach_name}:{season}:{version}" for coach, coach_name, season, version in rows)
            asked = request.GET.get("page", "")
            raw = f"{name}|{request.get_host()}|{request.path}|{asked}|{signature}"
            key = f"coaches:{hashlib.sha256(raw.encode()).hexdigest()}"
            if not shared:
                return kept_pages.serve(request, f"{key}:kept", build)
            return responses.serve(request, key, build, vary_cookie=True)

        return serve

    return decorate


# What a kept page reads: the versions of every season it shows, in one query -------


@dataclass(frozen=True)
class Seen:
    """What a kept page's key is made of: the rows read (for the view's key) and
    the versions among them (``signature``)."""

    rows: Any
    signature: str


def league_seasons(request: HttpRequest, slug: str, *args, **kwargs) -> Seen:
    """The seasons of league ``slug``, current first, each as (pk, name, version,
    game, whether the viewer organises the league, their coach's entry or None)."""
    rows = kept_pages.league_seasons(request, slug)
    return Seen(rows, ",".join(f"{pk}:{version}" for pk, _, version, *_ in rows))


def fixture_season(request: HttpRequest, pk: int, *args, **kwargs) -> Seen | None:
    """Fixture ``pk``'s (season pk, version, game, home coach, away coach, whether the
    viewer organises the league, the coaches' last meeting and its season's
    version); None for a fixture that does not exist."""
    found = versions.fixture_versions(pk, request.user.pk)
    return None if found is None else Seen(found, f"{found[0]}:{found[1]}:{found[6]}:{found[7]}")


def coach_seasons(request: HttpRequest, *args, **kwargs) -> Seen:
    """The seasons the viewer's coach plays in and those of the leagues they
    organise, as (season pk, version, game), then (None, None, game) for each
    league a layer adds (``versions.coach_versions``)."""
    coach = coach_for(request.user)
    rows = versions.coach_versions(request.user.pk, coach.pk if coach is not None else None)
    return Seen(rows, ",".join(f"{pk}:{version}" for pk, version, _ in rows if pk is not None))


def kept_page(reads: Callable[..., Seen | None], viewer: Callable[..., str | None], *,
              query: tuple[str, ...] = (), skip: Callable[..., bool] | None = None,
              panels: Callable[[HttpRequest, Seen, str, str], str] | None = None):
    """A logged-in page kept per version of what it shows, per day and per kind
    of viewer, the viewer's own parts filled in per request.

    ``reads(request, *args)``: the versions the page shows (``league_seasons``,
    ``fixture_season``, ``coach_seasons``), None when there is nothing to keep (a
    404). ``viewer(request, seen, *args)``: what else of the viewer the page shows
    (their side, whether they organise), None for a page built as usual (a 403, a
    page with a greeting of its own). ``query``: the parameters the page reads
    (validated by then). ``skip(request, *args)``: a request built as usual before
    anything is read. ``panels(request, seen, layer, page)``: a layer's panel that is
    not kept, rendered for this request."""

    def decorate(view):
        name = f"{view.__module__}.{view.__qualname__}"

        @functools.wraps(view)
        def serve(request: HttpRequest, *args, **kwargs) -> HttpResponse:
            build = functools.partial(view, request, *args, **kwargs)
            if not kept_pages.keepable(request) or (skip is not None and skip(request, *args, **kwargs)):
                return build()
            seen = reads(request, *args, **kwargs)
            kind = None if seen is None else viewer(request, seen, *args, **kwargs)
            if kind is None:
                return build()
            asked = "&".join(f"{param}={request.GET.get(param, '')}" for param in query)
            raw = f"{name}|{request.get_host()}|{request.path}|{asked}|{today()}|{kind}|{seen.signature}"
            live = None if panels is None else functools.partial(panels, request, seen)
            key = f"kept:{view.__name__}:{hashlib.sha256(raw.encode()).hexdigest()}"
            return kept_pages.serve(request, key, build, panels=live)

        return serve

    return decorate
