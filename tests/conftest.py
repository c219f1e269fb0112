import pytest

from league.permissions import make_organiser
from tests.support.factories import (
    PASSWORD,
    CoachFactory,
    EntryFactory,
    FixtureFactory,
    LeagueFactory,
    SeasonFactory,
    UserFactory,
)


@pytest.fixture
def password():
    return PASSWORD


@pytest.fixture
def organiser(db):
    """A staff user in the Organisers group who runs ``league``."""
    user = UserFactory(username="longshanks")
    make_organiser(user)
    return user


@pytest.fixture
def other_organiser(db):
    user = UserFactory(username="rival")
    make_organiser(user)
    return user


@pytest.fixture
def league(organiser):
    return LeagueFactory(name="Midlands Big League", slug="midlands", organisers=[organiser])


@pytest.fixture
def season(league):
    return SeasonFactory(league=league, name="Season 1")


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


@pytest.fixture(autouse=True)
def _tasks_run_at_once(settings):
    """Mail and webhook tasks (league/outbox/tasks.py) run when queued, in the test's own
    process: django-tasks' immediate backend, and no pause between attempts. The
    tests of the queue itself (tests/outbox/test_tasks.py) use the database backend."""
    settings.TASKS = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend"}}
    settings.TASK_BACKOFF_SCALE = 0


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    """PBKDF2 is deliberately slow; tests create many users."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _no_rate_leases():
    """The API's rate limit holds blocks of its count per process
    (league/api/access.py ``Leases``): each test starts holding none, as its
    database starts without their counts."""
    from league.api.access import rate_limit

    rate_limit.leases.forget()


@pytest.fixture(autouse=True)
def _empty_cache():
    """Cached pages are keyed by a season's version; each test starts cold."""
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


@pytest.fixture(autouse=True)
def _bulk_writes_bump_their_seasons(monkeypatch):
    """Every bulk write of a tracked model by the site's code is followed by a version
    bump (tests/support/bulk_writes.py): a page is never left stale by a write that sends
    no signal."""
    from tests.support.bulk_writes import Guard

    guard = Guard()
    guard.watch(monkeypatch)
    yield guard
    if guard.unbumped:
        pytest.fail("Bulk writes of tracked models with no version bump after them: " + "; ".join(guard.unbumped))
