"""Accounts without a superuser: the organiser adds and invites coaches, a coach
accepts the link (once, before it expires), resets a password by email and edits
their profile. Every role: anonymous, coach, other coach, organiser, another
league's organiser. Mail is read from Django's outbox."""

from __future__ import annotations

import re
import time
from unittest import mock

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.core import signing as django_signing
from django.core.mail import EmailMultiAlternatives
from django.urls import reverse

from league import signing
from league.people import invitations
from league.outbox import tasks
from league.models import Coach, Entry
from tests.support.factories import CoachFactory, EntryFactory, LeagueFactory, SeasonFactory, UserFactory

pytestmark = pytest.mark.django_db
User = get_user_model()


def _link(message) -> str:
    return re.search(r"https?://\S+/accounts/invitation/\S+/", message.body).group(0)


def _path(link: str) -> str:
    return "/" + link.split("/", 3)[3]


@pytest.fixture
def coach_user(season):
    return EntryFactory(season=season, coach=CoachFactory(name="Velocity")).coach.user


@pytest.fixture
def other_coach_user(db):
    return EntryFactory(coach=CoachFactory(name="Outsider")).coach.user


def _roles(organiser, other_organiser, coach_user, other_coach_user):
    return {"coach": coach_user, "other coach": other_coach_user, "other organiser": other_organiser}


# The organiser adds a coach -----------------------------------------------------------


def test_organiser_adds_a_coach_who_is_emailed_an_invitation(client, organiser, season):
    client.force_login(organiser)
    url = reverse("league:organiser_coaches", args=[season.league.slug])
    response = client.post(url, {"name": "Mina Hart", "email": "mina@example.org", "team": "Masons", "enter": "on"})
    assert response.status_code == 302 and response["Location"] == url
    coach = Coach.objects.get(name="Mina Hart")
    assert coach.email == "mina@example.org" and coach.user is None and coach.created_by == organiser
    assert Entry.objects.get(coach=coach).season == season
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["mina@example.org"]
    assert season.league.name in message.subject
    assert "/accounts/invitation/" in message.body
    # The list masks the address: the organiser's page shows no one's email in full.
    page = client.get(url).content.decode()
    assert "Mina Hart" in page and "mina@example.org" not in page and "m…@example.org" in page


def test_a_refused_add_re_renders_the_page_with_the_message_and_writes_nothing(client, organiser, season, coach_user):
    client.force_login(organiser)
    url = reverse("league:organiser_coaches", args=[season.league.slug])
    response = client.post(url, {"name": "velocity", "email": "v@example.org", "enter": "on"})
    assert response.status_code == 400
    assert "There is already a coach called Velocity in Season 1" in response.content.decode()
    assert Coach.objects.filter(name__iexact="velocity").count() == 1
    assert mail.outbox == []
    # Reloading the address is a GET of the same page: never a 405.
    assert client.get(url).status_code == 200


@pytest.mark.parametrize("role", ["anonymous", "coach", "other coach", "other organiser"])
def test_only_the_leagues_organiser_adds_coaches(client, role, season, organiser, other_organiser, coach_user, other_coach_user):
    url = reverse("league:organiser_coaches", args=[season.league.slug])
    if role != "anonymous":
        client.force_login(_roles(organiser, other_organiser, coach_user, other_coach_user)[role])
    get = client.get(url)
    post = client.post(url, {"name": "Sneaky", "email": "s@example.org"})
    if role == "anonymous":
        assert get.status_code == 302 and reverse("login") in get["Location"]
        assert post.status_code == 302
    else:
        assert get.status_code == 403 and post.status_code == 403
    assert not Coach.objects.filter(name="Sneaky").exists()
    assert mail.outbox == []


def test_unknown_league_is_404_for_an_organiser(client, organiser):
    client.force_login(organiser)
    assert client.get(reverse("league:organiser_coaches", args=["nope"])).status_code == 404


