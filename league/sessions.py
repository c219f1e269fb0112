"""The session engine: Django's database sessions, read in one prepared query.

Every logged-in request reads its session, so the read skips the ORM's compiling
and is a prepared statement on PostgreSQL (league/prepared.py): 0.3 ms instead of
0.9 here (issue 23.2). Sessions stay in the database, so a log-out in one gunicorn
worker ends the session in all of them at once; a per-process cache in front of
it (``cached_db`` with the local-memory cache) would keep a logged-out session
alive in the other workers. Writing, creating and deleting are Django's own.
"""

from __future__ import annotations

import functools

from django.contrib.sessions.backends import db
from django.db import connection
from django.utils import timezone

from league.prepared import Statement


@functools.cache
def _load() -> Statement:
    from django.contrib.sessions.models import Session

    marker = timezone.now()
    return Statement(
        Session.objects.filter(session_key="?").filter(expire_date__gt=marker).values_list("session_data"),
        ["?", _now(marker)],
    )


def _now(now=None):
    """Now, as the database compares it with ``expire_date`` (a string on SQLite)."""
    return connection.ops.adapt_datetimefield_value(now or timezone.now())


class SessionStore(db.SessionStore):
    def load(self):
        # A malformed key from a cookie is a missing session, as in Django's
        # (``_validate_session_key`` already refused it before a query is made).
        if self.session_key is None:
            return {}
        rows = _load().rows([self.session_key, _now()])
        if not rows:
            self._session_key = None
            return {}
        return self.decode(rows[0][0])
