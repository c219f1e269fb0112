"""The session engine (league/sessions.py) reads the session, the
account it logs in and the account's coach in one query, and the backend
(league/backends.py) uses that account: a logged-in request's identity costs one
query. Logging out, a new password, a deactivated or deleted account still end
the session at once, in every worker (the session is read from the database)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from league import backends
from league.models import Session
from tests.support.factories import CoachFactory, UserFactory

pytestmark = pytest.mark.django_db


def _profile(client) -> tuple[int, int, str]:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(reverse("league:my_fixtures"))
    return response.status_code, len(queries), response.content.decode()


def test_one_query_reads_the_session_its_account_and_coach(client, password):
    coach = CoachFactory(name="Velocity")
    client.post(reverse("login"), {"username": coach.user.username, "password": password})
    assert Session.objects.get().user_id == coach.user.pk  # the row names its account
    client.get(reverse("league:my_fixtures"))  # kept now (league/caching/kept_pages.py)
    status, queries, page = _profile(client)
    assert (status, queries) == (200, 2)  # the session with account and coach; the versions
    assert 'title="Your profile">Velocity</a>' in page


def test_the_session_ends_at_once_however_the_account_changes(password):
    user = UserFactory(username="mercury")
    other = Client()
    for change in ("logout", "password", "deactivate", "delete"):
        user = get_user_model().objects.filter(username="mercury").first() or UserFactory(username="mercury")
        user.set_password(password)
        user.is_active = True
        user.save()
        client = Client()
        client.force_login(user)
        assert _profile(client)[0] == 200
        if change == "logout":
            # Logging out on another device ends only that one's session: this one's
            # own log-out ends it wherever it is used next.
            other.cookies = client.cookies
            other.post(reverse("logout"))
        elif change == "password":
            user.set_password("a new password 123")
            user.save()
        elif change == "deactivate":
            get_user_model().objects.filter(pk=user.pk).update(is_active=False)
        else:
            user.delete()
            assert not Session.objects.filter(user_id=user.pk).exists()
        assert _profile(client)[0] == 302, change  # to the log-in page


def test_the_account_read_with_one_session_is_never_another_requests(client, password):
    """The account handed over is used once, for the id its session names."""
    a, b = CoachFactory(name="Ann").user, CoachFactory(name="Bob").user
    client.force_login(a)
    client.get(reverse("league:my_fixtures"))
    backends.preload(a)
    assert backends.CoachBackend().get_user(b.pk) == b  # another id: read from the database
    backends.preload(a)
    get_user_model().objects.filter(pk=a.pk).update(first_name="Changed")
    assert backends.CoachBackend().get_user(a.pk).first_name == ""  # the request's own, once
    assert backends.CoachBackend().get_user(a.pk).first_name == "Changed"  # then read again