def test_organiser_re_sends_an_invitation_and_a_get_goes_back(client, organiser, season):
    coach = EntryFactory(season=season, coach=CoachFactory(name="No Login", user=None, email="nl@example.org")).coach
    client.force_login(organiser)
    url = reverse("league:invite_coach", args=[season.league.slug, coach.pk])
    assert client.get(url).status_code == 302  # a reload of the POST address: back to the page
    assert mail.outbox == []
    response = client.post(url)
    assert response.status_code == 302
    assert [m.to for m in mail.outbox] == [["nl@example.org"]]


def test_invite_refuses_a_coach_of_another_league(client, organiser, season, other_coach_user):
    client.force_login(organiser)
    other = Coach.objects.get(user=other_coach_user)
    assert client.post(reverse("league:invite_coach", args=[season.league.slug, other.pk])).status_code == 404


def test_admin_action_invites(client, organiser, season):
    coach = EntryFactory(season=season, coach=CoachFactory(name="Admin Invite", user=None, email="ai@example.org", created_by=organiser)).coach
    client.force_login(organiser)
    response = client.post(
        reverse("admin:league_coach_changelist"), {"action": "invite", "_selected_action": [coach.pk]}, follow=True
    )
    assert response.status_code == 200
    assert [m.to for m in mail.outbox] == [["ai@example.org"]]


# The coach accepts --------------------------------------------------------------------


@pytest.fixture
def invited(season, organiser):
    coach = invitations.add_coach(league=season.league, season=season, by=organiser, name="Mina Hart", email="mina@example.org")
    invitations.send_invitation(coach=coach, league=season.league, request=None)
    return coach, _path(_link(mail.outbox[-1]))


def test_anonymous_sets_a_password_and_becomes_the_coach(client, invited):
    coach, path = invited
    page = client.get(path)
    assert page.status_code == 200 and "Welcome, Mina Hart" in page.content.decode()
    response = client.post(path, {"username": "mina", "password1": "a long pass phrase 7", "password2": "a long pass phrase 7"})
    assert response.status_code == 302 and response["Location"] == reverse("league:my_fixtures")
    coach.refresh_from_db()
    assert coach.user.username == "mina" and coach.user.email == "mina@example.org"
    assert coach.user.check_password("a long pass phrase 7")
    # Logged in as that coach now.
    assert "Mina Hart" in client.get(reverse("league:my_fixtures")).content.decode()
    # Single use: the same link now says why it cannot be used, and creates nothing.
    client.logout()
    again = client.post(path, {"username": "mina2", "password1": "a long pass phrase 7", "password2": "a long pass phrase 7"})
    assert again.status_code == 400 and "already been used" in again.content.decode()
    assert not User.objects.filter(username="mina2").exists()


def test_a_weak_password_or_taken_username_is_refused_on_the_form(client, invited, coach_user):
    coach, path = invited
    weak = client.post(path, {"username": "mina", "password1": "123", "password2": "123"})
    assert weak.status_code == 400 and "too short" in weak.content.decode()
    taken = client.post(path, {"username": coach_user.username.upper(), "password1": "a long pass phrase 7", "password2": "a long pass phrase 7"})
    assert taken.status_code == 400 and "username is taken" in taken.content.decode()
    coach.refresh_from_db()
    assert coach.user is None


def test_a_logged_in_user_without_a_coach_links_their_account(client, invited):
    coach, path = invited
    user = UserFactory(username="already")
    client.force_login(user)
    assert "Link my account" in client.get(path).content.decode()
    assert client.post(path).status_code == 302
    coach.refresh_from_db()
    assert coach.user == user


def test_a_coach_of_the_same_season_cannot_take_another_entrants_place(client, invited, coach_user):
    """Two entrants of one season are two people (league/people/merges.py)."""
    coach, path = invited
    client.force_login(coach_user)
    response = client.post(path)
    assert response.status_code == 400 and "two entrants of one season are two people" in response.content.decode()
    coach.refresh_from_db()
    assert coach.user is None


def test_a_coach_of_another_league_takes_the_place_as_the_same_coach(client, invited, other_coach_user):
    """One person, one coach: the invited place joins the account's coach."""
    coach, path = invited
    mine = Coach.objects.get(user=other_coach_user)
    entry = Entry.objects.get(coach=coach)
    client.force_login(other_coach_user)
    page = client.get(path).content.decode()
    assert f"You are <strong>{mine.name}</strong> in" in page and "joins your record" in page
    assert client.post(path).status_code == 302
    assert not Coach.objects.filter(pk=coach.pk).exists()
    assert Entry.objects.get(pk=entry.pk).coach == mine


