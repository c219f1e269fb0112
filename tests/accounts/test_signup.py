"""Signing up, verifying the address, the rate limits, OPEN_SIGNUP and
the right to create leagues (league.permissions.may_create_league)."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.core import mail
from django.urls import reverse

from league.accounts.forms import SIGNUPS_PER_ADDRESS
from league.models import League
from league.permissions import may_create_league
from tests.support.concurrency import POSTGRES_ONLY
from tests.support.factories import PASSWORD, UserFactory

User = get_user_model()
pytestmark = pytest.mark.django_db


def _sign_up(client, username="newbie", email="newbie@example.com", next_url=""):
    data = {"username": username, "email": email, "password1": PASSWORD, "password2": PASSWORD}
    if next_url:
        data["next"] = next_url
    return client.post(reverse("signup"), data)


def _link(message) -> str:
    return re.search(r"http://\S+", message.body).group(0)


def test_sign_up_verify_then_create(client):
    response = _sign_up(client)
    assert response.status_code == 200 and "Check your email" in response.content.decode()
    user = User.objects.get(username="newbie")
    assert not user.is_active and not may_create_league(user)
    # Not before the link: the account cannot log in, so it can create nothing.
    login = client.post(reverse("login"), {"username": "newbie", "password": PASSWORD})
    assert login.status_code == 200 and "_auth_user_id" not in client.session
    assert client.get(reverse("league:new_league")).status_code == 302
    (message,) = mail.outbox
    assert message.to == ["newbie@example.com"]
    link = _link(message).removeprefix("http://testserver")
    page = client.get(link)
    assert "Verify and log in" in page.content.decode()
    User.objects.get(username="newbie", is_active=False)  # a GET writes nothing
    response = client.post(link)
    assert response.status_code == 302 and response["Location"] == reverse("league:new_league")
    user.refresh_from_db()
    assert user.is_active and may_create_league(user)
    # The link works once.
    assert client.post(link).status_code == 400


def test_the_page_says_the_same_for_an_address_with_an_account(client):
    UserFactory(username="ada", email="ada@example.com")
    response = _sign_up(client, username="other", email="ADA@example.com")
    assert response.status_code == 200 and "Check your email" in response.content.decode()
    assert not User.objects.filter(username="other").exists()
    (message,) = mail.outbox
    assert message.to == ["ADA@example.com"] and "already has an account" in message.body


@pytest.mark.parametrize("problem", ["username taken", "weak password"])
def test_a_refused_sign_up_answers_the_same_whoever_holds_the_address(client, problem, monkeypatch):
    """With a taken username or a weak password, an address with an account and a new
    one get the same form error (400), nothing is mailed to either, and both hash the
    password, so neither the answer nor its time tells who has an account."""
    from django.contrib.auth.base_user import AbstractBaseUser

    UserFactory(username="ada", email="ada@example.com")
    UserFactory(username="taken", email="taken@example.com")
    hashed = []
    set_password = AbstractBaseUser.set_password
    monkeypatch.setattr(AbstractBaseUser, "set_password", lambda user, raw: hashed.append(raw) or set_password(user, raw))
    answers = []
    for email in ("ada@example.com", "nobody@example.com"):
        data = {"username": "taken" if problem == "username taken" else "fresh", "email": email,
                "password1": PASSWORD if problem == "username taken" else "123",
                "password2": PASSWORD if problem == "username taken" else "123"}
        response = client.post(reverse("signup"), data)
        answers.append((response.status_code, re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", response.content.decode()).replace(email, "")))
    assert answers[0] == answers[1] and answers[0][0] == 400
    assert len(hashed) == 2 and mail.outbox == []
    assert User.objects.count() == 2


def test_an_unverified_sign_up_does_not_hold_the_address(client):
    _sign_up(client, username="squatter", email="victim@example.com")
    _sign_up(client, username="victim", email="victim@example.com")
    assert list(User.objects.filter(email="victim@example.com").values_list("username", flat=True)) == ["victim"]
    first, second = mail.outbox
    assert client.post(_link(first).removeprefix("http://testserver")).status_code == 400  # replaced


def test_bad_input_is_400_and_writes_nothing(client):
    UserFactory(username="taken")
    for data in (
        {"username": "x", "email": "not an address", "password1": PASSWORD, "password2": PASSWORD},
        {"username": "x", "email": "x@example.com", "password1": PASSWORD, "password2": "other"},
        {"username": "x", "email": "x@example.com", "password1": "123", "password2": "123"},
        {"username": "Taken", "email": "t@example.com", "password1": PASSWORD, "password2": PASSWORD},
    ):
        assert client.post(reverse("signup"), data).status_code == 400
    assert User.objects.count() == 1 and mail.outbox == []


def test_sign_up_is_rate_limited_per_address(client):
    for n in range(SIGNUPS_PER_ADDRESS):
        assert _sign_up(client, username=f"u{n}", email="same@example.com").status_code == 200
    response = _sign_up(client, username="late", email="Same@example.com")
    assert response.status_code == 429 and "within the hour" in response.content.decode()
    assert not User.objects.filter(username="late").exists()


def test_open_signup_off(client, settings):
    settings.OPEN_SIGNUP = False
    response = client.get(reverse("signup"))
    assert response.status_code == 403 and "Sign-up is closed" in response.content.decode()
    assert _sign_up(client).status_code == 403 and not User.objects.exists()
    user = UserFactory(username="member")
    assert not may_create_league(user)
    client.force_login(user)
    assert client.get(reverse("league:new_league")).status_code == 403
    # The superuser grants the right in the admin: the league.add_league permission.
    user.user_permissions.add(Permission.objects.get(codename="add_league", content_type__app_label="league"))
    user = User.objects.get(pk=user.pk)
    assert may_create_league(user)
    assert client.get(reverse("league:new_league")).status_code == 200


def test_verified_address_needed_to_create(client):
    user = UserFactory(username="noaddress", email="")
    assert not may_create_league(user)
    client.force_login(user)
    assert client.get(reverse("league:new_league")).status_code == 403
    assert not League.objects.exists()


def test_the_link_goes_back_to_next(client, settings):
    _sign_up(client, next_url="/join/abc/")
    link = _link(mail.outbox[0]).removeprefix("http://testserver")
    assert "next=%2Fjoin%2Fabc%2F" in link
    assert client.post(link)["Location"] == "/join/abc/"


def test_next_elsewhere_is_ignored(client):
    _sign_up(client, next_url="https://evil.example/")
    assert "evil" not in mail.outbox[0].body


def test_open_signup_off_still_lets_a_join_link_sign_up(client, settings, season, organiser):
    from league.people import joining

    settings.OPEN_SIGNUP = False
    link = joining.create_link(season=season, by=organiser, max_uses=None, closes_on=None)
    join_url = reverse("league:join", args=[joining.make_token(link)])
    assert reverse("signup") in client.get(join_url).content.decode()
    assert client.get(reverse("signup"), {"next": join_url}).status_code == 200
    assert _sign_up(client, next_url=join_url).status_code == 200
    joining.revoke_link(link=link, by=organiser)
    assert client.get(reverse("signup"), {"next": join_url}).status_code == 403
    page = client.get(join_url).content.decode()
    assert "withdrawn" in page and reverse("signup") not in page


def test_new_leagues_are_rate_limited_per_account(client):
    from league.accounts.forms import LEAGUES_PER_ACCOUNT

    client.force_login(UserFactory(username="busy"))
    data = {"game": "dreadball", "name": "L", "season_name": "S", "start_date": "2030-01-01", "cadence_days": "7",
            "double_round_robin": "single", "settings-landslide_win": "3", "settings-win": "2",
            "settings-draw": "1", "settings-loss": "0"}
    for number in range(LEAGUES_PER_ACCOUNT):  # each its own name: a second "L" is refused
        assert client.post(reverse("league:new_league"), {**data, "name": f"L{number}"}).status_code == 302
    response = client.post(reverse("league:new_league"), {**data, "name": "L again"})
    assert response.status_code == 429 and "within the hour" in response.content.decode()
    assert League.objects.count() == LEAGUES_PER_ACCOUNT


def test_pages_cost_a_fixed_number_of_queries(client, django_assert_max_num_queries):
    with django_assert_max_num_queries(3):
        client.get(reverse("signup"))
    with django_assert_max_num_queries(25):  # the mail task runs in the request in tests
        _sign_up(client)
    link = _link(mail.outbox[0]).removeprefix("http://testserver")
    with django_assert_max_num_queries(3):
        client.get(link)
    with django_assert_max_num_queries(25):  # the mail task runs in the request in tests
        client.post(link)
    with django_assert_max_num_queries(8):
        client.get(reverse("league:new_league"))


def test_a_launch_night_signs_up_through_one_join_link_from_one_address(client, season, organiser):
    """Thirty people on one shop's Wi-Fi sign up through the club's join link: the
    link's own limit counts (40 an hour by default), not the network address's (10);
    thirty plain sign-ups from that address are stopped at the address's limit."""
    from league.accounts.forms import SIGNUPS_PER_CLIENT
    from league.people import joining

    link = joining.create_link(season=season, by=organiser, max_uses=None, closes_on=None)
    join_url = reverse("league:join", args=[joining.make_token(link)])
    through_link = [_sign_up(client, username=f"guest{n}", email=f"guest{n}@example.com", next_url=join_url).status_code
                    for n in range(30)]
    assert through_link == [200] * 30
    assert User.objects.filter(username__startswith="guest").count() == 30
    plain = [_sign_up(client, username=f"walkin{n}", email=f"walkin{n}@example.com").status_code for n in range(30)]
    assert plain == [200] * SIGNUPS_PER_CLIENT + [429] * (30 - SIGNUPS_PER_CLIENT)


