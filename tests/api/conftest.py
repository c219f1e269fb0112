from __future__ import annotations

import pytest

from league.api import tokens
from tests.support.factories import CoachFactory, EntryFactory, FixtureFactory, LeagueFactory, SeasonFactory

ALL_SCOPES = ("read", "report", "organise")


def bearer(user, *scopes: str) -> dict[str, str]:
    """Headers with a new token of ``user`` holding ``scopes``."""
    _, whole = tokens.create_token(user=user, name="test", scopes=list(scopes))
    return {"Authorization": f"Bearer {whole}"}


@pytest.fixture
def gb_fixture(season):
    """A Guild Ball fixture of ``season`` between two coaches with logins, dated in the past."""
    return FixtureFactory(
        round__season=season, date=season.start_date,
        home=EntryFactory(season=season, coach__name="Ada"), away=EntryFactory(season=season, coach__name="Brin"),
    )


@pytest.fixture
def bystander(season):
    """A coach of the same season who is not in the fixture."""
    return EntryFactory(season=season, coach=CoachFactory(name="Bystander")).coach.user


@pytest.fixture
def rival_league(other_organiser):
    league = LeagueFactory(name="Rival League", slug="rival", organisers=[other_organiser])
    SeasonFactory(league=league)
    return league



def rows() -> tuple[int, ...]:
    """Every table's row count but the rate limit's counters (league/throttle.py):
    what a refused request must leave as it was."""
    from tests.support.world import row_counts

    return row_counts()
