"""The authentication backend: Django's ModelBackend, reading the account's coach
with the account (issue 23.2).

Every logged-in page asks who the viewer's coach is (``permissions.coach_for``,
the menu's name); a ``select_related`` of the reverse one-to-one loads it with
the user row the session names, so that is one query, not two. An account with
no coach is cached as such too: reading ``user.coach`` then raises
``Coach.DoesNotExist`` without a query."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend


class CoachBackend(ModelBackend):
    def get_user(self, user_id):
        user = get_user_model()._default_manager.select_related("coach").filter(pk=user_id).first()
        return user if user is not None and self.user_can_authenticate(user) else None
