"""What waits on a league's organiser, read in a fixed number of queries: the
organiser's dashboard (league/web/organiser.py) and the counts beside each
league on the home page, both from ``waiting`` so they count the same things:
the results and matches that wait (disputed, confirmed, unconfirmed for days,
overdue), the layers' own (Moments to confirm, The Big League) and the season
checklist (league/web/checklist.py: entrants, divisions, fixtures, drafts, play-offs,
re-drafts, the next season, the Final Day).

The dashboard lists the first few of each kind and pages through the rest
(its size and cost do not grow with the league).
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from django.core.cache import cache
from django.core.paginator import Page, Paginator
from django.db.models import Case, F, Value, When, Window
from django.db.models.functions import RowNumber
from django.utils import timezone
from django.utils.safestring import SafeString, mark_safe

from league import layers
from league.web import checklist
from league.caching import pages
from league.web.checklist import STALE_AFTER, Item
from league.models import Fixture, League, Result, Season

FIRST = 10  # lines of each kind shown on the dashboard; the rest a page at a time
PER_PAGE = 50
KINDS = ("to_approve", "disputed", "stale", "overdue")


@dataclass
class Queue:
    """The first lines of each kind (``FIRST``); their full numbers are in ``Counts``."""

    disputed: list[Result] = field(default_factory=list)
    stale: list[Result] = field(default_factory=list)  # reported, unconfirmed for STALE_AFTER
    to_approve: list[Result] = field(default_factory=list)  # confirmed by both coaches
    overdue: list[Fixture] = field(default_factory=list)  # date passed, nothing reported

    @property
    def total(self) -> int:
        return len(self.disputed) + len(self.stale) + len(self.to_approve) + len(self.overdue)


def _waiting_results(season: Season, now: datetime.datetime):
    """The season's results that wait on the organiser, each with its ``kind``."""
    status = Result.Status
    kind = Case(
        When(status=status.DISPUTED, then=Value("disputed")),
        When(status=status.CONFIRMED, then=Value("to_approve")),
        When(status=status.REPORTED, reported_at__lte=now - STALE_AFTER, then=Value("stale")),
        default=Value(""),
    )
    return (
        Result.objects.filter(fixture__round__season=season)
        .exclude(status=status.APPROVED)
        .annotate(kind=kind)
        .exclude(kind="")
    )


_RESULT_ORDER = ("fixture__date", "fixture__round__number", "pk")


def _overdue(season: Season, now: datetime.datetime):
    return (
        Fixture.objects.filter(round__season=season, date__lt=timezone.localdate(now), result__isnull=True)
        .matches().to_play()
        .with_related()
        .order_by("date", "round__number", "pk")
    )


def queue(season: Season, *, now: datetime.datetime | None = None, first: int = FIRST) -> Queue:
    """The first ``first`` of each kind of the season's results that wait on the
    organiser, and of its overdue matches: two queries whatever the season's size
    (the results' first lines of each kind in one, by a window)."""
    now = now or timezone.now()
    found = Queue()
    results = (
        _waiting_results(season, now)
        .annotate(line=Window(RowNumber(), partition_by=[F("kind")], order_by=[F(name).asc() for name in _RESULT_ORDER]))
        .filter(line__lte=first)
        .select_related("fixture__round", "fixture__home__coach", "fixture__away__coach")
        .order_by(*_RESULT_ORDER)
    )
    for result in results:
        getattr(found, result.kind).append(result)
    found.overdue = list(_overdue(season, now)[:first])
    return found


def queue_page(season: Season, kind: str, number, *, now: datetime.datetime | None = None) -> Page:
    """One page (``PER_PAGE``) of one kind of what waits: two queries."""
    now = now or timezone.now()
    if kind == "overdue":
        lines = _overdue(season, now)
    else:
        lines = (
            _waiting_results(season, now).filter(kind=kind)
            .select_related("fixture__round", "fixture__home__coach", "fixture__away__coach")
            .order_by(*_RESULT_ORDER)
        )
    return Paginator(lines, PER_PAGE).get_page(number)


def confirmed_results(season: Season) -> list[Result]:
    """What "approve all" approves: only results both coaches agreed on (GB-8);
    a reported or disputed one needs the organiser's own look."""
    return list(
        Result.objects.filter(fixture__round__season=season, status=Result.Status.CONFIRMED)
        .select_related("fixture__round__season__league", "fixture__home__coach", "fixture__away__coach")
        .order_by("fixture__date", "pk")
    )


@dataclass(frozen=True)
class Counts:
    disputed: int = 0
    stale: int = 0
    to_approve: int = 0
    overdue: int = 0
    layered: tuple[tuple[str, int], ...] = ()  # (label, count) from the league's layers (Moments to confirm)
    checklist: tuple[Item, ...] = ()  # the season checklist (league/web/checklist.py)

    @property
    def results(self) -> int:
        return self.disputed + self.stale + self.to_approve + self.overdue

    @property
    def total(self) -> int:
        return self.results + sum(n for _, n in self.layered) + sum(item.count for item in self.checklist)


