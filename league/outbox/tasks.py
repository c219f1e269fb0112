"""Slow or outside work (mail, webhook posts) as tasks: django-tasks, the
backport of Django 6's ``django.tasks``, with its database backend
(``django_tasks_db``) as the default, so a queued message is a row that survives
the web worker that queued it.

An outbox, as healthchecks keeps one: a task caused by a write is queued with it
(``enqueue_with_write``), its row written in the write's own transaction, so it
commits with the write (no crash after the commit can lose it) or rolls back with it
(a refused or rolled-back write queues nothing). ``python manage.py run_tasks``
works the queue beside gunicorn (README, Production); each worker claims its row
under a lock other workers skip, so several workers run each task once. Each attempt is a row in the task table, with
what it did (its return value: "sent to ...") or why it failed (the exception and
its traceback), read by superusers in the admin. A failure worth repeating (a
network error, a 5xx, a mail server's refusal) queues the next attempt after a
growing pause, up to ``ATTEMPTS``; a final failure is logged.
"""

from __future__ import annotations

import datetime
import logging
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django_tasks.base import Task
from django_tasks_db.backend import DatabaseBackend

ATTEMPTS = 3
BACKOFF_SECONDS = (60.0, 600.0)  # pause before the 2nd and the 3rd attempt, times TASK_BACKOFF_SCALE


class Refused(Exception):
    """A failure another attempt cannot change (an address the receiver refuses):
    recorded, not retried."""


class AttemptFailed(Exception):
    """This attempt failed; the next one is queued (the task's row keeps why)."""


def enqueue_with_write(task: Task, **kwargs: Any) -> None:
    """Queue ``task`` as part of the current write. The database backend writes its
    row now, in the write's transaction: the task commits or rolls back with the
    write, and a queue that cannot be written fails the write like any of its rows.

    A backend that keeps nothing in this database (the tests' immediate one, which
    runs the task as it is queued) cannot be rolled back, so it is handed the task
    once the write commits; ``robust``: a failure there is logged by Django, never
    raised into the request whose write has already committed."""
    if isinstance(task.get_backend(), DatabaseBackend):
        task.enqueue(**kwargs)
    else:
        transaction.on_commit(lambda: task.enqueue(**kwargs), robust=True)


def retry_or_give_up(
    task: Task, kwargs: dict[str, Any], *, attempt: int, problem: str, logger: logging.Logger, what: str
) -> None:
    """After attempt number ``attempt`` failed with ``problem``: queue the next one
    after a pause (the queue's ``run_after``; a backend that cannot defer runs it at
    once), or log the final failure. Raises either way, so the task's row records
    this attempt as failed with the reason."""
    if attempt >= ATTEMPTS:
        logger.error("%s: failed after %d attempts: %s", what, ATTEMPTS, problem)
        raise AttemptFailed(f"gave up after {ATTEMPTS} attempts: {problem}")
    pause = BACKOFF_SECONDS[min(attempt - 1, len(BACKOFF_SECONDS) - 1)] * settings.TASK_BACKOFF_SCALE
    following = task
    if task.get_backend().supports_defer and pause > 0:
        following = task.using(run_after=timezone.now() + datetime.timedelta(seconds=pause))
    following.enqueue(**{**kwargs, "attempt": attempt + 1})
    raise AttemptFailed(f"attempt {attempt} of {ATTEMPTS} failed, retried in {pause:g} s: {problem}")
