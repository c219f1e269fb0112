"""DB-15 under a double click: six simultaneous "raise funds" on one team, each in
its own connection and thread, empty the Treasury once and fix one budget, because
each step locks the team row and checks the step it expects. PostgreSQL only."""

import threading

import pytest
from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import connection

from league.dungeonbowl import redraft
from league.dungeonbowl.league_models import Honour, Placing
from league.dungeonbowl.models import Team, TreasuryLine
from league.dungeonbowl.redraft_models import Redraft
from tests.dungeonbowl.builders import db_season
from tests.factories import UserFactory

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.skipif(
        "postgresql" not in settings.DATABASES["default"]["ENGINE"],
        reason="needs PostgreSQL: run with DATABASE_URL=postgres://...",
    ),
    pytest.mark.django_db(transaction=True, serialized_rollback=True),
]


def test_simultaneous_steps_raise_funds_once():
    organiser = UserFactory(username="commissioner")
    season = db_season(organiser, teams=4)
    team = Team.objects.filter(league=season.league).first()
    Honour.objects.create(season=season, team=team, placing=Placing.CHAMPION, prize=100_000)  # the season is over
    redraft.scout(team=team, by=organiser)
    redraft.recover(team=team, by=organiser)
    done, refused = [], []
    barrier = threading.Barrier(6)
    lock = threading.Lock()

    def raise_funds():
        try:
            connection.ensure_connection()
            barrier.wait()
            redraft.raise_funds(team=team, by=team.coach.user)
            with lock:
                done.append(1)
        except ValidationError as exc:
            with lock:
                refused.append(" ".join(exc.messages))
        finally:
            connection.close()

    threads = [threading.Thread(target=raise_funds) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(done) == 1 and len(refused) == 5 and all("Raise funds" in r for r in refused)
    assert TreasuryLine.objects.filter(team=team, kind="redraft").count() == 1
    assert team.treasury() == 0 and Redraft.objects.get(team=team).step == 4
