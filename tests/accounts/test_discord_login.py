"""Log in with Discord (league/accounts/discord.py) against a stand-in of Discord's
OAuth2 server on 127.0.0.1 (tests/support/discord_standin.py): a new person's sign-up,
linking and unlinking on the profile, a Discord account without an address, a
cancelled authorization, a tampered or replayed state, Discord unreachable; the
lockout and session rules of the site's own log-in still hold. Off unless the
server sets its Discord application: no button, and the addresses answer 404."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit, urlencode

import pytest
from django.contrib.auth import get_user_model
from django.contrib.messages import get_messages
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from social_django.models import UserSocialAuth

from league.models import Session
from tests.support.discord_standin import CLIENT_ID, CLIENT_SECRET, StandIn
from tests.support.factories import CoachFactory, UserFactory

pytestmark = pytest.mark.django_db

User = get_user_model()
LOGIN = reverse("login")
PROFILE = reverse("profile")
COMPLETE = reverse("discord_complete")


@pytest.fixture
def standin():
    server = StandIn().start()
    yield server
    server.stop()


@pytest.fixture
def discord(settings, standin) -> StandIn:
    settings.DISCORD_CLIENT_ID = CLIENT_ID
    settings.DISCORD_CLIENT_SECRET = CLIENT_SECRET
    settings.DISCORD_API_URL = standin.api_url
    return standin


def start(client: Client, url: str = LOGIN, data: dict | None = None) -> str:
    """The button: the address Discord's authorize page is at."""
    response = client.post(url, data or {"action": "discord"})
    assert response.status_code == 302, response.content[:300]
    assert response["Location"].startswith("http://127.0.0.1:")
    return response["Location"]


def back(client: Client, location: str):
    """The browser sent back to the site from Discord."""
    parts = urlsplit(location)
    assert parts.path == COMPLETE
    return client.get(parts.path + "?" + parts.query)


def said(response) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


def logged_in_as(client: Client):
    user_id = client.session.get("_auth_user_id")
    return User.objects.get(pk=user_id) if user_id else None


def sign_in(client: Client, discord: StandIn, decision: str = "approve", url: str = LOGIN, data=None):
    return back(client, discord.authorize(start(client, url, data), decision))


# Off ---------------------------------------------------------------------------------


def test_off_unless_the_server_sets_its_discord_application(client, settings, password):
    settings.DISCORD_CLIENT_ID = CLIENT_ID
    settings.DISCORD_CLIENT_SECRET = ""
    assert "Log in with Discord" not in client.get(LOGIN).content.decode()
    assert client.get(COMPLETE + "?code=x&state=y").status_code == 404
    assert client.post(LOGIN, {"action": "discord"}).status_code == 404
    user = UserFactory(username="ada")
    client.force_login(user)
    assert "Link Discord" not in client.get(PROFILE).content.decode()
    assert client.post(PROFILE, {"form": "discord_link"}).status_code == 404
    assert UserSocialAuth.objects.count() == 0


def test_on_the_login_page_shows_the_button_and_lets_its_form_go_to_discord(client, discord):
    response = client.get(LOGIN)
    page = response.content.decode()
    assert "Log in with Discord" in page and 'name="action" value="discord"' in page
    # The form posts to the log-in page, which sends the browser on to Discord.
    assert f"form-action 'self' {discord.api_url.removesuffix('/api')}" in response["Content-Security-Policy"]


# Sign-up ------------------------------------------------------------------------------


