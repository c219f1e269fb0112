"""DB-12 under load: eight simultaneous re-roll purchases, each in its own
connection and thread, never overspend the Treasury, because every purchase locks
the team row first. PostgreSQL only (SQLite serialises writers)."""

import threading

import pytest
from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import connection

from league.dungeonbowl import spending
from league.dungeonbowl.models import Team
from tests.dungeonbowl.builders import db_league, db_team
from tests.factories import UserFactory

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.skipif(
        "postgresql" not in settings.DATABASES["default"]["ENGINE"],
        reason="needs PostgreSQL: run with DATABASE_URL=postgres://...",
    ),
    pytest.mark.django_db(transaction=True, serialized_rollback=True),
]


def test_simultaneous_purchases_never_overspend():
    organiser = UserFactory(username="commissioner")
    team = db_team(db_league(organiser, slug="race"), "Racers", rerolls=0)  # 445,000 gp: four re-rolls at 100,000
    bought, refused = [], []
    barrier = threading.Barrier(8)
    lock = threading.Lock()

    def buy():
        try:
            connection.ensure_connection()
            barrier.wait()
            spending.buy_reroll(team=team, by=team.coach.user)
            with lock:
                bought.append(1)
        except ValidationError as exc:
            with lock:
                refused.append(" ".join(exc.messages))
        finally:
            connection.close()

    threads = [threading.Thread(target=buy) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    team = Team.objects.get(pk=team.pk)
    assert (len(bought), team.rerolls, team.treasury()) == (4, 4, 45_000)
    assert len(refused) == 4 and all("short" in r for r in refused)
