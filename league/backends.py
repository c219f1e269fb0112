"""The authentication backend: Django's ModelBackend, reading the account's coach
with the account in one query.

Every logged-in page asks who the viewer's coach is (``permissions.coach_for``,
the menu's name); the reverse one-to-one is read with the user row the session
names, so that is one query, not two. An account with no coach is cached as such
too: reading ``user.coach`` then raises ``Coach.DoesNotExist`` without a query.

The session engine (league/sessions.py) reads the account and its coach with the
session and hands them here (``preload``): the request's ``get_user`` then runs no
query. Otherwise the account is read by a statement written by the ORM once per
process and prepared on PostgreSQL (league/prepared.py)."""

from __future__ import annotations

import contextvars
import functools

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.core.signals import request_finished, request_started

from league.prepared import Statement

# The account the current request's session named, read with it: used once.
_preloaded: contextvars.ContextVar = contextvars.ContextVar("league_preloaded_account", default=None)


def preload(user) -> None:
    _preloaded.set(user)


def _forget(**kwargs) -> None:
    _preloaded.set(None)


request_started.connect(_forget, dispatch_uid="league.backends.forget:start")
request_finished.connect(_forget, dispatch_uid="league.backends.forget:finish")


def _fields(model) -> list:
    return list(model._meta.concrete_fields)


@functools.cache
def _user() -> Statement:
    return Statement(get_user_model()._default_manager.select_related("coach").filter(pk=0), [0])


def user_from_row(row) -> object:
    """The account (and its coach, cached on it) from a row of select_related's
    columns: the user's concrete fields, then the coach's."""
    User = get_user_model()
    user_fields = _fields(User)
    related = User._meta.get_field("coach")
    Coach = related.related_model
    coach_fields = [f.attname for f in _fields(Coach)]
    user = User.from_db("default", [f.attname for f in user_fields], row[: len(user_fields)])
    coach_row = row[len(user_fields): len(user_fields) + len(coach_fields)]
    coach = None
    if coach_row[coach_fields.index(Coach._meta.pk.attname)] is not None:
        coach = Coach.from_db("default", coach_fields, coach_row)
        related.field.set_cached_value(coach, user)
    related.set_cached_value(user, coach)
    return user


class CoachBackend(ModelBackend):
    def get_user(self, user_id):
        User = get_user_model()
        try:
            user_id = User._meta.pk.to_python(user_id)
        except Exception:  # a session naming no valid id is nobody's
            return None
        user = _preloaded.get()
        _preloaded.set(None)
        if user is None or user.pk != user_id:
            rows = _user().rows([user_id])
            user = user_from_row(rows[0]) if rows else None
        return user if user is not None and self.user_can_authenticate(user) else None
