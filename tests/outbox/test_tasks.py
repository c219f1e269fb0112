"""The task queue (league/outbox/tasks.py) with its production backend, the database:
mail and webhook posts are queued in the write's own transaction, a failed send is
retried after a pause and each attempt recorded, and a worker killed mid-task
then restarted sends each message once. (Every other test runs tasks at once:
tests/conftest.py.)"""

from __future__ import annotations

import datetime
import logging
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.contrib.auth.models import User
from django.core import mail
from django.core.management import call_command
from django.db import OperationalError, connection, transaction
from django.urls import reverse
from django.utils import timezone
from django_tasks import TaskResultStatus
from django_tasks_db.management.commands.db_worker import Worker
from django_tasks_db.models import DBTaskResult

from league.outbox import notifications
from league.services import results as services
from league.outbox import tasks
from league.management.commands.run_tasks import requeue_stale
from league.models import Result
from tests.support.concurrency import POSTGRES_ONLY

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def database_queue(settings):
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    settings.TASK_BACKOFF_SCALE = 1


def work_the_queue() -> int:
    """What ``run_tasks`` does with each ready row, inside the test's transaction
    (the real worker takes a transaction of its own); how many it ran."""
    worker = Worker(queue_names=["*"], interval=0, batch=True, backend_name="default", startup_delay=False,
                    max_tasks=None, worker_id="test")
    rows = list(DBTaskResult.objects.ready())
    for row in rows:
        row.claim(worker.worker_id)
        worker.run_task(row)
    return len(rows)


def queue_one() -> None:
    """One message in the queue, as a write queues it."""
    notifications.send_email.enqueue(kind="result_reported", to="a@example.com", user_id=None, subject="S", text="B", html="")


@pytest.mark.django_db
def test_a_rolled_back_approval_queues_and_sends_nothing(
    database_queue, fixture, home_user, away_user, organiser, django_capture_on_commit_callbacks
):
    result = services.confirm_result(
        result=services.report_result(fixture=fixture, by=home_user, home_score=12, away_score=6), by=away_user
    )
    # The report's mail to the opponent, queued with the report (whose transaction
    # the test's own encloses: no on-commit callback ran).
    assert [row.args_kwargs["kwargs"]["to"] for row in DBTaskResult.objects.all()] == [fixture.away.coach.email]
    DBTaskResult.objects.all().delete()
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        with pytest.raises(RuntimeError), transaction.atomic():
            services.approve_result(result=result, by=organiser)
            raise RuntimeError("something later in the request fails")
    assert callbacks == [] and not DBTaskResult.objects.exists() and mail.outbox == []
    assert not Result.objects.get().is_approved
    # The same approval, committed: one mail task per coach and the game's ratings'
    # recomputation (RT-2), and no mail until a worker runs them.
    with django_capture_on_commit_callbacks(execute=True):
        services.approve_result(result=Result.objects.get(), by=organiser)
    assert sorted(DBTaskResult.objects.ready().values_list("task_path", flat=True)) == [
        "league.outbox.notifications.send_email", "league.outbox.notifications.send_email",
        "league.ratings.services.recompute_ratings",
    ] and mail.outbox == []
    assert work_the_queue() == 3
    assert sorted(m.to[0] for m in mail.outbox) == sorted([fixture.home.coach.email, fixture.away.coach.email])
    assert set(DBTaskResult.objects.values_list("status", flat=True)) == {TaskResultStatus.SUCCESSFUL}


@pytest.mark.django_db
def test_a_failed_send_is_recorded_and_retried_after_a_pause(database_queue, monkeypatch):
    calls = []
    real_send = notifications.EmailMultiAlternatives.send

    def refuse_once(message, *args, **kwargs):
        calls.append(message.to[0])
        if len(calls) == 1:
            raise ConnectionRefusedError("mail server down")
        return real_send(message, *args, **kwargs)

    monkeypatch.setattr(notifications.EmailMultiAlternatives, "send", refuse_once)
    queue_one()
    assert work_the_queue() == 1
    failed = DBTaskResult.objects.get(status=TaskResultStatus.FAILED)
    assert "mail server down" in failed.traceback and "retried" in failed.traceback
    retry = DBTaskResult.objects.get(status=TaskResultStatus.READY)
    assert retry.args_kwargs["kwargs"]["attempt"] == 2
    pause = retry.run_after - timezone.now()
    assert datetime.timedelta(seconds=tasks.BACKOFF_SECONDS[0] - 5) < pause <= datetime.timedelta(seconds=tasks.BACKOFF_SECONDS[0])
    assert work_the_queue() == 0 and mail.outbox == []  # not before its time
    DBTaskResult.objects.filter(pk=retry.pk).update(run_after=timezone.now())
    assert work_the_queue() == 1
    assert [m.to for m in mail.outbox] == [["a@example.com"]] and calls == ["a@example.com"] * 2
    retry.refresh_from_db()
    assert retry.status == TaskResultStatus.SUCCESSFUL and retry.return_value == "sent to a@example.com"


@pytest.mark.django_db
def test_a_message_that_keeps_failing_is_given_up_after_the_last_attempt(database_queue, monkeypatch, caplog):
    monkeypatch.setattr(notifications.EmailMultiAlternatives, "send", lambda *a, **k: 1 / 0)
    queue_one()
    for _ in range(tasks.ATTEMPTS):
        DBTaskResult.objects.filter(status=TaskResultStatus.READY).update(run_after=timezone.now())
        work_the_queue()
    assert DBTaskResult.objects.failed().count() == tasks.ATTEMPTS and not DBTaskResult.objects.ready().exists()
    assert "result_reported not sent: failed after 3 attempts: ZeroDivisionError" in caplog.text