def test_a_new_person_signs_up_with_discord_and_is_logged_in(client, discord):
    authorize = start(client, LOGIN, {"action": "discord", "next": "/rules/"})
    query = parse_qs(urlsplit(authorize).query)
    assert query["scope"] == ["identify email"] and query["redirect_uri"] == ["http://testserver" + COMPLETE]
    response = back(client, discord.authorize(authorize))
    assert response.status_code == 302 and response["Location"] == "/rules/"  # the log-in page's next
    user = logged_in_as(client)
    assert (user.username, user.email, user.is_active, user.has_usable_password()) == (
        "nelly", "nelly@example.com", True, False)
    link = UserSocialAuth.objects.get()
    assert (link.user, link.provider, link.uid) == (user, "discord", "80351110224678912")
    assert link.extra_data == {"username": "nelly"}  # no token kept
    assert said(response) == ["Welcome, nelly: your account is made."]
    # The secret went to Discord's token endpoint only, with the code issued.
    assert discord.token_requests[0]["client_secret"] == CLIENT_SECRET
    page = client.get(PROFILE).content.decode()
    assert "Linked to the Discord account <strong>nelly</strong>" in page
    assert "Change your password" not in page  # there is none to change


def test_logging_in_again_finds_the_same_account(client, discord):
    sign_in(client, discord)
    client.get(PROFILE)  # the welcome read
    client.post(reverse("logout"))
    assert logged_in_as(client) is None
    response = sign_in(client, discord)
    assert response["Location"] == reverse("league:my_fixtures")
    assert logged_in_as(client).username == "nelly" and User.objects.count() == 1
    assert said(response) == []


def test_a_taken_username_is_made_unique_whatever_its_case(client, discord):
    UserFactory(username="Nelly", email="")
    UserFactory(username="nelly2", email="")
    sign_in(client, discord)
    assert logged_in_as(client).username == "nelly3"


def test_a_discord_name_with_characters_a_username_cannot_hold(client, discord):
    discord.person = {**discord.person, "username": "la la/land!", "email": None, "verified": False}
    sign_in(client, discord)
    assert logged_in_as(client).username == "lalaland"


@pytest.mark.parametrize("email,verified", [(None, False), ("nelly@example.com", False)])
def test_a_discord_account_without_a_verified_address_gets_a_working_account(client, discord, email, verified):
    discord.person = {"id": "42", "username": "quiet", "email": email, "verified": verified}
    response = sign_in(client, discord)
    user = logged_in_as(client)
    assert (user.username, user.email, user.is_active) == ("quiet", "", True)
    assert response.status_code == 302
    assert client.get(reverse("league:my_fixtures")).status_code == 200
    assert client.get(PROFILE).status_code == 200


def test_an_address_of_an_account_here_is_never_used_to_log_in_to_it(client, discord):
    """Anyone can put an address on a Discord account: it must not open the account
    that holds it here. The person is told how to link instead; nothing is written."""
    UserFactory(username="ada", email="Nelly@Example.com")
    response = sign_in(client, discord)
    assert response["Location"] == LOGIN
    assert "log in with your password, then link discord on your profile" in said(response)[0].lower()
    assert logged_in_as(client) is None
    assert User.objects.count() == 1 and UserSocialAuth.objects.count() == 0


# Refusals -----------------------------------------------------------------------------


def test_a_cancelled_authorization_says_so_and_writes_nothing(client, discord):
    response = sign_in(client, discord, decision="cancel")
    assert response.status_code == 302 and response["Location"] == LOGIN
    assert said(response) == ["You did not authorize the site on Discord, so nothing changed."]
    assert logged_in_as(client) is None
    assert User.objects.count() == 0 and UserSocialAuth.objects.count() == 0
    assert client.get(LOGIN).status_code == 200


@pytest.mark.parametrize("tamper", ["changed", "missing", "other_browser"])
def test_a_tampered_state_is_refused(client, discord, tamper):
    location = discord.authorize(start(client))
    parts = urlsplit(location)
    query = {k: v[0] for k, v in parse_qs(parts.query).items()}
    if tamper == "changed":
        query["state"] = query["state"][:-2] + "xx"
    elif tamper == "missing":
        del query["state"]
    else:  # an attacker's own callback handed to someone else's browser
        client = Client()
    response = client.get(parts.path + "?" + urlencode(query))
    assert response.status_code == 302 and response["Location"] == LOGIN
    assert "could not be checked" in said(response)[0]
    assert logged_in_as(client) is None
    assert User.objects.count() == 0 and UserSocialAuth.objects.count() == 0
    assert discord.token_requests == []  # the code was never exchanged


