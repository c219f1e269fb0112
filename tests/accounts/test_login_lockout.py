"""Login brute force (django-axes): per account at one address and per address, on
the site's login and the admin's alike, a 429 page with the pause in minutes and a
way home, and the right password refused during the pause; never an account from
everywhere, so its owner still logs in from their own address. The
organiser's page of their coaches' lockouts, for every role."""

from __future__ import annotations

import datetime

import pytest
from axes.models import AccessAttempt
from django.core import mail
from django.test import Client, RequestFactory
from django.urls import reverse

from league.accounts import lockout
from league.accounts.lockout import client_ip
from league.permissions import display_name
from tests.support.factories import CoachFactory, EntryFactory, UserFactory

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


def test_the_lockout_from_two_addresses(client, coach, password, settings):
    """The attacker's address is locked for the account; its owner, from
    her own address, still logs in (before: five failures from anywhere locked her
    out everywhere)."""
    attacker, home = "198.51.100.9", "192.0.2.77"
    assert fail(client, SITE, "ada", settings.AXES_FAILURE_LIMIT, address=attacker)[-1] == 429
    assert attempt(client, SITE, "ada", password, address=attacker).status_code == 429
    assert attempt(client, ADMIN, "ada", password, address=attacker).status_code == 429
    assert attempt(client, SITE, "ada", password, address=home).status_code == 302
    assert client.session["_auth_user_id"] == str(coach.pk)


def test_an_attacker_cannot_lock_every_demo_account(client, password, settings):
    """The attack's repro: five bad log-ins for each of 12 accounts from one address
    (60 requests). Each owner logs in from their own address."""
    users = [UserFactory(username=f"demo{n}") for n in range(12)]
    for user in users:
        fail(client, SITE, user.username, settings.AXES_FAILURE_LIMIT, address="198.51.100.9")
    for n, user in enumerate(users):
        client.logout()
        assert attempt(client, SITE, user.username, password, address=f"192.0.2.{n + 1}").status_code == 302


def test_failures_spread_over_addresses_lock_only_each_address_at_the_limit(client, coach, password, settings):
    for n in range(settings.AXES_FAILURE_LIMIT):
        fail(client, SITE, "ada", settings.AXES_FAILURE_LIMIT - 1, address=f"198.51.100.{n + 1}")
    assert attempt(client, SITE, "ada", password, address="198.51.100.1").status_code == 302


def test_per_address_over_many_accounts_at_the_higher_limit(client, coach, password, settings):
    """One address guessing many usernames is locked out at AXES_ADDRESS_FAILURE_LIMIT,
    even for a real account; below it, other accounts from there are not."""
    assert settings.AXES_ADDRESS_FAILURE_LIMIT > settings.AXES_FAILURE_LIMIT
    for n in range(settings.AXES_ADDRESS_FAILURE_LIMIT - 1):
        fail(client, SITE, f"guess{n}", 1)
    assert attempt(client, SITE, "ada", password).status_code == 302
    client.logout()  # her log-in forgot only her own failures there, not the address's
    fail(client, SITE, "guess-last", 1)
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


# The organiser lets their coaches in again ------------------------------

LOCKOUTS = "league:organiser_lockouts"


@pytest.fixture
def locked(season, settings):
    """Ada (a coach of the league) locked at the attacker's address; Zed, a coach of
    another league, too."""
    ada = EntryFactory(season=season, coach=CoachFactory(name="Ada", user=UserFactory(username="ada"))).coach
    zed = EntryFactory(coach=CoachFactory(name="Zed", user=UserFactory(username="zed"))).coach
    attacker = Client()
    fail(attacker, SITE, "ada", settings.AXES_FAILURE_LIMIT)
    fail(attacker, SITE, "zed", settings.AXES_FAILURE_LIMIT)
    return ada, zed


def unlock_url(season, coach) -> str:
    return reverse("league:unlock_coach", args=[season.league.slug, coach.pk])


