"""DB-3: when a Dungeon Bowl season is over, and who holds the Trophy (DB-14)."""

import datetime

import pytest

from league.dungeonbowl.models import Honour, Placing
from league.dungeonbowl.seasons import season_over, trophy_holder_id
from tests.dungeonbowl.builders import db_league, db_team
from tests.support.factories import SeasonFactory

pytestmark = pytest.mark.django_db


def test_a_season_with_a_champion_is_over_and_the_newest_champion_holds_the_trophy(organiser):
    league = db_league(organiser, playoffs=1)
    first = SeasonFactory(league=league, name="Season 1", start_date=datetime.date(2026, 1, 1))
    second = SeasonFactory(league=league, name="Season 2", start_date=datetime.date(2026, 9, 1))
    old, new = db_team(league, "Old Guard"), db_team(league, "New Blood", college="college-of-shadows")
    assert not season_over(first)
    assert trophy_holder_id(league) is None

    Honour.objects.create(season=first, team=old, placing=Placing.CHAMPION, prize=100_000)
    assert season_over(first) and not season_over(second)
    assert trophy_holder_id(league) == old.pk

    Honour.objects.create(season=second, team=new, placing=Placing.CHAMPION, prize=100_000)
    assert trophy_holder_id(league) == new.pk


def test_without_play_offs_a_season_is_over_when_every_regular_fixture_is_approved(organiser):
    from league.services import results as engine
    from league.models import Fixture
    from tests.dungeonbowl.builders import db_season

    season = db_season(organiser, teams=4)
    assert not season_over(season)
    for fixture in Fixture.objects.filter(round__season=season):
        engine.record_result(fixture=fixture, by=organiser, reason="test", abandoned=True)
    assert season_over(season)