@pytest.mark.django_db
def test_the_task_record_is_for_superusers_only(client, organiser, database_queue):
    queue_one()
    row = DBTaskResult.objects.get()
    changelist = reverse("admin:django_tasks_database_dbtaskresult_changelist")
    client.force_login(organiser)
    assert client.get(changelist).status_code == 403
    assert client.get(reverse("admin:django_tasks_database_dbtaskresult_change", args=[row.pk])).status_code == 403
    assert "Task Results" not in client.get(reverse("admin:index")).content.decode()
    client.force_login(User.objects.create_superuser("root", "root@example.com", "x"))
    page = client.get(changelist).content.decode()
    assert "send_email" in page and "Ready" in page


def _worker(env: dict[str, str], *args: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "manage.py", "run_tasks", "--interval", "0.1", *args],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )


@pytest.mark.usefixtures("database_queue")
@pytest.mark.parametrize("_", [None], ids=["subprocess"])
@POSTGRES_ONLY[0]
@POSTGRES_ONLY[1]
@POSTGRES_ONLY[2]
def test_a_worker_killed_mid_task_then_restarted_sends_each_message_once(_, tmp_path):
    db = connection.settings_dict
    env = {
        **os.environ,
        "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        "EMAIL_BACKEND": "tests.support.slow_mail.EmailBackend",
        "MAIL_DIR": str(tmp_path),
    }
    (tmp_path / "hold").touch()
    # Highest priority first: the first is sent, the worker is killed sending the second.
    for priority, address in ((10, "first@example.com"), (5, "slow@example.com"), (0, "third@example.com")):
        notifications.send_email.using(priority=priority).enqueue(
            kind="result_reported", to=address, user_id=None, subject="S", text="B", html=""
        )
    worker = _worker(env)
    try:
        deadline = time.monotonic() + 30
        while not (tmp_path / "started").exists():
            assert worker.poll() is None and time.monotonic() < deadline, worker.stderr.read()
            time.sleep(0.05)
        worker.send_signal(signal.SIGKILL)
        worker.wait(10)
    finally:
        if worker.poll() is None:
            worker.kill()
    assert (tmp_path / "sent.log").read_text().split() == ["first@example.com", "S"]
    assert DBTaskResult.objects.running().count() == 1  # left by the killed worker
    (tmp_path / "hold").unlink()
    restarted = _worker(env, "--batch", "--stale-after", "0")
    assert restarted.wait(60) == 0, restarted.stderr.read()
    sent = sorted(line.split()[0] for line in (tmp_path / "sent.log").read_text().splitlines())
    assert sent == ["first@example.com", "slow@example.com", "third@example.com"]
    assert DBTaskResult.objects.successful().count() == 3


@pytest.mark.django_db
def test_a_running_task_is_requeued_only_when_stale(database_queue):
    queue_one()
    row = DBTaskResult.objects.get()
    row.claim("gone")
    assert requeue_stale(django_settings.TASKS_STALE_AFTER) == 0  # a live worker may still be on it
    DBTaskResult.objects.update(started_at=timezone.now() - datetime.timedelta(hours=1))
    assert requeue_stale(django_settings.TASKS_STALE_AFTER) == 1
    assert DBTaskResult.objects.ready().count() == 1


@pytest.mark.django_db
def test_account_mails_are_queued_not_sent_in_the_request(client, database_queue, organiser, season):
    """An invitation, an address to confirm and a password reset are tasks
    like every mail: the request writes their rows and sends nothing; the worker does."""
    User.objects.create_user("pat", "pat@example.org", "pat-password-1")
    assert client.post(reverse("password_reset"), {"email": "pat@example.org"}).status_code == 302
    client.force_login(organiser)
    client.post(reverse("league:organiser_coaches", args=[season.league.slug]), {"name": "Queued", "email": "q@example.org"})
    assert not mail.outbox
    queued = sorted(row.args_kwargs["kwargs"]["kind"] for row in DBTaskResult.objects.ready())
    assert queued == ["invitation", "password_reset"]
    assert work_the_queue() == 2
    assert sorted(message.to[0] for message in mail.outbox) == ["pat@example.org", "q@example.org"]
    assert any(message.subject == f"You are invited to {season.league.name}" for message in mail.outbox)


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_the_worker_waits_out_a_database_outage_and_then_delivers(database_queue, settings, caplog):
    """A database that stops answering for a while does not end ``run_tasks``: every
    query fails for about 1.5 s (as during a restart), the worker logs it, waits and
    tries again, and the message queued before the outage is sent afterwards."""
    settings.TASK_BACKOFF_SCALE = 0.2
    queue_one()
    back_at = time.monotonic() + 1.5
    refused = []

    def unavailable(execute, sql, params, many, context):
        if time.monotonic() < back_at:
            refused.append(sql)
            raise OperationalError("server closed the connection unexpectedly")
        return execute(sql, params, many, context)

    with connection.execute_wrapper(unavailable), caplog.at_level(logging.WARNING, logger="league.management.commands.run_tasks"):
        call_command("run_tasks", "--batch", "--interval", "0")
    assert refused, "the outage was never met"
    assert [message.to for message in mail.outbox] == [["a@example.com"]]
    assert DBTaskResult.objects.successful().count() == 1
    waits = [record.getMessage() for record in caplog.records if "database is unavailable" in record.getMessage()]
    assert len(waits) >= 2 and "trying again in 0.2 s" in waits[0] and "trying again in 0.4 s" in waits[1]