def test_a_join_link_has_its_own_hourly_limit_set_by_the_organiser(client, season, organiser):
    from league.people import joining

    client.force_login(organiser)
    setup = reverse("league:season_setup", args=[season.league.slug])
    response = client.post(setup, {"action": "link", "link-max_uses": "", "link-closes_on": "",
                                   "link-signups_per_hour": "2"})
    assert response.status_code == 302
    link = season.join_links.get()
    assert link.signups_per_hour == 2
    assert client.post(setup, {"action": "link", "link-signups_per_hour": "0"}).status_code == 400
    assert season.join_links.count() == 1
    client.logout()
    join_url = reverse("league:join", args=[joining.make_token(link)])
    answers = [_sign_up(client, username=f"g{n}", email=f"g{n}@example.com", next_url=join_url).status_code
               for n in range(3)]
    assert answers == [200, 200, 429]


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
@POSTGRES_ONLY[0]
@POSTGRES_ONLY[1]
def test_two_processes_share_one_count():
    """Two worker processes counting sign-ups from one address reach the limit
    together: 10 of 40 get through, not 10 in each."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    from django.db import connection

    db = connection.settings_dict
    env = {**os.environ, "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
           "DJANGO_SETTINGS_MODULE": "league.settings"}
    script = ("import django; django.setup()\n"
              "from league.throttle import within_limit\n"
              "print(sum(within_limit('signup-client', '203.0.113.9', 10) for _ in range(20)))\n")
    root = Path(__file__).resolve().parents[2]
    workers = [subprocess.Popen([sys.executable, "-c", script], cwd=root, env=env, stdout=subprocess.PIPE, text=True)
               for _ in range(2)]
    allowed = [int(worker.communicate(timeout=60)[0]) for worker in workers]
    assert sum(allowed) == 10
