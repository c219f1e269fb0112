"""A DreadBall season of any size, quickly, for page, feed and query-count tests."""

from __future__ import annotations

from django.utils import timezone

from league.services import seasons as season_services
from league.dreadball.models import DreadBallResult, DreadBallTeam, RosterPlayer, TeamType
from league.models import Fixture, Result, Season
from tests.support.factories import CoachFactory, EntryFactory

# (outcome, difference, rush, sudden death, summary): every one passes DR-3.
PATTERN = [
    ("home", 7, 10, False, "7–0, landslide"),
    ("away", 3, 14, False, "0–3"),
    ("draw", 0, 16, True, "0–0, Sudden Death"),
    ("home", 2, 18, True, "2–0, Sudden Death"),
]


def dreadball_season(*, season: Season, coaches: int, played_rounds: int, players: int = 6) -> Season:
    """``coaches`` entries with teams of both boxed types and ``players`` each,
    fixtures generated, the first ``played_rounds`` rounds approved."""
    types = list(TeamType.objects.order_by("name"))
    for index in range(coaches):
        entry = EntryFactory(season=season, coach=CoachFactory(), team=f"Team {index:03d}")
        team = DreadBallTeam.objects.create(entry=entry, name=entry.team, team_type=types[index % len(types)])
        RosterPlayer.objects.bulk_create(
            RosterPlayer(team=team, name=f"Player {n}", role=("guard", "jack", "striker")[n % 3], move=5,
                         strength=4, agility=4, speed=4, skill=4, armour=4, cost=10 + n % 3)
            for n in range(players)
        )
    season_services.generate_fixtures(season=season, seed=7)
    fixtures = Fixture.objects.filter(round__season=season, round__number__lte=played_rounds, away__isnull=False)
    now = timezone.now()
    results, details = [], []
    for index, fixture in enumerate(fixtures.order_by("pk")):
        outcome, difference, rush, sudden_death, summary = PATTERN[index % len(PATTERN)]
        result = Result(fixture=fixture, outcome=outcome, summary=summary, status=Result.Status.APPROVED, approved_at=now)
        results.append(result)
        details.append((difference, rush, sudden_death))
    Result.objects.bulk_create(results)
    DreadBallResult.objects.bulk_create(
        DreadBallResult(result=result, difference=d, landslide=d == 7, rush=r, sudden_death=sd)
        for result, (d, r, sd) in zip(results, details)
    )
    return season