def test_a_callback_used_twice_is_refused_the_second_time(client, discord):
    location = discord.authorize(start(client))
    back(client, location)
    client.post(reverse("logout"))
    response = back(client, location)
    assert "could not be checked" in said(response)[-1]
    assert logged_in_as(client) is None


def test_discord_unreachable_is_a_message_not_a_500(client, discord):
    authorize = start(client)
    location = discord.authorize(authorize)
    discord.server.shutdown()
    discord.server.server_close()
    response = back(client, location)
    assert response.status_code == 302 and response["Location"] == LOGIN
    assert said(response) == ["Discord did not answer: try again in a moment."]
    assert User.objects.count() == 0


# Link and unlink on the profile ------------------------------------------------------


def test_an_account_links_discord_on_its_profile_and_logs_in_with_it(client, discord, password):
    coach = CoachFactory(name="Ada")
    client.post(LOGIN, {"username": coach.user.username, "password": password})
    response = sign_in(client, discord, url=PROFILE, data={"form": "discord_link"})
    assert response["Location"] == PROFILE
    assert said(response) == ["Discord is linked: you can log in with it from now on."]
    assert UserSocialAuth.objects.get().user == coach.user
    assert User.objects.count() == 1  # no new account, whatever Discord's address
    assert "<strong>nelly</strong>" in client.get(PROFILE).content.decode()
    fresh = Client()
    sign_in(fresh, discord)
    assert logged_in_as(fresh) == coach.user


def test_an_account_unlinks_discord(client, discord, password):
    user = UserFactory(username="ada")
    client.force_login(user)
    sign_in(client, discord, url=PROFILE, data={"form": "discord_link"})
    response = client.post(PROFILE, {"form": "discord_unlink"})
    assert response.status_code == 302 and response["Location"] == PROFILE
    assert said(response)[-1] == "Discord is unlinked."
    assert UserSocialAuth.objects.count() == 0
    assert "Link Discord" in client.get(PROFILE).content.decode()
    # Logging in with that Discord account now makes a new account of its own.
    fresh = Client()
    sign_in(fresh, discord)
    assert logged_in_as(fresh) != user


def test_an_account_whose_only_way_in_is_discord_cannot_unlink_it(client, discord):
    sign_in(client, discord)
    response = client.post(PROFILE, {"form": "discord_unlink"})
    assert response["Location"] == PROFILE
    assert said(response)[-1] == "Set a password before unlinking Discord: it is your only way to log in."
    assert UserSocialAuth.objects.count() == 1


def test_a_discord_account_linked_to_someone_else_is_refused(client, discord):
    sign_in(Client(), discord)  # nelly's account
    other = UserFactory(username="ada")
    client.force_login(other)
    response = sign_in(client, discord, url=PROFILE, data={"form": "discord_link"})
    assert response["Location"] == PROFILE
    assert said(response) == ["That Discord account is already linked to another account here."]
    assert UserSocialAuth.objects.get().user.username == "nelly"


def test_unlinking_needs_a_log_in(client, discord):
    assert client.post(PROFILE, {"form": "discord_unlink"}).status_code == 302
    assert client.post(PROFILE, {"form": "discord_unlink"})["Location"].startswith(LOGIN)


# The site's rules still hold ----------------------------------------------------------


def test_a_locked_out_address_cannot_log_in_with_discord_either(client, discord, settings):
    sign_in(Client(), discord)  # the account exists
    for n in range(settings.AXES_ADDRESS_FAILURE_LIMIT):
        client.post(LOGIN, {"username": f"guess{n}", "password": "wrong"}, REMOTE_ADDR="127.0.0.1")
    assert client.post(LOGIN, {"username": "x", "password": "y"}).status_code == 429
    response = sign_in(client, discord)
    assert response.status_code == 429  # the lockout page, as for a password
    assert logged_in_as(client) is None