def waiting(leagues: list[League], *, now: datetime.datetime | None = None) -> dict[int, Counts]:
    """By league id: what waits on the organiser in each league's current season
    (``league.current``, None for a league without a season). The one count behind
    the dashboard and the home page's "N to do": one query for the seasons, then
    one per layer that counts and per game or layer with checklist items."""
    return {pk: counts for pk, (counts, _) in _waiting(leagues, now=now).items()}


def _waiting(leagues: list[League], *, now: datetime.datetime | None = None
             ) -> dict[int, tuple[Counts, datetime.datetime | None]]:
    """``waiting``, each with the time its earliest report not yet unconfirmed for
    STALE_AFTER was made (None without one)."""
    current = [league.current for league in leagues if league.current is not None]
    for league in leagues:
        if league.current is not None:
            league.current.league = league
    states = checklist.season_states(current, now=now)
    items = checklist.checklists(states)
    layered = layers.organiser_counts({season.pk: season.league.game_system for season in current})
    counts = {}
    for league in leagues:
        if league.current is None:
            counts[league.pk] = Counts(checklist=tuple(checklist.no_season_items(league))), None
            continue
        state = states[league.current.pk]
        counts[league.pk] = Counts(
            disputed=state.disputed, stale=state.stale, to_approve=state.to_approve, overdue=state.overdue,
            layered=tuple((label, n) for label, n in layered.get(league.current.pk, {}).items() if n),
            checklist=tuple(items.get(league.current.pk, ())),
        ), state.next_stale
    return counts


CACHE_SECONDS = 3600  # at most; a write is seen at once (the key carries the season's version)
TICKING_SECONDS = 60  # while the page says how long ago a report was made ("reported 4 days, 2 hours ago")


def board(league: League, season: Season | None) -> tuple[Counts, Queue, int]:
    """The dashboard's numbers and first lines for ``league`` in ``season`` (its
    current one): ``waiting`` and ``queue``, computed once per version of the
    season (league/caching/versions.py: every write they read bumps it) and per day (a
    match becomes overdue at midnight), and kept no longer than until the next
    report becomes unconfirmed for STALE_AFTER; with how many seconds
    they may be kept. Without a season, computed."""
    league.current = season
    if season is None:
        return waiting([league])[league.pk], Queue(), 0
    now = timezone.now()
    key = pages.version_key(season, f"dashboard:{timezone.localdate(now):%Y-%m-%d}")
    found = cache.get(key)
    if found is None:
        counts, next_stale = _waiting([league], now=now)[league.pk]
        seconds = CACHE_SECONDS
        if next_stale is not None:
            seconds = min(seconds, max(1, int((next_stale + STALE_AFTER - now).total_seconds())))
        if counts.stale:
            seconds = min(seconds, TICKING_SECONDS)
        found = counts, queue(season, now=now), now.timestamp() + seconds
        cache.set(key, found, timeout=seconds)
    counts, lines, until = found
    return counts, lines, _left(until, now)


def _left(until: float, now: datetime.datetime) -> int:
    """Whole seconds from ``now`` to ``until`` (a timestamp), 0 once it has passed."""
    return max(0, int(until - now.timestamp()))


# A token, or the marker a page rendered to be kept has there (league/caching/pages.py).
_CSRF_INPUT = re.compile(r'(name="csrfmiddlewaretoken" value=")[^"]+(")')


def cached_html(request, season: Season, name: str, build: Callable[[], tuple[str, int]]) -> SafeString:
    """A part of the dashboard rendered once per version of ``season`` and per day:
    ``build()`` gives the HTML and how many seconds it may be kept. Its forms carry
    the CSRF token of whoever rendered it: each is given this request's."""
    key = pages.version_key(season, f"{name}:{timezone.localdate():%Y-%m-%d}")
    now = timezone.now()
    found = cache.get(key)
    if found is None:
        html, seconds = build()
        found = str(html), now.timestamp() + seconds
        if seconds:
            cache.set(key, found, timeout=seconds)
    html, until = found
    pages.keep_for(request, _left(until, now))  # a page kept whole keeps it no longer (league/caching/pages.py)
    token = pages.csrf_token(request)  # a page kept whole gets each viewer's token later
    return mark_safe(_CSRF_INPUT.sub(lambda match: f"{match.group(1)}{token}{match.group(2)}", str(html)))


def counts_for(leagues: list[League], user, *, now: datetime.datetime | None = None) -> dict[int, Counts]:
    """By league id, for the leagues in ``leagues`` (each with ``current``, as
    ``selectors.attach_current_seasons`` leaves them) that ``user`` organises:
    ``waiting`` in each. One query more to know which they organise."""
    if not user.is_authenticated or not leagues:
        return {}
    mine = set(League.objects.organised_by(user).filter(pk__in=[l.pk for l in leagues]).values_list("pk", flat=True))
    return waiting([league for league in leagues if league.pk in mine], now=now)
