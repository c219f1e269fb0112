"""A task row names its function by dotted path. Rows queued before a task moved
name the old path: a data migration points every row yet to run at the new one,
and the worker then runs it; a finished row keeps the path it ran under. Mail and
webhooks moved into league/outbox/ (league 0019), the league's webhooks then into
league/events/ beside the subscriptions they post for (events 0003)."""

from __future__ import annotations

import importlib
from types import SimpleNamespace

import pytest
from django.core import mail
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django_tasks import TaskResultStatus
from django_tasks_db.management.commands.db_worker import Worker
from django_tasks_db.models import DBTaskResult, get_date_max

from league.events import webhooks
from league.outbox import notifications

MIGRATION = "0019_task_paths_in_outbox"
migration = importlib.import_module(f"league.migrations.{MIGRATION}")
EVENTS_MIGRATION = "0003_webhook_tasks_in_events"
events_migration = importlib.import_module(f"league.events.migrations.{EVENTS_MIGRATION}")

pytestmark = pytest.mark.django_db


@pytest.fixture
def database_queue(settings):
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}


def queued(path: str, status: str = TaskResultStatus.READY, **kwargs) -> DBTaskResult:
    """A row as django-tasks' database backend writes it."""
    return DBTaskResult.objects.create(
        task_path=path, status=status, args_kwargs={"args": [], "kwargs": kwargs},
        backend_name="default", run_after=get_date_max(),
    )


def run_migration(direction: str, app: str = "league", name: str = MIGRATION, module=migration) -> None:
    """The migration's step, with the models as they are at that migration."""
    apps = MigrationExecutor(connection).loader.project_state((app, name)).apps
    getattr(module, direction)(apps, SimpleNamespace(connection=connection))


def test_rows_yet_to_run_are_pointed_at_the_moved_tasks_and_then_run(database_queue):
    mail_kwargs = {"kind": "result_reported", "to": "rage@example.com", "user_id": None,
                   "subject": "Velocity reported", "text": "12 – 6", "html": ""}
    waiting = queued("league.notifications.send_email", **mail_kwargs)
    post = queued("league.webhooks.post", url="https://hooks.example.org/league", body="{}", headers={})
    left_running = queued("league.notifications.send_email", status=TaskResultStatus.RUNNING, **mail_kwargs)
    finished = queued("league.notifications.send_email", status=TaskResultStatus.SUCCESSFUL, **mail_kwargs)

    run_migration("forwards")

    paths = dict(DBTaskResult.objects.values_list("pk", "task_path"))
    assert paths == {
        waiting.pk: "league.outbox.notifications.send_email",
        post.pk: "league.outbox.webhooks.post",
        left_running.pk: "league.outbox.notifications.send_email",
        finished.pk: "league.notifications.send_email",
    }
    run_migration("forwards", "events", EVENTS_MIGRATION, events_migration)
    post.refresh_from_db()
    assert post.task_path == "league.events.webhooks.post"
    assert post.task.func is webhooks.post.func  # the path names the task again
    row = DBTaskResult.objects.get(pk=waiting.pk)
    row.claim("test")
    Worker(queue_names=["*"], interval=0, batch=True, backend_name="default", startup_delay=False,
           max_tasks=None, worker_id="test").run_task(row)
    row.refresh_from_db()
    assert row.status == TaskResultStatus.SUCCESSFUL and row.return_value == "sent to rage@example.com"
    assert [(m.to, m.subject) for m in mail.outbox] == [(["rage@example.com"], "Velocity reported")]
    assert notifications.send_email.module_path == "league.outbox.notifications.send_email"


def test_going_back_points_rows_yet_to_run_at_the_old_paths():
    row = queued("league.outbox.webhooks.post", url="https://hooks.example.org/league", body="{}", headers={})
    done = queued("league.outbox.webhooks.post", status=TaskResultStatus.FAILED, url="x", body="{}", headers={})
    run_migration("backwards")
    row.refresh_from_db(), done.refresh_from_db()
    assert (row.task_path, done.task_path) == ("league.webhooks.post", "league.outbox.webhooks.post")


def test_webhook_rows_yet_to_run_follow_the_move_into_events_and_back():
    announce = queued("league.outbox.webhooks.announce", season_id=1, line="", link="", event={}, discord="",
                      signed="")
    post = queued("league.outbox.webhooks.post", url="https://hooks.example.org/league", body="{}", headers={})
    done = queued("league.outbox.webhooks.post", status=TaskResultStatus.SUCCESSFUL, url="x", body="{}", headers={})
    run_migration("forwards", "events", EVENTS_MIGRATION, events_migration)
    paths = dict(DBTaskResult.objects.values_list("pk", "task_path"))
    assert paths == {announce.pk: "league.events.webhooks.announce", post.pk: "league.events.webhooks.post",
                     done.pk: "league.outbox.webhooks.post"}
    announce.refresh_from_db()
    assert announce.task.func is webhooks.announce.func
    run_migration("backwards", "events", EVENTS_MIGRATION, events_migration)
    assert DBTaskResult.objects.get(pk=post.pk).task_path == "league.outbox.webhooks.post"
