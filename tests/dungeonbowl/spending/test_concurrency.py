"""DB-12 under load: eight simultaneous re-roll purchases, each in its own
connection and thread, never overspend the Treasury, because every purchase locks
the team row first. PostgreSQL only (SQLite serialises writers)."""

from league.dungeonbowl.spending import services as spending
from league.dungeonbowl.models import Team
from tests.support.concurrency import POSTGRES_ONLY, at_once
from tests.dungeonbowl.builders import db_league, db_team
from tests.support.factories import UserFactory

pytestmark = POSTGRES_ONLY


def test_simultaneous_purchases_never_overspend():
    organiser = UserFactory(username="commissioner")
    team = db_team(db_league(organiser, slug="race"), "Racers", rerolls=0)  # 445,000 gp: four re-rolls at 100,000
    outcomes = at_once([lambda: spending.buy_reroll(team=team, by=team.coach.user)] * 8)
    team = Team.objects.get(pk=team.pk)
    assert (len(outcomes.returned), team.rerolls, team.treasury()) == (4, 4, 45_000)
    assert len(outcomes.refusals) == 4 and all("short" in r for r in outcomes.refusals)