def test_an_expired_tampered_or_replaced_link_is_refused(client, invited, settings):
    coach, path = invited
    token = path.rstrip("/").rsplit("/", 1)[1]
    assert client.get(reverse("accept_invitation", args=[token + "x"])).status_code == 400
    later = time.time() + signing.INVITATION.max_age.total_seconds() + 60
    with mock.patch.object(django_signing.time, "time", lambda: later):
        expired = client.get(path)
    assert expired.status_code == 400 and "expired" in expired.content.decode()
    coach.email = "new@example.org"
    coach.save()
    replaced = client.get(path)
    assert replaced.status_code == 400 and "replaced" in replaced.content.decode()
    forged = django_signing.dumps({"c": coach.pk, "s": "0" * 20}, salt="other-salt")
    assert client.get(reverse("accept_invitation", args=[forged])).status_code == 400


PUBLISHED_KEY = "dev-only-insecure-key-set-SECRET_KEY-in-production"


def _forged_token(coach_pk: int, email: str = "") -> str:
    """What anyone could sign with the key published in league/settings.py (the
    test's SECRET_KEY): the coach's id (public), the address (empty when none), no
    account, and no nonce, which only the email carries."""
    return signing.INVITATION.make(ids={"c": coach_pk}, state=f"{coach_pk}:{email}:0:")


def test_an_invitation_forged_with_the_published_key_is_refused(client, settings, organiser, season):
    """Even on a server whose SECRET_KEY is the published development key,
    a token needs the invitation's random nonce, which only the email carries."""
    settings.SECRET_KEY = PUBLISHED_KEY
    silent = EntryFactory(season=season, coach=CoachFactory(name="No Address", user=None, email="")).coach
    invited = invitations.add_coach(league=season.league, season=season, by=organiser, name="Mina Hart", email="mina@example.org")
    invitations.send_invitation(coach=invited, league=season.league, request=None)
    for coach, email in ((silent, ""), (invited, "mina@example.org")):
        path = reverse("accept_invitation", args=[_forged_token(coach.pk, email)])
        assert client.get(path).status_code == 400
        response = client.post(path, {"username": "forger", "password1": "a long pass phrase 7", "password2": "a long pass phrase 7"})
        assert response.status_code == 400
        coach.refresh_from_db()
        assert coach.user is None
    assert not User.objects.filter(username="forger").exists()
    # The real link still works.
    assert client.get(_path(_link(mail.outbox[-1]))).status_code == 200


def test_sending_an_invitation_again_retires_the_old_link(client, organiser, season):
    """Each invitation has its own nonce; a re-sent one replaces it."""
    coach = invitations.add_coach(league=season.league, season=season, by=organiser, name="Mina Hart", email="mina@example.org")
    client.force_login(organiser)
    invite = reverse("league:invite_coach", args=[season.league.slug, coach.pk])
    client.post(invite)
    client.post(invite)
    client.logout()
    first, second = (_path(_link(message)) for message in mail.outbox)
    assert first != second
    old = client.post(first, {"username": "mina", "password1": "a long pass phrase 7", "password2": "a long pass phrase 7"})
    assert old.status_code == 400 and "replaced by a newer one" in old.content.decode()
    assert not User.objects.filter(username="mina").exists()
    assert client.post(second, {"username": "mina", "password1": "a long pass phrase 7", "password2": "a long pass phrase 7"}).status_code == 302
    coach.refresh_from_db()
    assert coach.user.username == "mina" and coach.invitation_nonce == ""


def test_invitation_links_use_the_request_when_site_url_is_unset(client, organiser, season, settings):
    settings.SITE_URL = ""
    settings.ALLOWED_HOSTS = ["league.example.org"]
    client.force_login(organiser)
    client.post(
        reverse("league:organiser_coaches", args=[season.league.slug]),
        {"name": "Host Test", "email": "h@example.org"}, HTTP_HOST="league.example.org",
    )
    assert _link(mail.outbox[0]).startswith("http://league.example.org/accounts/invitation/")
    settings.SITE_URL = "https://leagues.example.com"
    invitations.send_invitation(coach=Coach.objects.get(name="Host Test"), league=season.league, request=None)
    assert _link(mail.outbox[1]).startswith("https://leagues.example.com/accounts/invitation/")


