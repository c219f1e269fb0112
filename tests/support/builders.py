"""Builds whole seasons quickly for page and query-count tests."""

from __future__ import annotations

import datetime

from django.utils import timezone

from league.services import seasons as season_services
from league.models import Fixture, Result, Season
from tests.support.factories import CoachFactory, EntryFactory, SeasonFactory


def season_with_results(*, coaches: int, played_rounds: int, season: Season | None = None, seed: int = 7) -> Season:
    """A season of ``coaches`` entries, fixtures generated, the first
    ``played_rounds`` rounds approved (home wins 12-<round>, away wins on odd
    fixture ids so the table is not trivial)."""
    season = season or SeasonFactory()
    for _ in range(coaches):
        EntryFactory(season=season, coach=CoachFactory())
    season_services.generate_fixtures(season=season, seed=seed)
    fixtures = Fixture.objects.filter(round__season=season, round__number__lte=played_rounds, away__isnull=False)
    now = timezone.now()
    Result.objects.bulk_create(
        Result(
            fixture=f,
            home_score=12 if f.pk % 2 else f.pk % 10,
            away_score=f.pk % 10 if f.pk % 2 else 12,
            outcome="home" if f.pk % 2 else "away",
            summary=f"{12 if f.pk % 2 else f.pk % 10} – {f.pk % 10 if f.pk % 2 else 12}",
            status=Result.Status.APPROVED,
            approved_at=now,
        )
        for f in fixtures
    )
    return season


def today_plus(days: int) -> datetime.date:
    return timezone.localdate() + datetime.timedelta(days=days)
