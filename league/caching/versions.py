"""A season's version: what keys every cached page and feed built from it.

Standings, their history and the pages built from them are computed once per
change, not per request. Each season carries a ``version`` (a random UUID). Every
write that can change what a season's pages show sets a new one in the same
transaction (an UPDATE of the season row), so:

- until the write commits, other requests read the old version and the old data,
  and cache them together;
- once it commits, the new version has no cache entry yet and the next request
  computes from committed data. A request that read the version before a commit
  and the data after it stores newer data under the old key, which nobody asks
  for again: a page is never staler than the version it was asked for.

The version is a UUID, not a counter, so a restored backup or a reused primary key
can never meet an old cache entry.

Writes are tracked in one place: ``track(model, seasons)`` connects ``post_save``
and ``post_delete`` of ``model`` to a bump of the seasons ``seasons(instance)``
selects (a ``Q`` on Season, one UPDATE query). The engine tracks its own models in
``LeagueConfig.ready()``; games and layers declare theirs (league/games.py).
Bulk writes (``bulk_create``, ``update``) send no signals: the services that use
them say so through league/caching/writes.py (``changed``), as pages say what they
serve through league/caching/pages.py.
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import operator
import uuid
from collections.abc import Callable
from typing import Any

from django.apps import apps
from django.core.cache import cache
from django.db.models import Exists, F, IntegerField, OuterRef, Q, Subquery, UUIDField, Value
from django.db.models.signals import m2m_changed, post_delete, post_save

from league import games, layers
from league.caching import change_mark
from league.models import Coach, Entry, Fixture, JoinRequest, League, Season
from league.prepared import Statement
from league.selectors import meetings_before

_TRACKED: dict[type, Callable[[Any], Q]] = {}


_deferred: contextvars.ContextVar[list[Q] | None] = contextvars.ContextVar("versions_deferred", default=None)


class Carried:
    """The versions a write to a season's results starts from (``carrying``): read
    at its first bump, with the seasons' rows locked, as that bump's UPDATE would
    lock them. ``dropped``: the write takes an approved result out, so nothing is
    carried and nothing is read."""

    def __init__(self) -> None:
        self.before: dict[int, Any] | None = None
        self.dropped = False


_carried: contextvars.ContextVar[Carried | None] = contextvars.ContextVar("versions_carried", default=None)


@contextlib.contextmanager
def carrying():
    """The block's first bump reads the versions of the seasons it selects, once
    their rows are locked, into the ``Carried`` it yields (league/caching/writes.py
    carries a season's history from them). A block inside another joins it and
    yields None."""
    if _carried.get() is not None:
        yield None
        return
    carried = Carried()
    token = _carried.set(carried)
    try:
        yield carried
    finally:
        _carried.reset(token)


def dropped() -> None:
    """The current write takes an approved result out: its block carries nothing."""
    carried = _carried.get()
    if carried is not None:
        carried.dropped = True


def bump(seasons: Q) -> None:
    """Give every season selected by ``seasons`` a new version (once at the end of
    a ``deferred()`` block)."""
    carried = _carried.get()
    if carried is not None and carried.before is None and not carried.dropped:
        carried.before = dict(
            Season.objects.select_for_update(of=("self",)).filter(seasons).order_by("pk").values_list("pk", "version")
        )
    pending = _deferred.get()
    if pending is not None:
        pending.append(seasons)
        return
    Season.objects.filter(seasons).update(version=uuid.uuid4())
    change_mark.changed()


@contextlib.contextmanager
def deferred():
    """Collect the bumps of a bulk write (an import saving rows one at a time) and
    make them one UPDATE at the end of the block (``merged``), inside the caller's
    transaction, instead of one per saved row."""
    if _deferred.get() is not None:  # already collecting
        yield
        return
    token = _deferred.set([])
    try:
        yield
        pending = _deferred.get()
    finally:
        _deferred.reset(token)
    conditions = merged(pending)
    for i in range(0, len(conditions), MERGED_OTHERS):  # one UPDATE, unless the block saved thousands of rows
        bump(functools.reduce(operator.or_, conditions[i : i + MERGED_OTHERS]))


MERGED_VALUES = 500  # bound parameters per condition: far below any database's limit
MERGED_OTHERS = 20  # conditions ORed in one UPDATE: far below SQLite's expression depth of 1000


def merged(conditions: list[Q]) -> list[Q]:
    """A deferred block's bumps as few conditions, each of bounded size.

    Every ``track()`` gives a one-lookup equality on a key (``Q(pk=3)``,
    ``Q(campaign__coaches__pk=9)``): those with the same lookup become one
    ``lookup__in`` list (at most ``MERGED_VALUES`` values each), the rest are kept
    as they are, for ``deferred`` to OR ``MERGED_OTHERS`` at a time. One OR of every saved row's condition was SQLite's "Expression tree
    is too large" for a Big League file of 250 lines with CP."""
    values: dict[str, set] = {}
    others: list[Q] = []
    for condition in conditions:
        children = condition.children
        if (
            not condition.negated and len(children) == 1 and isinstance(children[0], tuple)
            and _is_key(children[0][0]) and isinstance(children[0][1], int)
        ):
            values.setdefault(children[0][0], set()).add(children[0][1])
        else:
            others.append(condition)
    result = []
    for lookup, found in values.items():
        found = sorted(found)
        result.extend(Q(**{f"{lookup}__in": found[i : i + MERGED_VALUES]}) for i in range(0, len(found), MERGED_VALUES))
    return result + others


def _is_key(lookup: str) -> bool:
    """``pk`` or ``…_id`` at the end: an equality on a key, which ``__in`` extends."""
    last = lookup.rpartition("__")[2]
    return last == "pk" or last.endswith("_id")


def track(model: type, seasons: Callable[[Any], Q]) -> None:
    """Bump the seasons ``seasons(instance)`` selects whenever a ``model`` row is
    saved or deleted."""
    if model in _TRACKED:
        return
    _TRACKED[model] = seasons

    def changed(sender, instance, **kwargs):
        if kwargs.get("raw"):  # loaddata: the restored seasons bring their own versions
            change_mark.changed()  # which other processes have not read yet
            return
        bump(_TRACKED[sender](instance))

    post_save.connect(changed, sender=model, weak=False, dispatch_uid=f"versions:{model._meta.label}:save")
    post_delete.connect(changed, sender=model, weak=False, dispatch_uid=f"versions:{model._meta.label}:delete")


def tracked() -> tuple[type, ...]:
    return tuple(_TRACKED)


def _track_declared(declaration: games.Declaration) -> None:
    """What a game's or a layer's pages read: its declaration's ``tracked`` rows, and
    a game's settings and each result's details."""
    if isinstance(declaration, games.Game):
        if declaration.rules.settings_model is not None:
            track(declaration.rules.settings_model, lambda settings: Q(league_id=settings.league_id))
        for model in declaration.rules.detail_models:
            track(model, lambda detail: Q(rounds__fixtures__result__pk=detail.result_id))
    for model, seasons in declaration.tracked.items():
        track(model, seasons)


games.follow(_track_declared)


def cache_key(season, name: str) -> str:
    return version_key(season.pk, season.version, name)


def version_key(season_id: int, version, name: str) -> str:
    """The cache key of ``name`` for one version of a season (``cache_key`` where
    only the id and a version are at hand: league/standings/history.py)."""
    return f"season:{season_id}:{version}:{name}"


def cached(season, name: str, compute: Callable[[], Any]) -> Any:
    """``compute()`` once per version of ``season`` (Django's cache framework)."""
    key = cache_key(season, name)
    value = cache.get(key)
    if value is None:
        value = compute()
        cache.set(key, value)  # settings.CACHES' TIMEOUT: an old version ages out
    return value


# Whole responses every anonymous visitor shares --------------------------------------


@functools.cache
def _versions_statement() -> Statement:
    """The query of ``league_versions``, written by the ORM once per process."""
    return Statement(
        Season.objects.filter(league__slug="?").order_by("-start_date", "-id").values_list("pk", "name", "version"),
        ["?"],
    )


_league_versions_kept = change_mark.Memo()


def league_versions(slug: str) -> list[tuple[int, str, Any]]:
    """One query: every season of the league ``slug`` as (pk, name, version), the
    current one (latest start) first. Empty for an unknown league or one with no
    season yet. Every warm public page runs it, so it skips the ORM's compiling
    and is a prepared statement on PostgreSQL (league/prepared.py), and with a
    change mark (league/caching/change_mark.py) a process reads it again only after a
    write: a league that exists is kept until then (an unknown slug is not, so
    made-up addresses cannot fill the memory)."""
    return _league_versions_kept.get(slug, lambda: _versions_statement().rows([slug]))


@functools.cache
def _viewer_statement() -> Statement:
    """The query of ``viewer_versions``, written by the ORM once per process."""

    organises = League.organisers.through.objects.filter(league_id=OuterRef("league_id"), user_id=-1)
    own_entry = Entry.objects.filter(season_id=OuterRef("pk"), coach_id=-2).order_by("pk").values("pk")[:1]
    return Statement(
        Season.objects.filter(league__slug="?").order_by("-start_date", "-id")
        .annotate(organises=Exists(organises), own_entry=Subquery(own_entry))
        .values_list("pk", "name", "version", "league__game_system", "organises", "own_entry"),
        [-1, -2, "?"],
    )


_viewer_versions_kept = change_mark.Memo()


def viewer_versions(slug: str, user_id: int, coach_id: int | None) -> list[tuple]:
    """``league_versions`` for a logged-in viewer, in the same one query: each
    season as (pk, name, version, the league's game, whether the user organises
    the league, the coach's entry in the season or None). Kept per viewer until
    the change mark changes, as ``league_versions`` is: a new entry or season is
    a bump, a new organiser a write ``follow`` sees."""
    coach_id = coach_id or 0
    return _viewer_versions_kept.get(
        (slug, user_id, coach_id), lambda: _viewer_statement().rows([user_id, coach_id, slug])
    )


def follow(model: type) -> None:
    """Any write to ``model``'s rows changes the change mark: rows that keyed pages
    read and no season's version tracks (who organises a league, which
    ``viewer_versions`` reads and the organiser's pages are let in by). Through a
    many-to-many field (``add``, ``remove``), the model's manager or a restore."""

    def changed(sender, **kwargs):
        if kwargs.get("action", "post_").startswith("post_"):
            change_mark.changed()

    for signal in (post_save, post_delete, m2m_changed):
        signal.connect(changed, sender=model, weak=False, dispatch_uid=f"versions:follow:{model._meta.label}")


@functools.cache
def _coach_statement() -> Statement:
    """The query of ``coach_versions``, written by the ORM once per process (the
    layers have registered by then: they register in their apps' ``ready()``)."""

    seasons = Season.objects.filter(
        Q(pk__in=Entry.objects.filter(coach_id=-2).values("season_id"))
        | Q(league_id__in=League.organisers.through.objects.filter(user_id=-1).values("league_id"))
        # The seasons the user's join requests wait on (the page shows them): a new
        # request adds one, a decision gives it a new version.
        | Q(pk__in=JoinRequest.objects.filter(user_id=-1, outcome="pending").values("season_id"))
    ).order_by().values_list("pk", "version", "league__game_system")
    leagues = [layer.coach_leagues(-2) for layer in layers.layers() if layer.coach_leagues is not None]
    if leagues:
        others = League.objects.filter(functools.reduce(operator.or_, leagues)).order_by().annotate(
            no_season=Value(None, output_field=IntegerField()), no_version=Value(None, output_field=UUIDField()),
        ).values_list("no_season", "no_version", "game_system")
        seasons = seasons.union(others, all=True)
    return Statement(seasons, [-1, -2])


def coach_versions(user_id: int, coach_id: int | None) -> list[tuple]:
    """In one query, what a logged-in user's home page reads, as (season pk,
    version, game): the seasons their coach is entered in, those of the leagues
    they organise and those their join requests wait on, in primary-key order; then (None, None, game) for each league a
    layer adds (``Layer.coach_leagues``), whose panels are rendered per request."""
    rows = _coach_statement().rows([user_id, coach_id or 0])
    return sorted(row for row in rows if row[0] is not None) + [row for row in rows if row[0] is None]


@functools.cache
def _fixture_statement() -> Statement:
    """The query of ``fixture_versions``, written by the ORM once per process."""
    organises = League.organisers.through.objects.filter(league_id=OuterRef("round__season__league_id"), user_id=-1)
    # The page says when the two coaches last met, in any league: that meeting
    # and its season's version are part of what the page shows.
    last = meetings_before(OuterRef("pk"), OuterRef("home__coach_id"), OuterRef("away__coach_id"), OuterRef("date"),
                           OuterRef("round__season__league__game_system"))
    return Statement(
        Fixture.objects.filter(pk=-3).annotate(
            organises=Exists(organises),
            last_met=Subquery(last.values("pk")[:1]),
            last_met_version=Subquery(last.values("round__season__version")[:1]),
        ).values_list(
            "round__season_id", "round__season__version", "round__season__league__game_system",
            "home__coach_id", "away__coach_id", "organises", "last_met", "last_met_version",
        ),
        [-1, -3],
    )


def fixture_versions(fixture_id: int, user_id: int) -> tuple | None:
    """A fixture's season and its version, the league's game, the two sides'
    coaches, whether the user organises the league and the two coaches' last
    meeting before it (its fixture and its season's version, or None), in one
    query; None for a fixture that does not exist."""
    rows = _fixture_statement().rows([user_id, fixture_id])
    return rows[0] if rows else None


@functools.cache
def _coaches_statement(count: int) -> Statement:
    """The query of ``coaches_versions`` for ``count`` coaches, written by the ORM
    once per process (a profile asks for one coach, a head-to-head for two)."""
    # By its app label: the ratings sit above the cache (their pages are served
    # through it), so this module names their model instead of importing it.
    RatedGame = apps.get_model("ratings", "RatedGame")
    markers = [-1 - n for n in range(count)]
    seasons = Coach.objects.filter(pk__in=markers).order_by().annotate(
        rated=Value(0), season_pk=F("entries__season_id"), season_version=F("entries__season__version"),
    ).values_list("rated", "pk", "name", "season_pk", "season_version")
    rated = RatedGame.objects.order_by().annotate(
        rated=Value(1), coach_pk=Value(None, output_field=IntegerField()),
        season_pk=Value(None, output_field=IntegerField()),
    ).values_list("rated", "coach_pk", "game_system", "season_pk", "version")
    return Statement(seasons.union(rated, all=True).order_by("rated", "pk", "name", "season_pk"), markers)


def coaches_versions(coach_ids: list[int]) -> list[tuple]:
    """In one query, what a page about coaches ``coach_ids`` (a profile, a
    head-to-head) is built from, as (coach pk, name, season pk, version) in that
    order: every season each coach is entered in, and a row with no season for a
    coach entered nowhere (a coach's rename bumps the seasons they play in; the
    name in the key covers a coach with none). Then, once, a row per rated game
    (None, game, None, its ratings' version): a coach's rating moves with results
    anywhere in their game (an opponent's correction, a later week that raises an
    idle coach's RD, RT-3), so a page that shows it is kept by these too. They are
    the same for every coach, so they come as rows of their own (``UNION ALL``),
    read once, not a value repeated on each coach's row. No coach row for unknown
    coaches."""
    coach_ids = list(dict.fromkeys(coach_ids))
    rows = _coaches_statement(len(coach_ids)).rows(coach_ids)
    return [row[1:] for row in rows]
