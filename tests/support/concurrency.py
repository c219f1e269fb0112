"""What the concurrency tests share: the marks that keep them to PostgreSQL, and
running service calls at the same moment, each in a thread with its own database
connection. SQLite serialises writers and ignores SELECT ... FOR UPDATE, so only
PostgreSQL shows whether a service's row locks hold."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import pytest
from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import connection

POSTGRES_ONLY = [
    pytest.mark.postgres,
    # Decided before any database set-up: on SQLite the serialized rollback would
    # otherwise reload the catalogue over itself.
    pytest.mark.skipif(
        "postgresql" not in settings.DATABASES["default"]["ENGINE"],
        reason="needs PostgreSQL: run with DATABASE_URL=postgres://...",
    ),
    # The threads' connections see only committed rows, so the test commits.
    pytest.mark.django_db(transaction=True, serialized_rollback=True),
]


@dataclass
class Outcomes:
    """What the calls did: the values of those that returned, the exceptions of
    those that raised."""

    returned: list[object] = field(default_factory=list)
    raised: list[Exception] = field(default_factory=list)

    @property
    def refusals(self) -> list[str]:
        """The messages of the calls a service refused (ValidationError)."""
        return [" ".join(exc.messages) for exc in self.raised if isinstance(exc, ValidationError)]


def at_once(calls: Sequence[Callable[[], object]]) -> Outcomes:
    """Run each call in a thread of its own, with its own connection, all released
    together once every thread is connected, so the calls really overlap."""
    outcomes = Outcomes()
    barrier = threading.Barrier(len(calls))
    lock = threading.Lock()

    def run(call: Callable[[], object]) -> None:
        try:
            connection.ensure_connection()  # connect first, so the calls really overlap
            barrier.wait()
            value = call()
        except Exception as exc:  # noqa: BLE001 - the test reads what was raised
            with lock:
                outcomes.raised.append(exc)
        else:
            with lock:
                outcomes.returned.append(value)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(call,)) for call in calls]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return outcomes