# Password reset -----------------------------------------------------------------------


def test_password_reset_by_email(client, coach_user):
    assert client.get(reverse("password_reset")).status_code == 200
    response = client.post(reverse("password_reset"), {"email": coach_user.email})
    assert response.status_code == 302 and response["Location"] == reverse("password_reset_done")
    assert "Check your email" in client.get(reverse("password_reset_done")).content.decode()
    assert [m.to for m in mail.outbox] == [[coach_user.email]]
    body = mail.outbox[0].body
    assert "Velocity" in body  # the display name, not only the username
    link = re.search(r"https?://\S+/accounts/reset/\S+/", body).group(0)
    form = client.get(_path(link), follow=True)
    assert "Choose a new password" in form.content.decode()
    done = client.post(form.redirect_chain[-1][0], {"new_password1": "fresh pass phrase 9", "new_password2": "fresh pass phrase 9"})
    assert done.status_code == 302 and done["Location"] == reverse("password_reset_complete")
    coach_user.refresh_from_db()
    assert coach_user.check_password("fresh pass phrase 9")
    # Used once: the link is refused now.
    assert "cannot be used" in client.get(_path(link), follow=True).content.decode()


def test_password_reset_mails_one_inbox_three_times_an_hour(client, coach_user):
    """30 requests in a row (the attack sent 30 emails in 1.9 s) send
    three; the page says the same each time."""
    for case in range(30):
        email = coach_user.email.upper() if case % 2 else coach_user.email
        response = client.post(reverse("password_reset"), {"email": email})
        assert response.status_code == 302 and response["Location"] == reverse("password_reset_done")
    assert [message.to for message in mail.outbox] == [[coach_user.email]] * 3


def test_password_reset_is_throttled_per_account_too(client, coach_user):
    with mock.patch("league.accounts.forms.RESETS_PER_ADDRESS", 100):
        for _ in range(10):
            client.post(reverse("password_reset"), {"email": coach_user.email})
    assert len(mail.outbox) == 3


def test_password_reset_for_an_unknown_address_sends_nothing_and_says_the_same(client, db):
    response = client.post(reverse("password_reset"), {"email": "nobody@example.org"})
    assert response.status_code == 302 and response["Location"] == reverse("password_reset_done")
    assert mail.outbox == []


# Profile ------------------------------------------------------------------------------


def test_anonymous_is_sent_to_log_in(client, db):
    response = client.get(reverse("profile"))
    assert response.status_code == 302 and reverse("login") in response["Location"]


def test_coach_changes_display_name_and_email(client, coach_user, season, password):
    """A new address takes the password and is used once the link sent
    to it is opened (a GET of the link asks; its POST changes the address)."""
    client.force_login(coach_user)
    old = coach_user.email
    page = client.get(reverse("profile")).content.decode()
    assert "Velocity" in page and old in page
    response = client.post(reverse("profile"), {"name": "Velocity Prime", "email": "vp@example.org", "password": password})
    assert response.status_code == 302
    coach = Coach.objects.get(user=coach_user)
    coach_user.refresh_from_db()
    assert coach.name == "Velocity Prime" and coach.email == old and coach_user.email == old
    assert [message.to for message in mail.outbox] == [["vp@example.org"]]
    link = _path(re.search(r"https?://\S+/accounts/email/\S+/", mail.outbox[0].body).group(0))
    assert "vp@example.org" in client.get(link).content.decode()
    coach_user.refresh_from_db()
    assert coach_user.email == old  # a GET writes nothing
    assert client.post(link).status_code == 302
    coach_user.refresh_from_db()
    assert coach_user.email == "vp@example.org" and Coach.objects.get(user=coach_user).email == "vp@example.org"
    response = client.post(link)
    assert response.status_code == 400 and "has been used" in response.content.decode()
    # The header shows the display name, not the username.
    header = client.get(reverse("league:league_list")).content.decode()
    assert "Velocity Prime" in header


