"""DB-5b under load: both semi-finals approved at the same moment, each in its own
connection and thread, create exactly one final and one match for third place:
each approval locks the season's play-off rows before looking at the other
semi-final (and the season row, whose version every approval changes, is locked
too). PostgreSQL only (SQLite serialises writers)."""

import time

from league.services import results as engine
from league.dungeonbowl.playoffs import services as playoffs
from league.dungeonbowl.models import PlayoffGame, PlayoffSlot as S
from league.models import Result
from tests.support.concurrency import POSTGRES_ONLY, at_once
from tests.dungeonbowl.builders import db_season
from tests.dungeonbowl.playoff_builders import facts, game, play_regular
from tests.support.factories import UserFactory

pytestmark = POSTGRES_ONLY


def test_two_semi_finals_approved_at_once_make_one_final(monkeypatch):
    organiser = UserFactory(username="commissioner")
    season = db_season(organiser, teams=4, playoffs=1)
    season.league.organisers.add(organiser)
    play_regular(season, organiser, ["Team 01", "Team 02", "Team 03", "Team 04"])
    playoffs.start_playoffs(season=season, by=organiser)
    results = []
    for slot in (S.SEMI_1, S.SEMI_2):
        fixture = game(season, slot).fixture
        result = engine.report_result(fixture=fixture, by=fixture.home.coach.user, **facts("home"))
        results.append(engine.confirm_result(result=result, by=fixture.away.coach.user))
    # Widen the window: each approval waits a moment once it holds the play-off rows,
    # so without the lock both would look at the other semi-final before it commits.
    locked_games = playoffs._games

    def slow_games(season_id):
        games = locked_games(season_id)
        time.sleep(0.5)
        return games

    monkeypatch.setattr(playoffs, "_games", slow_games)
    outcomes = at_once([lambda r=r: engine.approve_result(result=r, by=organiser) for r in results])
    assert outcomes.raised == []
    assert Result.objects.filter(fixture__stage="playoff", status="approved").count() == 2
    assert sorted(PlayoffGame.objects.filter(season=season).values_list("slot", flat=True)) == [1, 2, 3, 4]
    final = game(season, S.FINAL).fixture
    assert (final.home.team, final.away.team) == ("Team 01", "Team 02")
