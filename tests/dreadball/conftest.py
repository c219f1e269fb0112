import pytest

from league.dreadball.models import DreadBallSettings
from tests.support.factories import CoachFactory, EntryFactory, FixtureFactory, LeagueFactory, SeasonFactory


@pytest.fixture
def dr_league(organiser):
    league = LeagueFactory(name="Neon Dome", slug="neon", game_system="dreadball", organisers=[organiser])
    DreadBallSettings.objects.create(league=league)
    return league


@pytest.fixture
def dr_season(dr_league):
    return SeasonFactory(league=dr_league, name="Season 1")


@pytest.fixture
def dr_fixture(dr_season):
    """An unplayed DreadBall fixture between two coaches with logins."""
    return FixtureFactory(
        round__season=dr_season,
        date=dr_season.start_date,  # not the round's: its number follows a global sequence

        home=EntryFactory(season=dr_season, coach__name="Dana", team="Voss Voltage"),
        away=EntryFactory(season=dr_season, coach__name="Tavi", team="Rell Riptide"),
    )


@pytest.fixture
def bystander(dr_season):
    """A coach of the same season who is not in the fixture."""
    return EntryFactory(season=dr_season, coach=CoachFactory(name="Bystander")).coach.user


@pytest.fixture
def outsider(db):
    """A coach with a login who plays in no league."""
    return CoachFactory(name="Outsider").user
