"""What waits on a league's organiser, read in a fixed number of queries: the
organiser's dashboard (league/organiser_views.py) and the counts beside each
league on the home page.

Moments to confirm (The Big League) are the campaigns layer's own panel on the
dashboard ("organiser_dashboard" in league/layers.py); the engine counts only
its own work.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field

from django.db.models import Count, Q
from django.utils import timezone

from league import layers
from league.models import Fixture, League, Result, Season

STALE_AFTER = datetime.timedelta(days=3)  # a report unconfirmed this long needs chasing


@dataclass
class Queue:
    disputed: list[Result] = field(default_factory=list)
    stale: list[Result] = field(default_factory=list)  # reported, unconfirmed for STALE_AFTER
    to_approve: list[Result] = field(default_factory=list)  # confirmed by both coaches
    overdue: list[Fixture] = field(default_factory=list)  # date passed, nothing reported

    @property
    def total(self) -> int:
        return len(self.disputed) + len(self.stale) + len(self.to_approve) + len(self.overdue)


def queue(season: Season, *, now: datetime.datetime | None = None) -> Queue:
    """The season's results that wait on the organiser and its overdue matches:
    two queries whatever the season's size."""
    now = now or timezone.now()
    today = timezone.localdate(now)
    found = Queue()
    results = (
        Result.objects.filter(fixture__round__season=season)
        .exclude(status=Result.Status.APPROVED)
        .select_related("fixture__round", "fixture__home__coach", "fixture__away__coach")
        .order_by("fixture__date", "fixture__round__number", "pk")
    )
    for result in results:
        if result.status == Result.Status.DISPUTED:
            found.disputed.append(result)
        elif result.status == Result.Status.CONFIRMED:
            found.to_approve.append(result)
        elif result.reported_at <= now - STALE_AFTER:
            found.stale.append(result)
    found.overdue = list(
        Fixture.objects.filter(round__season=season, date__lt=today, result__isnull=True)
        .matches()
        .with_related()
        .order_by("date", "round__number", "pk")
    )
    return found


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

    @property
    def total(self) -> int:
        return self.disputed + self.stale + self.to_approve + self.overdue + sum(n for _, n in self.layered)


def counts_for(leagues: list[League], user, *, now: datetime.datetime | None = None) -> dict[int, Counts]:
    """By league id, for the leagues in ``leagues`` that ``user`` organises: what
    waits on them in each league's current season. Three queries for a page of
    leagues (which the user organises, the results, the overdue fixtures)."""
    if not user.is_authenticated or not leagues:
        return {}
    now = now or timezone.now()
    today = timezone.localdate(now)
    mine = set(League.objects.organised_by(user).filter(pk__in=[l.pk for l in leagues]).values_list("pk", flat=True))
    seasons = {
        league.pk: league.current.pk
        for league in leagues
        if league.pk in mine and getattr(league, "current", None) is not None
    }
    if not seasons:
        return {}
    in_seasons = Q(fixture__round__season__in=seasons.values())
    status = Result.Status
    by_season = {
        row["fixture__round__season"]: row
        for row in Result.objects.filter(in_seasons)
        .values("fixture__round__season")
        .annotate(
            disputed=Count("pk", filter=Q(status=status.DISPUTED)),
            to_approve=Count("pk", filter=Q(status=status.CONFIRMED)),
            stale=Count("pk", filter=Q(status=status.REPORTED, reported_at__lte=now - STALE_AFTER)),
        )
    }
    overdue = dict(
        Fixture.objects.filter(round__season__in=seasons.values(), date__lt=today, result__isnull=True)
        .matches()
        .values("round__season")
        .annotate(n=Count("pk"))
        .values_list("round__season", "n")
    )
    games = {league.pk: league.game_system for league in leagues}
    layered = layers.organiser_counts({season_id: games[league_id] for league_id, season_id in seasons.items()})
    counts = {}
    for league_id, season_id in seasons.items():
        row = by_season.get(season_id, {})
        counts[league_id] = Counts(
            disputed=row.get("disputed", 0),
            stale=row.get("stale", 0),
            to_approve=row.get("to_approve", 0),
            overdue=overdue.get(season_id, 0),
            layered=tuple((label, n) for label, n in layered.get(season_id, {}).items() if n),
        )
    return counts
