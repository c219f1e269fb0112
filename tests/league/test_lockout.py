"""Login brute force (django-axes): per account and per address, on the site's login
and the admin's alike, a 429 page with the pause in minutes and a way home, and the
right password refused during the pause."""

from __future__ import annotations

import datetime

import pytest
from axes.models import AccessAttempt
from django.test import RequestFactory
from django.urls import reverse

from league.lockout import client_ip
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

SITE = reverse("login")
ADMIN = reverse("admin:login")


def attempt(client, url, username, password, address="203.0.113.5"):
    return client.post(url, {"username": username, "password": password}, REMOTE_ADDR=address)


@pytest.fixture
def coach(password):
    return UserFactory(username="ada")


@pytest.fixture
def staff(password):
    return UserFactory(username="boss", is_staff=True)


def fail(client, url, username, times, address="203.0.113.5") -> list[int]:
    return [attempt(client, url, username, "wrong-password", address).status_code for _ in range(times)]


def test_right_password_after_failures_below_the_limit_works(client, coach, password, settings):
    # The form again, with its error, each time.
    assert fail(client, SITE, "ada", settings.AXES_FAILURE_LIMIT - 1) == [200] * (settings.AXES_FAILURE_LIMIT - 1)
    response = attempt(client, SITE, "ada", password)
    assert response.status_code == 302
    assert AccessAttempt.objects.count() == 0  # a success resets the count


def test_site_login_locks_the_account_and_the_right_password_is_refused(client, coach, password, settings):
    # The failure that reaches the limit already answers with the lockout page.
    assert fail(client, SITE, "ada", settings.AXES_FAILURE_LIMIT)[-2:] == [200, 429]
    response = attempt(client, SITE, "ada", password)
    assert response.status_code == 429
    assert "_auth_user_id" not in client.session
    page = response.content.decode()
    assert "Too many failed log-ins" in page
    assert "Try again in 15 minutes" in page
    assert f'href="{reverse("league:league_list")}"' in page
    assert response["Retry-After"] == "900"


def test_admin_login_locks_alike(client, staff, password, settings):
    fail(client, ADMIN, "boss", settings.AXES_FAILURE_LIMIT)
    response = attempt(client, ADMIN, "boss", password)
    assert response.status_code == 429
    assert "Too many failed log-ins" in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_failures_on_the_site_lock_the_admin_too(client, staff, password, settings):
    fail(client, SITE, "boss", settings.AXES_FAILURE_LIMIT)
    assert attempt(client, ADMIN, "boss", password).status_code == 429


def test_per_account_from_many_addresses(client, coach, password, settings):
    """An attacker rotating addresses still locks the account it targets."""
    for n in range(settings.AXES_FAILURE_LIMIT):
        fail(client, SITE, "ada", 1, address=f"198.51.100.{n + 1}")
    assert attempt(client, SITE, "ada", password, address="192.0.2.77").status_code == 429


def test_per_address_over_many_accounts(client, coach, password, settings):
    """One address guessing many usernames is locked out, even for a real account."""
    for n in range(settings.AXES_FAILURE_LIMIT):
        fail(client, SITE, f"guess{n}", 1)
    assert attempt(client, SITE, "ada", password).status_code == 429
    # Ada herself, from elsewhere, is not locked out by someone else's guessing.
    assert attempt(client, SITE, "ada", password, address="192.0.2.77").status_code == 302


def test_the_lock_lifts_after_the_cool_off(client, coach, password, settings):
    fail(client, SITE, "ada", settings.AXES_FAILURE_LIMIT)
    assert attempt(client, SITE, "ada", password).status_code == 429
    AccessAttempt.objects.update(attempt_time=datetime.datetime.now(datetime.UTC) - settings.AXES_COOLOFF_TIME - datetime.timedelta(seconds=1))
    assert attempt(client, SITE, "ada", password).status_code == 302


def test_client_ip_uses_remote_addr_without_a_proxy(settings):
    settings.TRUSTED_PROXY_COUNT = 0
    request = RequestFactory().get("/", REMOTE_ADDR="203.0.113.5", HTTP_X_FORWARDED_FOR="6.6.6.6")
    assert client_ip(request) == "203.0.113.5"  # a forged header counts for nothing


def test_client_ip_behind_one_proxy_takes_the_address_it_saw(settings):
    settings.TRUSTED_PROXY_COUNT = 1
    forged = RequestFactory().get("/", REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="6.6.6.6, 203.0.113.5")
    assert client_ip(forged) == "203.0.113.5"
    missing = RequestFactory().get("/", REMOTE_ADDR="127.0.0.1")
    assert client_ip(missing) == "127.0.0.1"