def test_an_inactive_account_cannot_log_in_with_discord(client, discord):
    sign_in(Client(), discord)
    User.objects.filter(username="nelly").update(is_active=False)
    response = sign_in(client, discord)
    assert logged_in_as(client) is None
    assert response["Location"] == LOGIN
    assert said(response) == ["The account linked to that Discord account is turned off, so it cannot log in."]


def test_a_discord_session_is_the_sites_own_one_query_session(client, discord, password):
    """The session names the site's backend, so a page reads the session, account and
    coach in one query, and costs what it costs after a password log-in
    (league/sessions.py)."""
    sign_in(Client(), discord)  # the welcome left in that browser's cookie
    sign_in(client, discord)
    assert client.session["_auth_user_backend"] == "league.backends.CoachBackend"
    key = client.session.session_key
    assert Session.objects.get(session_key=key).user.username == "nelly"
    other = Client()
    other.post(LOGIN, {"username": UserFactory(username="ada", email="").username, "password": password})

    def cost(c: Client) -> list[str]:
        c.get(reverse("league:my_fixtures"))
        with CaptureQueriesContext(connection) as queries:
            assert c.get(reverse("league:my_fixtures")).status_code == 200
        return [q["sql"] for q in queries.captured_queries]

    by_discord, by_password = cost(client), cost(other)
    assert len(by_discord) == len(by_password)
    assert '"league_session"' in by_discord[0] and '"auth_user"' in by_discord[0]
    assert not any('"auth_user"' in sql for sql in by_discord[1:])
    # Logging out ends it, as any session.
    client.post(reverse("logout"))
    assert not Session.objects.filter(session_key=key).exists()


def test_a_discord_account_sets_a_password_on_its_profile_then_may_unlink(client, discord):
    sign_in(client, discord)
    assert "Set a password" in client.get(PROFILE).content.decode()
    refused = client.post(PROFILE, {"form": "set_password", "new_password1": "short", "new_password2": "short"})
    assert refused.status_code == 400 and not logged_in_as(client).has_usable_password()
    response = client.post(PROFILE, {"form": "set_password", "new_password1": "tangled-harbour-57",
                                     "new_password2": "tangled-harbour-57"})
    assert response.status_code == 302 and said(response)[-1] == "Password set: you can log in with it too."
    assert logged_in_as(client).check_password("tangled-harbour-57")  # and still logged in
    assert "Set a password" not in client.get(PROFILE).content.decode()
    assert Client().post(LOGIN, {"username": "nelly", "password": "tangled-harbour-57"}).status_code == 302
    client.post(PROFILE, {"form": "discord_unlink"})
    assert UserSocialAuth.objects.count() == 0


def test_an_account_with_a_password_cannot_set_one_without_the_old_one(client, password):
    user = UserFactory(username="ada")
    client.force_login(user)
    response = client.post(PROFILE, {"form": "set_password", "new_password1": "tangled-harbour-57",
                                     "new_password2": "tangled-harbour-57"})
    assert response.status_code == 400
    user.refresh_from_db()
    assert user.check_password(password)


def _costs(discord, coaches: int) -> tuple[int, int]:
    """Queries of the return from Discord (a sign-up) and of the profile after it,
    with ``coaches`` coaches (and their accounts) on the site."""
    CoachFactory.create_batch(coaches)
    client = Client()
    location = discord.authorize(start(client))
    with CaptureQueriesContext(connection) as back_queries:
        back(client, location)
    with CaptureQueriesContext(connection) as profile_queries:
        assert client.get(PROFILE).status_code == 200
    UserSocialAuth.objects.all().delete()
    User.objects.filter(username__startswith="nelly").delete()
    return len(back_queries), len(profile_queries)


def test_the_return_from_discord_and_the_profile_cost_the_same_at_4_and_40_coaches(discord):
    assert _costs(discord, 4) == _costs(discord, 36)  # 4, then 40 in all