def test_profile_refuses_the_name_of_another_entrant_of_their_season(client, coach_user, other_coach_user, season):
    """Names differ within a season's entrants, nowhere else (league/people/entrants.py)."""
    client.force_login(coach_user)
    response = client.post(reverse("profile"), {"name": "outsider", "email": coach_user.email})
    assert response.status_code == 302 and Coach.objects.get(user=coach_user).name == "outsider"
    EntryFactory(season=season, coach=Coach.objects.get(user=other_coach_user))
    response = client.post(reverse("profile"), {"name": "Velocity", "email": coach_user.email})
    assert response.status_code == 302
    response = client.post(reverse("profile"), {"name": "OUTSIDER", "email": coach_user.email})
    assert response.status_code == 400
    assert "There is already a coach called Outsider in Season 1" in response.content.decode()
    assert Coach.objects.get(user=coach_user).name == "Velocity"


def test_organiser_without_a_coach_edits_only_their_email(client, organiser, password):
    client.force_login(organiser)
    assert 'name="name"' not in client.get(reverse("profile")).content.decode()
    data = {"email": "lead@example.org", "name": "Hijack", "password": password}
    assert client.post(reverse("profile"), data).status_code == 302
    assert client.post(_path(re.search(r"https?://\S+/accounts/email/\S+/", mail.outbox[0].body).group(0))).status_code == 302
    organiser.refresh_from_db()
    assert organiser.email == "lead@example.org"
    assert not Coach.objects.filter(name="Hijack").exists()


# Account hygiene ---------------------------------------------------------


def test_a_new_address_needs_the_password(client, coach_user):
    client.force_login(coach_user)
    old = coach_user.email
    for given in ("", "wrong"):
        response = client.post(reverse("profile"), {"name": "Velocity", "email": "thief@example.org", "password": given})
        assert response.status_code == 400 and "Enter your password" in response.content.decode()
    coach_user.refresh_from_db()
    assert coach_user.email == old and mail.outbox == []


def test_address_confirmations_to_one_inbox_are_throttled(client, coach_user, password):
    client.force_login(coach_user)
    for _ in range(6):
        response = client.post(reverse("profile"), {"name": "Velocity", "email": "victim@example.org", "password": password})
        assert response.status_code == 302
    assert len(mail.outbox) == 3
    assert "try again later" in client.get(reverse("profile")).content.decode()


def test_two_accounts_never_share_an_address(client, coach_user, other_coach_user, password):
    client.force_login(coach_user)
    taken = other_coach_user.email.upper()
    response = client.post(reverse("profile"), {"name": "Velocity", "email": taken, "password": password})
    assert response.status_code == 400 and "Another account uses this address" in response.content.decode()
    assert mail.outbox == []
    # Nor when the other account takes it while the link waits.
    client.post(reverse("profile"), {"name": "Velocity", "email": "free@example.org", "password": password})
    link = _path(re.search(r"https?://\S+/accounts/email/\S+/", mail.outbox[0].body).group(0))
    User.objects.filter(pk=other_coach_user.pk).update(email="FREE@example.org")
    response = client.post(link)
    assert response.status_code == 400 and "Another account uses this address" in response.content.decode()
    coach_user.refresh_from_db()
    assert coach_user.email != "free@example.org"


def test_an_invitation_does_not_make_a_second_account_with_a_used_address(client, organiser, season):
    UserFactory(username="first", email="ada@example.org")
    coach = invitations.add_coach(league=season.league, season=season, by=organiser, name="Ada", email="ADA@example.org")
    invitations.send_invitation(coach=coach, league=season.league, request=None)
    url = reverse("accept_invitation", args=[invitations.make_token(coach)])
    response = client.post(url, {"username": "second", "password1": "Sprocket-Hollis-42", "password2": "Sprocket-Hollis-42"})
    assert response.status_code == 400 and "An account already uses this email address" in response.content.decode()
    assert not User.objects.filter(username="second").exists()


