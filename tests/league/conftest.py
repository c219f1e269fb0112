import pytest

from tests.factories import CoachFactory, EntryFactory, FixtureFactory


@pytest.fixture
def fixture(season):
    """An unplayed fixture of ``season`` between two coaches with logins."""
    # Dated at the season's start, not at its round's: the round number follows a
    # global sequence, and a report for a date in the future asks for a warning.
    return FixtureFactory(
        round__season=season, date=season.start_date, home__coach__name="Velocity", away__coach__name="Rage"
    )


@pytest.fixture
def home_user(fixture):
    return fixture.home.coach.user


@pytest.fixture
def away_user(fixture):
    return fixture.away.coach.user


@pytest.fixture
def wrong_coach_user(season):
    """A coach of the same season who is not in the fixture."""
    return EntryFactory(season=season, coach=CoachFactory(name="Bystander")).coach.user
