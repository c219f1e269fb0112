"""A Dungeon Bowl season played to its end through the engine's services, for the
off-season tests (DB-3, DB-15)."""

from __future__ import annotations

from league.services import results as engine
from league.models import Fixture, Season
from tests.dungeonbowl.builders import db_season


def play(fixture: Fixture, organiser, *, home: int = 1, away: int = 0, dice=(4, 1), mvp: bool = True, **extra):
    """Record and approve a game won by its touchdown; the winner's #1 scores and
    is MVP unless ``mvp`` is False."""
    winner = "home" if home > away else "away"
    entry = fixture.home if winner == "home" else fixture.away
    scorer = entry.dungeonbowl.team.players.on_draft_list().order_by("number").first()
    players = {winner: [{"player": scorer.pk, "touchdowns": 1, "mvp": mvp}]}
    return engine.record_result(
        fixture=fixture, by=organiser, reason="from the sheet", home_score=home, away_score=away, ending="touchdown",
        home_gather=0, away_gather=0, home_journeymen=0, away_journeymen=0, dice=list(dice), players=players, **extra,
    )


def finished_season(organiser, *, teams: int = 4, **settings) -> Season:
    """A season of ``teams`` without play-offs, every fixture a 1-0 home win (dice
    4 and 1: the winner 40,000 gp, the loser 10,000 gp), so it is over (DB-3)."""
    season = db_season(organiser, teams=teams, **settings)
    for fixture in Fixture.objects.with_related().filter(round__season=season).order_by("round__number", "pk"):
        play(fixture, organiser)
    return season