@pytest.mark.parametrize("username", ["ＦＩＲＳＴ", "First", "fi\u200brst"])
def test_a_username_that_only_looks_different_is_taken_or_refused(client, organiser, season, username):
    UserFactory(username="first")
    coach = invitations.add_coach(league=season.league, season=season, by=organiser, name="Bea", email="bea@example.org")
    invitations.send_invitation(coach=coach, league=season.league, request=None)
    url = reverse("accept_invitation", args=[invitations.make_token(coach)])
    response = client.post(url, {"username": username, "password1": "Sprocket-Hollis-42", "password2": "Sprocket-Hollis-42"})
    assert response.status_code == 400
    assert User.objects.count() == 2 and Coach.objects.get(pk=coach.pk).user is None


@pytest.mark.parametrize("name", ["Velo\u200bcity", "ＶＥＬＯＣＩＴＹ", "velo\u00adcity", "VELOCITY", "Velo\u2060city"])
def test_a_coach_name_that_only_looks_different_is_the_same_name(client, organiser, season, coach_user, other_coach_user, name):
    """NFKC, without zero-width and other format characters, casefolded: the
    organiser's new coach and another entrant's display name in the season are refused."""
    client.force_login(organiser)
    url = reverse("league:organiser_coaches", args=[season.league.slug])
    response = client.post(url, {"name": name, "email": "twin@example.org", "team": "", "enter": "on"})
    assert response.status_code == 400 and "There is already a coach called Velocity in" in response.content.decode()
    assert Coach.objects.count() == 2
    EntryFactory(season=season, coach=Coach.objects.get(user=other_coach_user))
    client.force_login(other_coach_user)
    response = client.post(reverse("profile"), {"name": name, "email": other_coach_user.email})
    assert response.status_code == 400 and "There is already a coach called Velocity in" in response.content.decode()
    assert Coach.objects.get(user=other_coach_user).name == "Outsider"


def test_a_post_with_only_the_csrf_token_blanks_nothing(client, organiser, coach_user):
    """A field the POST left out is an error, not an empty value."""
    client.force_login(organiser)
    organiser_email = organiser.email
    response = client.post(reverse("profile"), {"csrfmiddlewaretoken": "token"})
    assert response.status_code == 400 and "This field was not sent" in response.content.decode()
    organiser.refresh_from_db()
    assert organiser.email == organiser_email != ""
    client.force_login(coach_user)
    response = client.post(reverse("profile"), {"name": "Velocity Prime"})
    assert response.status_code == 400 and "This field was not sent" in response.content.decode()
    coach_user.refresh_from_db()
    assert coach_user.email and Coach.objects.get(user=coach_user).name == "Velocity"


def test_no_page_shows_another_persons_email(client, coach_user, other_coach_user, season):
    other = Coach.objects.get(user=other_coach_user)
    client.force_login(coach_user)
    entry = Entry.objects.get(coach__user=coach_user)
    pages = [
        reverse("league:league_list"),
        reverse("league:league_detail", args=[season.league.slug]),
        reverse("league:coach_detail", args=[season.league.slug, entry.coach_id]),
        reverse("profile"),
    ]
    for url in pages:
        body = client.get(url).content.decode()
        assert other.email not in body and other_coach_user.email not in body, url


def test_a_mail_server_failure_is_retried_by_the_queue_not_a_server_error(client, organiser, season, monkeypatch, caplog):
    """The invitation is a task like every mail, so a mail server that
    refuses never reaches the organiser's request: the coach is saved, the page says
    the invitation is on its way, and the queue retries, then logs, the refusal."""
    attempts = []

    def refuse(self, *args, **kwargs):
        attempts.append(self.to)
        raise ConnectionRefusedError("no mail server")

    monkeypatch.setattr(EmailMultiAlternatives, "send", refuse)
    client.force_login(organiser)
    response = client.post(
        reverse("league:organiser_coaches", args=[season.league.slug]), {"name": "Offline", "email": "o@example.org"}, follow=True
    )
    assert response.status_code == 200
    assert "Offline added; an invitation is on its way to them." in response.content.decode()
    assert Coach.objects.filter(name="Offline").exists()
    assert attempts == [["o@example.org"]] * tasks.ATTEMPTS and not mail.outbox
    assert "Notification invitation not sent" in caplog.text
