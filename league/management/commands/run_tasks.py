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
(tests/outbox/test_outbox_delivery.py). It also queues the recomputation of a
game's ratings that still wait for one (its task gave up, or was lost:
league/ratings/services.py ``queue_waiting``) and purges the result forms' used
submission keys that can no longer be sent
(league/idempotency.py) and the rate limits' counts whose window has ended
(league/throttle.py).

A database that stops answering (a restart, a failover, a lost network) does not
end the worker: it logs the error, closes its connections, waits (1, 2, 5, 10, then
every 30 seconds, scaled by ``TASK_BACKOFF_SCALE``) and starts again, requeueing and
purging as at start, so mail queued before and during the outage goes out once the
database is back. Only a signal (Ctrl-C, SIGTERM) stops it.
"""

from __future__ import annotations

import datetime
import logging
import time

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand
from django.db import InterfaceError, OperationalError, connections
from django.utils import timezone
from django_tasks import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from league import throttle
from league.ratings import services as ratings
from league import idempotency

logger = logging.getLogger(__name__)

#: Seconds between tries while the database is unavailable: the last one repeats.
RECONNECT_PAUSES = (1.0, 2.0, 5.0, 10.0, 30.0)
#: A run that lasted this long had the database back: the next outage starts the
#: pauses again from the first.
RECOVERED_AFTER = 60.0


def requeue_stale(older_than: float) -> int:
    """Make the running tasks started more than ``older_than`` seconds ago ready
    again; how many."""
    cutoff = timezone.now() - datetime.timedelta(seconds=older_than)
    return DBTaskResult.objects.filter(status=TaskResultStatus.RUNNING, started_at__lte=cutoff).update(
        status=TaskResultStatus.READY, started_at=None
    )


class Command(BaseCommand):
    help = ("Work the task queue (mail, webhooks, ratings; django-tasks' db_worker), after requeueing what a "
            "killed worker left.")

    def add_arguments(self, parser):
        parser.add_argument("--stale-after", type=float, default=None, help="seconds (default: TASKS_STALE_AFTER)")
        parser.add_argument("--batch", action="store_true", help="work what is ready, then exit")
        parser.add_argument("--interval", type=float, default=1.0, help="seconds between looks at an empty queue")

    def handle(self, *, stale_after, batch, interval, verbosity, **options):
        stale_after = settings.TASKS_STALE_AFTER if stale_after is None else stale_after
        outages = 0
        while True:
            started = time.monotonic()
            try:
                self.work(stale_after=stale_after, batch=batch, interval=interval, verbosity=verbosity)
                return
            except (OperationalError, InterfaceError) as error:
                if time.monotonic() - started >= RECOVERED_AFTER:
                    outages = 0
                pause = RECONNECT_PAUSES[min(outages, len(RECONNECT_PAUSES) - 1)] * settings.TASK_BACKOFF_SCALE
                outages += 1
                logger.warning("The database is unavailable (%s); trying again in %g s.", error, pause)
                connections.close_all()
                time.sleep(pause)

    def work(self, *, stale_after: float, batch: bool, interval: float, verbosity: int) -> None:
        if count := requeue_stale(stale_after):
            self.stdout.write(f"Requeued {count} task(s) a stopped worker left running.")
        if waiting := ratings.queue_waiting():
            self.stdout.write(f"Queued the ratings of {', '.join(waiting)}, still waiting for a recomputation.")
        idempotency.purge()  # the used form keys no longer valid
        throttle.purge()  # the rate limits' counts whose hour has ended
        worker_options = {"interval": interval, "startup_delay": False, "reload": False, "verbosity": verbosity}
        call_command("db_worker", batch=batch, **worker_options)
