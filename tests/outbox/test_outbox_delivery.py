"""The outbox (league/outbox/tasks.py) as it runs in production: real processes,
real commits, the database backend, ``manage.py run_tasks``.

- A process that stops right after a write commits, before any on-commit callback
  runs, loses none of the mail and webhook posts the write caused: their rows
  were written in its transaction, and a worker started later delivers them.
- Two workers draining one PostgreSQL queue deliver each message exactly once:
  each claims its row under a lock the other skips (SELECT ... FOR UPDATE SKIP
  LOCKED in django-tasks' db_worker)."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest
from django.db import connection
from django_tasks import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from league.outbox import notifications
from tests.support.concurrency import POSTGRES_ONLY
from tests.support.receiver import Receiver

ROOT = Path(__file__).resolve().parents[2]

# A fresh interpreter on its own SQLite file: migrate, make a league with a webhook
# and a result both coaches agreed on, then approve it in a transaction whose first
# on-commit callback ends the process at once (os._exit skips every later callback,
# and what is not flushed), where a crash or a SIGKILL after the commit would.
APPROVE_THEN_STOP = r"""
import json, os
import django
django.setup()
from django.core.management import call_command
from django.db import transaction

call_command("migrate", verbosity=0)

from league.permissions import make_organiser
from league.services import results as services
from tests.support.factories import FixtureFactory, LeagueFactory, SeasonFactory, UserFactory

organiser = UserFactory(username="longshanks")
make_organiser(organiser)
league = LeagueFactory(name="Midlands Big League", slug="midlands", organisers=[organiser])
league.discord_webhook = os.environ["WEBHOOK_URL"]  # through the ORM: the form takes Discord's own addresses only
league.save(update_fields=["discord_webhook"])
season = SeasonFactory(league=league, name="Season 1")
fixture = FixtureFactory(round__season=season, date=season.start_date, home__coach__name="Velocity", away__coach__name="Rage")
result = services.report_result(fixture=fixture, by=fixture.home.coach.user, home_score=12, away_score=6)
result = services.confirm_result(result=result, by=fixture.away.coach.user)
print(json.dumps({"home": fixture.home.coach.email, "away": fixture.away.coach.email}), flush=True)
with transaction.atomic():
    transaction.on_commit(lambda: os._exit(0))  # first in line: nothing queued on commit would run
    services.approve_result(result=result, by=organiser)
print("the process went on after the commit", flush=True)
os._exit(3)
"""


def sqlite_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if key not in {"DATABASE_URL", "DEBUG", "SECRET_KEY"}}
    return {
        **env,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'outbox.sqlite3'}",
        "DJANGO_SETTINGS_MODULE": "tests.settings",
        "CHANGE_MARK_FILE": str(tmp_path / "change.mark"),
        "EMAIL_BACKEND": "tests.support.slow_mail.EmailBackend",  # each message a line of MAIL_DIR/sent.log
        "MAIL_DIR": str(tmp_path),
        **extra,
    }


def sent(tmp_path: Path) -> list[str]:
    """The addresses of the messages sent, in the order sent."""
    log = tmp_path / "sent.log"
    return [line.split()[0] for line in log.read_text().splitlines()] if log.exists() else []


def test_a_process_stopped_after_the_commit_loses_no_mail_and_no_webhook_post(tmp_path):
    with Receiver() as receiver:
        # The worker posts to the local receiver: the test-only setting, through its environment.
        env = sqlite_env(tmp_path, WEBHOOK_URL=receiver.url, WEBHOOKS_ALLOW_LOOPBACK="1")
        done = subprocess.run(
            [sys.executable, "-c", APPROVE_THEN_STOP], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
        )
        assert done.returncode == 0 and "went on" not in done.stdout, done.stdout + done.stderr
        coaches = json.loads(done.stdout.splitlines()[-1])
        assert sent(tmp_path) == [] and receiver.bodies == []  # nothing ran in the stopped process
        with sqlite3.connect(tmp_path / "outbox.sqlite3") as db:
            approved = db.execute("SELECT status FROM league_result").fetchall()
            waiting = db.execute(
                "SELECT task_path FROM django_tasks_database_dbtaskresult WHERE status = 'READY'"
            ).fetchall()
        assert approved == [("approved",)]
        # The report's mail to the opponent, the approval's to both coaches, the
        # webhook's announcement and the game's ratings' recomputation (RT-2): all
        # committed with their writes.
        assert Counter(path for (path,) in waiting) == {
            "league.outbox.notifications.send_email": 3, "league.events.webhooks.announce": 1,
            "league.ratings.services.recompute_ratings": 1,
        }
        worker = subprocess.run(
            [sys.executable, "manage.py", "run_tasks", "--batch", "--interval", "0.1"],
            cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
        )
        assert worker.returncode == 0, worker.stderr
    assert sorted(sent(tmp_path)) == sorted([coaches["away"], coaches["home"], coaches["away"]])
    with sqlite3.connect(tmp_path / "outbox.sqlite3") as db:
        assert db.execute("SELECT COUNT(*) FROM ratings_rating").fetchone() == (2,)
        assert db.execute("SELECT pending_since FROM ratings_ratedgame WHERE game_system = 'guildball'").fetchone() == (None,)
    assert len(receiver.bodies) == 1
    assert "Velocity v Rage" in receiver.bodies[0]["content"]
    assert "Top of the table:\n1. Velocity — 3 LP" in receiver.bodies[0]["content"]


@pytest.fixture
def database_queue(settings):
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}


@pytest.mark.usefixtures("database_queue")
@pytest.mark.parametrize("_", [None], ids=["two-processes"])
@POSTGRES_ONLY[0]
@POSTGRES_ONLY[1]
@POSTGRES_ONLY[2]
def test_two_workers_on_one_database_deliver_each_message_once(_, tmp_path):
    db = connection.settings_dict
    env = {
        **os.environ,
        "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        "EMAIL_BACKEND": "tests.support.slow_mail.EmailBackend",
        "MAIL_DIR": str(tmp_path),
    }
    addresses = [f"slow-{n:02d}@example.com" for n in range(40)]
    for address in addresses:
        notifications.send_email.enqueue(kind="result_reported", to=address, user_id=None, subject="S", text="B", html="")
    # A message to a "slow" address waits while MAIL_DIR/hold exists (tests/support/slow_mail.py):
    # each worker's first message holds it until both have one, so they drain together.
    (tmp_path / "hold").touch()
    workers = [
        subprocess.Popen(
            [sys.executable, "manage.py", "run_tasks", "--batch", "--interval", "0.05"],
            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
        )
        for _ in range(2)
    ]
    try:
        deadline = time.monotonic() + 120
        while DBTaskResult.objects.running().count() < 2:
            assert all(w.poll() is None for w in workers), [w.stderr.read() for w in workers if w.poll() is not None]
            assert time.monotonic() < deadline, "the two workers never held a message each"
            time.sleep(0.05)
        (tmp_path / "hold").unlink()
        for worker in workers:
            assert worker.wait(120) == 0, worker.stderr.read()
    finally:
        for worker in workers:
            if worker.poll() is None:
                worker.kill()
    assert sorted(sent(tmp_path)) == addresses  # each once
    rows = list(DBTaskResult.objects.all())
    assert len(rows) == 40 and {row.status for row in rows} == {TaskResultStatus.SUCCESSFUL}
    assert all(len(row.worker_ids) == 1 for row in rows)  # none claimed twice
    assert len({row.worker_ids[0] for row in rows}) == 2  # both workers took part
