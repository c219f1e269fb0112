"""The authentication backend: Django's ModelBackend, reading the account's coach
with the account (issue 23.2).

Every logged-in page asks who the viewer's coach is (``permissions.coach_for``,
the menu's name); the reverse one-to-one is read with the user row the session
names, so that is one query, not two. An account with no coach is cached as such
too: reading ``user.coach`` then raises ``Coach.DoesNotExist`` without a query.
Every logged-in request runs it, so it is written by the ORM once per process and
run as a prepared statement (league/prepared.py): 0.4 ms instead of 1.4 here."""

from __future__ import annotations

import functools

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend

from league.prepared import Statement


def _fields(model) -> list:
    return list(model._meta.concrete_fields)


@functools.cache
def _user() -> Statement:
    # select_related's columns: the user's concrete fields, then the coach's.
    return Statement(get_user_model()._default_manager.select_related("coach").filter(pk=0), [0])


class CoachBackend(ModelBackend):
    def get_user(self, user_id):
        User = get_user_model()
        try:
            user_id = User._meta.pk.to_python(user_id)
        except Exception:  # a session naming no valid id is nobody's
            return None
        rows = _user().rows([user_id])
        if not rows:
            return None
        user_fields = _fields(User)
        related = User._meta.get_field("coach")
        Coach = related.related_model
        row = rows[0]
        user = User.from_db("default", [f.attname for f in user_fields], row[: len(user_fields)])
        coach_row = row[len(user_fields):]
        coach = None
        if coach_row[[f.attname for f in _fields(Coach)].index(Coach._meta.pk.attname)] is not None:
            coach = Coach.from_db("default", [f.attname for f in _fields(Coach)], coach_row)
            related.field.set_cached_value(coach, user)
        related.set_cached_value(user, coach)
        return user if self.user_can_authenticate(user) else None
