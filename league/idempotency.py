"""A write sent again is done once: the one mechanism behind the site's result forms
(league/web/idempotency.py: a signed key in a hidden field) and the API's writes
(league/apitokens/endpoints.py: an ``Idempotency-Key`` header).

Each door turns what the client sent into a ``key`` (at most 64 characters) and
runs its step through :func:`once`:

- the first accepted answer with a key is recorded (``IdempotencyKey``) in the
  same transaction as the write it allowed, after it, so two copies sent at once
  cannot both write: the second's key meets the first's on the unique index (or its
  step finds the write done and refuses), its transaction is rolled back, and it is
  answered as a replay of the first;
- a refused answer uses nothing up: the client may correct what it sent and send
  it again with the same key;
- a key already used is answered by the door's ``replay`` with the stored row when
  the same user used it at the same path, with None when not (the door refuses).

Rows are kept ``IDEMPOTENCY_KEY_DAYS``, as long as a form's key is valid, then
deleted by :func:`purge` (``purge_idempotency_keys``, ``run_tasks``).
"""

from __future__ import annotations

import datetime
from collections.abc import Callable
from typing import NamedTuple, TypeVar

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from league.models import IdempotencyKey

Answer = TypeVar("Answer")


class Outcome(NamedTuple):
    """What an accepted answer leaves to replay: its status and where it led."""

    status: int
    location: str


def lifetime() -> datetime.timedelta:
    return datetime.timedelta(days=settings.IDEMPOTENCY_KEY_DAYS)


def once(*, key: str, user, path: str, step: Callable[[], Answer], accepted: Callable[[Answer], Outcome | None],
         replay: Callable[[IdempotencyKey | None], Answer]) -> Answer:
    """``step()``'s answer, the first time ``key`` is sent with an answer that
    ``accepted`` turns into an :class:`Outcome` (recorded with it); otherwise
    ``replay`` of the row the key was used for (module docstring)."""
    with transaction.atomic():
        if not IdempotencyKey.objects.filter(key=key).exists():
            answer = step()
            outcome = accepted(answer)
            if outcome is not None:
                try:
                    with transaction.atomic():
                        IdempotencyKey.objects.create(key=key, user=user, path=path[:300], status=outcome.status,
                                                      location=outcome.location[:500])
                    return answer
                except IntegrityError:  # a copy sent at the same time was accepted first
                    transaction.set_rollback(True)
            elif not IdempotencyKey.objects.filter(key=key).exists():
                return answer  # refused: nothing written, the key may be sent again
            else:  # refused because a copy sent at the same time got there first
                transaction.set_rollback(True)
    used = IdempotencyKey.objects.filter(key=key).first()
    return replay(used if used is not None and used.user_id == user.pk and used.path == path[:300] else None)


def purge(now: datetime.datetime | None = None) -> int:
    """Delete the keys older than their lifetime (they can no longer be sent); how many."""
    cutoff = (now or timezone.now()) - lifetime()
    deleted, _ = IdempotencyKey.objects.filter(created__lt=cutoff).delete()
    return deleted
