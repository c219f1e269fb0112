"""Bulk work the organiser runs themselves (an import of a season's results, the
demo data) is quiet: the facts it records are kept and followed by what keeps
the site right (the ratings), but tell nobody, since a message per result would
flood every coach, the channel and the receivers. Each follower that tells
someone (mail, the league's webhooks, signed events) asks ``is_quiet``."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

_QUIET: ContextVar[bool] = ContextVar("facts_quiet", default=False)


def is_quiet() -> bool:
    """Whether the current block is ``quiet()``."""
    return _QUIET.get()


@contextmanager
def quiet() -> Iterator[None]:
    """No mail, no webhook post and no event for the writes made inside."""
    token = _QUIET.set(True)
    try:
        yield
    finally:
        _QUIET.reset(token)
