"""Dungeon Bowl seasons played to the end of the regular season, for the play-off
tests (DB-5b, DB-14)."""

from __future__ import annotations

from league.services import results as engine
from league.dungeonbowl.models import PlayoffGame
from league.models import Fixture, Result

DICE = [4, 2]  # the winner's 2D6 at the table: 40,000 gp to the winner, 20,000 to the loser (DB-10)


def facts(winner: str, *, ending: str = "touchdown", dice=DICE) -> dict:
    return {
        "home_score": int(winner == "home" and ending == "touchdown"),
        "away_score": int(winner == "away" and ending == "touchdown"),
        "ending": ending, "home_gather": 0, "away_gather": 0, "home_journeymen": 0, "away_journeymen": 0,
        "dice": dice,
    }


def play_regular(season, organiser, rank: list[str], unplayed: set[frozenset] = frozenset()) -> None:
    """Every regular fixture entered by the commissioner: the team earlier in
    ``rank`` wins 1-0 by a touchdown; a pair in ``unplayed`` is a loss for both."""
    fixtures = Fixture.objects.with_related().filter(round__season=season, stage=Fixture.Stage.REGULAR,
                                                     away__isnull=False)
    for fixture in fixtures:
        pair = frozenset({fixture.home.team, fixture.away.team})
        if pair in unplayed:
            engine.record_result(fixture=fixture, by=organiser, reason="not played by the deadline", abandoned=True)
            continue
        winner = "home" if rank.index(fixture.home.team) < rank.index(fixture.away.team) else "away"
        engine.record_result(fixture=fixture, by=organiser, reason="result sheet", **facts(winner))


def game(season, slot) -> PlayoffGame:
    return PlayoffGame.objects.select_related("fixture__home", "fixture__away").get(season=season, slot=slot)


def win(season, slot, organiser, team: str) -> Result:
    """The commissioner enters a play-off game won by ``team`` (a touchdown)."""
    fixture = game(season, slot).fixture
    side = "home" if fixture.home.team == team else "away"
    assert (fixture.home.team if side == "home" else fixture.away.team) == team
    return engine.record_result(fixture=fixture, by=organiser, reason="result sheet", **facts(side))
