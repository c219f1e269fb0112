"""Rate limits every process counts alike: sign-ups per network address, per email
address and per join link, password-reset mails, address confirmations and new
leagues.

The counts are rows of the database, not entries of a per-process cache: with two
gunicorn workers and the default local-memory cache, each worker counted its own,
so a limit of 10 let 20 through. A count is one row per kind and key (the key's
SHA-256, so no address is stored), raised by one statement, so two requests at
once in two processes cannot both take the last place. A window starts with its
first count and lasts ``WINDOW``; ``run_tasks`` deletes rows whose window ended.
"""

from __future__ import annotations

import datetime
import hashlib

from django.db import connection, models
from django.utils import timezone
from django.utils.dateparse import parse_datetime

WINDOW = datetime.timedelta(hours=1)


class Throttle(models.Model):
    """How many times ``kind`` happened for one key since ``started``. One of the
    ``league`` app's models (league/models/__init__.py imports it)."""

    kind = models.CharField(max_length=40)
    key = models.CharField(max_length=64, help_text="The SHA-256 of what is counted (an address, an account).")
    started = models.DateTimeField()
    count = models.PositiveIntegerField()

    class Meta:
        app_label = "league"
        constraints = [models.UniqueConstraint(fields=["kind", "key"], name="throttle_one_count_per_key")]

    def __str__(self) -> str:
        return f"{self.kind}: {self.count} since {self.started:%Y-%m-%d %H:%M}"


def within_limit(kind: str, key: str, limit: int, *, window: datetime.timedelta = WINDOW) -> bool:
    """Count one more ``kind`` for ``key`` in its current window: is it within ``limit``?"""
    return count(kind, key, 1, window=window)[0] <= limit


def count(kind: str, key: str, amount: int, *, window: datetime.timedelta = WINDOW) -> tuple[int, datetime.datetime]:
    """Add ``amount`` to the count of ``kind`` for ``key`` in its current window:
    the count now, and when the window started.

    One statement, an upsert: the first count of a window inserts the row, later
    ones raise it, and a window that has ended starts again at ``amount``. The
    database serialises two requests on the one row, so both are counted; and a
    request costs the same one query whether or not its key was counted before
    (the API's endpoints cost the same at any size, tests/api)."""
    digest = hashlib.sha256(key.encode()).hexdigest()
    now = timezone.now()
    ops = connection.ops
    table, q = Throttle._meta.db_table, ops.quote_name
    ended = ops.adapt_datetimefield_value(now - window)
    sql = (
        f"INSERT INTO {q(table)} ({q('kind')}, {q('key')}, {q('started')}, {q('count')}) VALUES (%s, %s, %s, %s) "
        f"ON CONFLICT ({q('kind')}, {q('key')}) DO UPDATE SET "
        f"{q('count')} = CASE WHEN {q(table)}.{q('started')} <= %s THEN %s ELSE {q(table)}.{q('count')} + %s END, "
        f"{q('started')} = CASE WHEN {q(table)}.{q('started')} <= %s THEN EXCLUDED.{q('started')} "
        f"ELSE {q(table)}.{q('started')} END "
        f"RETURNING {q('count')}, {q('started')}"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [kind, digest, ops.adapt_datetimefield_value(now), amount, ended, amount, amount, ended])
        total, started = cursor.fetchone()
    return total, _aware(started)


def _aware(value) -> datetime.datetime:
    """A ``started`` read back by the raw cursor: SQLite gives the stored text (UTC)."""
    if isinstance(value, str):
        value = parse_datetime(value)
    if timezone.is_naive(value):
        value = timezone.make_aware(value, datetime.timezone.utc)
    return value


def purge(*, window: datetime.timedelta = WINDOW) -> int:
    """Delete the counts whose window has ended; how many."""
    return Throttle.objects.filter(started__lte=timezone.now() - window).delete()[0]


def seconds_left(kind: str, key: str, *, window: datetime.timedelta = WINDOW) -> int:
    """Seconds until the current window of ``kind`` for ``key`` ends (at least 1):
    what a refused request is told to wait (a ``Retry-After``)."""
    digest = hashlib.sha256(key.encode()).hexdigest()
    started = Throttle.objects.filter(kind=kind, key=digest).values_list("started", flat=True).first()
    if started is None:
        return 1
    return max(1, int((started + window - timezone.now()).total_seconds()) + 1)
