"""Rate limits every process counts alike: sign-ups per network address, per email
address and per join link, password-reset mails, address confirmations and new
leagues.

The counts are rows of the database, not entries of a per-process cache: with two
gunicorn workers and the default local-memory cache, each worker counted its own,
so a limit of 10 let 20 through. A count is one row per kind and key (the key's
SHA-256, so no address is stored), locked while it is raised, so two requests at
once in two processes cannot both take the last place. A window starts with its
first count and lasts ``WINDOW``; ``run_tasks`` deletes rows whose window ended.
"""

from __future__ import annotations

import datetime
import hashlib

from django.db import models, transaction
from django.utils import timezone

WINDOW = datetime.timedelta(hours=1)


class Throttle(models.Model):
    """How many times ``kind`` happened for one key since ``started``. One of the
    ``league`` app's models (league/models.py imports it)."""

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
    digest = hashlib.sha256(key.encode()).hexdigest()
    now = timezone.now()
    with transaction.atomic():
        row, created = Throttle.objects.select_for_update().get_or_create(
            kind=kind, key=digest, defaults={"started": now, "count": 1}
        )
        if not created:
            if row.started <= now - window:
                row.started, row.count = now, 1
            else:
                row.count += 1
            row.save(update_fields=["started", "count"])
    return row.count <= limit


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
