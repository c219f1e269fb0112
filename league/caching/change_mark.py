"""The change mark: what lets a warm public page skip its one query on one server.

A warm public page reads the versions of its league's seasons (one query,
league/caching/versions.py) and serves the response cached under them. On this 2-core
machine that round trip to PostgreSQL costs more than the rest of the request
(about 0.2 ms of 0.6). The versions change only when something is written, so a
process may keep what it read as long as it knows nothing was written since.

The mark is 16 random bytes in a file every process of the site reads and writes
(``settings.CHANGE_MARK_FILE``). Every write that gives a season a new version
(``versions.bump``), and every row a restore loads, writes new bytes to it twice:
at once, inside the write's transaction, and again once that transaction has
committed. A process keeps what it read under the mark it read *before* reading
it (``Memo``), and uses it while the file holds the same bytes:

- a read that began before a write committed is kept under a mark the commit's
  second write replaces, so the next request reads again;
- a request that starts after the writer's commit (the writer's own next page,
  or anyone told of the change) sees the new mark, because the writer wrote it
  before answering: no page is staler than it is without the mark;
- a write that fails or rolls back leaves a new mark all the same: one more read.

It works only where every process that writes shares the file: one server (the
gunicorn workers, ``run_tasks``, the management commands). With several app
servers leave ``CHANGE_MARK_FILE`` empty: each request then reads the versions,
as it does without the mark. On SQLite the database is a file on this server, so
the mark is on by default beside it (league/settings.py).

A file that cannot be read counts as no mark (the query runs every time); a mark
that cannot be written fails the write that needed it, before it commits, rather
than leave other processes serving what it replaced.
"""

from __future__ import annotations

import contextlib
import os

from django.conf import settings
from django.db import connection, transaction

SIZE = 16


def current() -> bytes | None:
    """The mark's bytes, or None when there is no mark (unset, unreadable, or
    missing: then made, for the next request). About 4 microseconds: an open, a
    read and a close."""
    path = settings.CHANGE_MARK_FILE
    if not path:
        return None
    try:
        fd = os.open(path, os.O_RDONLY)
    except FileNotFoundError:  # nothing written yet, or the file was removed: any new bytes will do
        with contextlib.suppress(OSError):
            _write()
        return None
    except OSError:
        return None
    try:
        value = os.read(fd, SIZE)
    except OSError:
        return None
    finally:
        os.close(fd)
    return value if len(value) == SIZE else None


def _write() -> None:
    fd = os.open(settings.CHANGE_MARK_FILE, os.O_WRONLY | os.O_CREAT, 0o660)
    try:
        os.pwrite(fd, os.urandom(SIZE), 0)
    finally:
        os.close(fd)


def _write_after_commit() -> None:
    """The write once a transaction commits: a function of its own, so that
    ``uncommitted`` finds it among the connection's pending callbacks."""
    _write()


def changed() -> None:
    """Something a page keyed on versions shows has been written: a new mark now
    and another once the current transaction commits (at once outside one)."""
    if not settings.CHANGE_MARK_FILE:
        return
    _write()
    if not uncommitted():  # once a transaction: a savepoint rolled back takes its own along
        transaction.on_commit(_write_after_commit)


def uncommitted() -> bool:
    """This connection has written what changes a mark and not committed it yet:
    what it reads now must not be kept for others."""
    return any(callback is _write_after_commit for _, callback, _ in connection.run_on_commit)


class Memo:
    """Values kept per key while the mark stays the same: all of them are dropped
    the first time a different mark is seen. Only what ``get`` is handed to keep
    is kept, so the memo holds no more than the caller allows (existing leagues)."""

    def __init__(self, limit: int = 10_000):
        self.limit = limit  # values kept at most: then the memo starts again
        self.state: tuple[bytes | None, dict] = (None, {})  # replaced whole: threads share it

    def get(self, key, read, keep=bool):
        """``read()`` for ``key``, or the value kept for it under the current mark;
        a value ``keep(value)`` accepts is kept under the mark read before it,
        unless this connection has uncommitted changes."""
        mark = current()
        if mark is None:
            return read()
        state = self.state
        if state[0] != mark or len(state[1]) >= self.limit:
            state = self.state = (mark, {})
        elif key in state[1]:
            return state[1][key]
        value = read()
        if keep(value) and not uncommitted():
            state[1][key] = value  # under ``mark``, even if another thread has seen a newer one since
        return value