def test_the_organiser_sees_their_coaches_lockouts_and_lets_one_in(client, organiser, season, locked, password, settings):
    ada, zed = locked
    client.force_login(organiser)
    page = client.get(reverse(LOCKOUTS, args=[season.league.slug]))
    assert page.status_code == 200
    text = page.content.decode()
    assert "Ada" in text and unlock_url(season, ada) in text
    assert "Zed" not in text and "203.0.113.5" not in text  # another league's coach; no address shown
    assert attempt(Client(), SITE, "ada", password).status_code == 429

    response = client.post(unlock_url(season, ada), follow=True)
    assert response.status_code == 200 and "Ada can log in again." in response.content.decode()
    assert "None of this league" in response.content.decode()
    assert not AccessAttempt.objects.filter(username="ada").exists()
    assert AccessAttempt.objects.filter(username="zed").exists()
    assert attempt(Client(), SITE, "ada", password).status_code == 302


def test_lifting_a_lock_never_clears_what_counts_against_the_address(client, organiser, season, locked, password,
                                                                    settings):
    """Ten rounds of five guesses from one address with a lift between them: the lifts
    stop after LIFTS_PER_DAY, the guesses keep counting against the address, and the
    right password is then refused from it; the coach is mailed who lifted each lock."""
    ada, _ = locked
    client.force_login(organiser)
    refused = []
    for _ in range(10):
        response = client.post(unlock_url(season, ada), follow=True)
        refused.append("lifted 3 times today already" in response.content.decode())
        fail(Client(), SITE, "ada", settings.AXES_FAILURE_LIMIT)
    assert refused == [False] * lockout.LIFTS_PER_DAY + [True] * (10 - lockout.LIFTS_PER_DAY)
    at_address = AccessAttempt.objects.filter(ip_address="203.0.113.5", username__startswith=lockout.LIFTED)
    assert sum(at_address.values_list("failures_since_start", flat=True)) == settings.AXES_FAILURE_LIMIT * 3
    assert attempt(Client(), SITE, "ada", password).status_code == 429
    # From the coach's own address they are let in; the mails name who lifted the lock.
    assert attempt(Client(), SITE, "ada", password, address="198.51.100.7").status_code == 302
    lifted = [message for message in mail.outbox if message.to == [ada.user.email]]
    assert len(lifted) == lockout.LIFTS_PER_DAY
    assert display_name(organiser) in lifted[0].subject and display_name(organiser) in lifted[0].body


def test_a_lifted_attempt_still_counts_against_its_address(organiser, season, locked, settings):
    ada, _ = locked
    lockout.lift_lockouts(league=season.league, coach=ada, by=organiser)
    rows = AccessAttempt.objects.filter(ip_address="203.0.113.5")
    assert rows.count() == 2 and not rows.filter(username="ada").exists()
    assert sum(rows.values_list("failures_since_start", flat=True)) == 2 * settings.AXES_FAILURE_LIMIT


def test_an_organiser_cannot_unlock_another_leagues_coach(client, organiser, season, locked):
    ada, zed = locked
    client.force_login(organiser)
    assert client.post(unlock_url(season, zed)).status_code == 404
    assert AccessAttempt.objects.filter(username="zed").count() == 1


@pytest.mark.parametrize("role", ["anonymous", "coach", "other organiser"])
def test_nobody_else_sees_or_lifts_a_lockout(client, role, season, locked, other_organiser):
    ada, _ = locked
    if role == "coach":
        client.force_login(ada.user)
    elif role == "other organiser":
        client.force_login(other_organiser)
    expected = 302 if role == "anonymous" else 403
    page = client.get(reverse(LOCKOUTS, args=[season.league.slug]))
    assert page.status_code == expected
    assert client.post(unlock_url(season, ada)).status_code == expected
    if role == "anonymous":
        assert page["Location"].startswith(reverse("login"))
    assert AccessAttempt.objects.filter(username="ada").count() == 1


def test_the_lockouts_page_costs_the_same_queries_for_many_coaches(client, organiser, season, settings,
                                                                   django_assert_max_num_queries):
    client.force_login(organiser)
    url = reverse(LOCKOUTS, args=[season.league.slug])
    for n in range(8):
        coach = EntryFactory(season=season, coach=CoachFactory(name=f"Locked {n}")).coach
        fail(Client(), SITE, coach.user.username, settings.AXES_FAILURE_LIMIT, address=f"198.51.100.{n + 1}")
    with django_assert_max_num_queries(8):
        page = client.get(url).content.decode()
    assert all(f"Locked {n}" in page for n in range(8))
