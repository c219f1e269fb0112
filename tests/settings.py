"""The project's settings plus what exists only for the tests: Ringball, a fourth
game (tests/fourth_game), installed as any game app is, to prove a game plugs in
without touching the engine; and the change mark on for every run."""

import os
import tempfile

from league.settings import *  # noqa: F403

INSTALLED_APPS = [*INSTALLED_APPS, "tests.fourth_game"]  # noqa: F405

# The change mark (league/caching/change_mark.py) is on in every test run, on both
# databases. A file of this run's own in the temporary directory (another run's
# writes would make a test that counts a warm page's queries see one), put in the
# environment so the processes a test starts share it.
CHANGE_MARK_FILE = os.environ.setdefault(
    "CHANGE_MARK_FILE", os.path.join(tempfile.gettempdir(), f"league-tests-change-{os.getpid()}.mark")
)

# Every test client comes from one address, and the crawls, the schema tests and the
# fuzzing read the API far faster than a person: the API's limits are lifted here,
# and tests/api/test_rate_limits.py sets its own small ones to drive the 429.
API_ANONYMOUS_RATE = 1_000_000
API_TOKEN_RATE = 1_000_000

# A process a test starts (manage.py run_tasks) posts to the test's local receiver
# on 127.0.0.1 only when the test says so in its environment (league/outbox/addresses.py).
WEBHOOKS_ALLOW_LOOPBACK = os.environ.get("WEBHOOKS_ALLOW_LOOPBACK") == "1"
