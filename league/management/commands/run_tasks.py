"""Work the task queue (league/outbox/tasks.py) beside gunicorn: django-tasks'
``db_worker``, after putting back in the queue what a killed worker left running.

A worker killed mid-task (SIGKILL, a lost machine) leaves its task's row marked
running, and ``db_worker`` never takes a running task again. Such a row older than
``--stale-after`` seconds (``TASKS_STALE_AFTER``, longer than any mail or webhook
attempt takes) is made ready again, so nothing queued is lost. Each message is its
own task and a finished task is never run again, so each message goes once (but
for one killed between the mail server's acceptance and the row's update). Any
number of workers may share the queue: ``db_worker`` claims a row in a transaction
that locks it (``SELECT ... FOR UPDATE SKIP LOCKED`` on PostgreSQL, an exclusive
transaction on SQLite), so two workers never take the same row
(tests/league/test_outbox_delivery.py). It also
purges the result forms' used submission keys that can no longer be sent
(league/web/idempotency.py).
"""

from __future__ import annotations

import datetime

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand
from django.utils import timezone
from django_tasks import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from league.web import idempotency


def requeue_stale(older_than: float) -> int:
    """Make the running tasks started more than ``older_than`` seconds ago ready
    again; how many."""
    cutoff = timezone.now() - datetime.timedelta(seconds=older_than)
    return DBTaskResult.objects.filter(status=TaskResultStatus.RUNNING, started_at__lte=cutoff).update(
        status=TaskResultStatus.READY, started_at=None
    )


class Command(BaseCommand):
    help = "Work the mail and webhook queue (django-tasks' db_worker), after requeueing what a killed worker left."

    def add_arguments(self, parser):
        parser.add_argument("--stale-after", type=float, default=None, help="seconds (default: TASKS_STALE_AFTER)")
        parser.add_argument("--batch", action="store_true", help="work what is ready, then exit")
        parser.add_argument("--interval", type=float, default=1.0, help="seconds between looks at an empty queue")

    def handle(self, *, stale_after, batch, interval, verbosity, **options):
        stale_after = settings.TASKS_STALE_AFTER if stale_after is None else stale_after
        if count := requeue_stale(stale_after):
            self.stdout.write(f"Requeued {count} task(s) a stopped worker left running.")
        idempotency.purge()  # the used form keys no longer valid
        worker_options = {"interval": interval, "startup_delay": False, "reload": False, "verbosity": verbosity}
        call_command("db_worker", batch=batch, **worker_options)
