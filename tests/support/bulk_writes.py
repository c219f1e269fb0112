"""The guard that fails a test when the site's code writes a tracked model in bulk
(``QuerySet.update``, ``bulk_update``, ``bulk_create``: no signals, so no version
bump) and no version bump follows: a page would stay stale until the next write.

A write by a test's own set-up code, or by the cache itself, does not count, nor
one a refusal rolled back (its savepoint, or one around it, was rolled back)."""

from __future__ import annotations

import sys
from pathlib import Path

from django.db import connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import deletion
from django.db.models.query import QuerySet

from league.caching import versions

ROOT = Path(__file__).resolve().parents[2]
SITE = (ROOT / "league", ROOT / "campaigns")
NOT_SITE = (ROOT / "league" / "caching", ROOT / "tests", ROOT / "league" / "migrations")
# Columns no page shows, which a bulk update may change without a new version.
UNSEEN = {
    ("league.Coach", "invitation_nonce"): "retires the invitation links already sent (league/people/invitations.py)",
}
DJANGO_DELETE = Path(deletion.__file__)


def _caller(skip: int = 2) -> str | None:
    """Where the site's code made the call (file:line), or None when the first frame
    of this repository outside Django is a test's or the cache's."""
    frame = sys._getframe(skip)
    while frame is not None:
        path = Path(frame.f_code.co_filename)
        if path == DJANGO_DELETE:  # a delete's SET_NULL of an audit column (created_by ...): signals follow
            return None
        if path.is_relative_to(ROOT) and path != Path(__file__):
            if any(path.is_relative_to(place) for place in NOT_SITE):
                return None
            if any(path.is_relative_to(place) for place in SITE):
                return f"{path.relative_to(ROOT)}:{frame.f_lineno}"
        frame = frame.f_back
    return None


class Guard:
    """Install with ``watch(monkeypatch)``; ``unbumped`` lists the bulk writes of
    tracked models no bump followed."""

    def __init__(self) -> None:
        self._writes: list[tuple[str, tuple[str, ...]]] = []  # (what and where, the savepoints around it)
        self._rolled_back: set[str] = set()

    @property
    def unbumped(self) -> list[str]:
        return [what for what, around in self._writes if not self._rolled_back.intersection(around)]

    def watch(self, monkeypatch) -> None:
        guard = self

        def watched(name: str):
            original = getattr(QuerySet, name)

            def write(queryset, *args, **kwargs):
                done = original(queryset, *args, **kwargs)
                wrote = len(done) if name == "bulk_create" else done  # rows (update, bulk_update: a count)
                unseen = name == "update" and all((queryset.model._meta.label, field) in UNSEEN for field in kwargs)
                if wrote and queryset.model in versions.tracked() and not unseen and (where := _caller()) is not None:
                    around = tuple(connections[queryset.db].savepoint_ids)
                    guard._writes.append((f"{queryset.model.__name__}.objects.{name}() at {where}", around))
                return done

            return write

        for name in ("update", "bulk_update", "bulk_create"):
            monkeypatch.setattr(QuerySet, name, watched(name))
        bump = versions.bump

        def bumped(seasons):
            bump(seasons)
            guard._writes.clear()

        monkeypatch.setattr(versions, "bump", bumped)
        rollback = BaseDatabaseWrapper.savepoint_rollback

        def rolled_back(connection, sid):
            guard._rolled_back.add(sid)
            return rollback(connection, sid)

        monkeypatch.setattr(BaseDatabaseWrapper, "savepoint_rollback", rolled_back)
