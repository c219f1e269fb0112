import pytest

from league.permissions import make_organiser
from tests.factories import PASSWORD, LeagueFactory, SeasonFactory, UserFactory


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


@pytest.fixture(autouse=True)
def _tasks_run_at_once(settings):
    """Mail and webhook tasks (league/outbox/tasks.py) run when queued, in the test's own
    process: django-tasks' immediate backend, and no pause between attempts. The
    tests of the queue itself (tests/league/test_tasks.py) use the database backend."""
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
    bump (tests/bulk_writes.py): a page is never left stale by a write that sends
    no signal."""
    from tests.bulk_writes import Guard

    guard = Guard()
    guard.watch(monkeypatch)
    yield guard
    if guard.unbumped:
        pytest.fail("Bulk writes of tracked models with no version bump after them: " + "; ".join(guard.unbumped))
