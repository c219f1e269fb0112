"""DB-15 under a double click: six simultaneous "raise funds" on one team, each in
its own connection and thread, empty the Treasury once and fix one budget, because
each step locks the team row and checks the step it expects. PostgreSQL only."""

from league.dungeonbowl.redraft import services as redraft
from league.dungeonbowl.models import Honour, Placing, Redraft, Team, TreasuryLine
from tests.support.concurrency import POSTGRES_ONLY, at_once
from tests.dungeonbowl.builders import db_season
from tests.support.factories import UserFactory

pytestmark = POSTGRES_ONLY


def test_simultaneous_steps_raise_funds_once():
    organiser = UserFactory(username="commissioner")
    season = db_season(organiser, teams=4)
    team = Team.objects.filter(league=season.league).first()
    Honour.objects.create(season=season, team=team, placing=Placing.CHAMPION, prize=100_000)  # the season is over
    redraft.scout(team=team, by=organiser)
    redraft.recover(team=team, by=organiser)
    outcomes = at_once([lambda: redraft.raise_funds(team=team, by=team.coach.user)] * 6)
    refused = outcomes.refusals
    assert len(outcomes.returned) == 1 and len(refused) == 5 and all("Raise funds" in r for r in refused)
    assert TreasuryLine.objects.filter(team=team, kind="redraft").count() == 1
    assert team.treasury() == 0 and Redraft.objects.get(team=team).step == 4
