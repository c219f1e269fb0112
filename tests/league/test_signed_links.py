"""Every link handed to a person (sign-up, email change, invitation, join link) is
made and checked by league/signing.py one way: signed with HMAC-SHA-256
under its kind's own salt, bound to its state by an HMAC-SHA-256 digest, refused
with its kind's words when it is expired, tampered with, of another kind or used.
Links handed out before every kind was bound the same way still open their pages."""

from __future__ import annotations

import itertools
import time

import pytest
from django.core import signing as django_signing
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils.crypto import salted_hmac

from league import signing
from league.people import invitations
from league.models import Coach, Entry
from league.people import joining
from tests.support.factories import CoachFactory, UserFactory

KINDS = {"signup": signing.SIGNUP, "email_change": signing.EMAIL_CHANGE, "invitation": signing.INVITATION,
         "join": signing.JOIN, "claim": signing.CLAIM}
EXPIRING = [name for name, kind in KINDS.items() if kind.max_age is not None]
STATE = "7:ada@example.org:pbkdf2_sha256$hash"


def _refusal(kind: signing.LinkKind, token: str, state: str = STATE) -> signing.LinkError:
    with pytest.raises(signing.LinkError) as caught:
        kind.check(kind.read(token), state)
    return caught.value


def _later(monkeypatch, seconds: float) -> None:
    now = time.time()
    monkeypatch.setattr(django_signing.time, "time", lambda: now + seconds)


@pytest.mark.parametrize("name", KINDS)
def test_a_link_of_each_kind_round_trips(name):
    kind = KINDS[name]
    data = kind.read(kind.make(ids={"u": 7, "e": "new@example.org"}, state=STATE))
    kind.check(data, STATE)
    assert data["u"] == 7 and data["e"] == "new@example.org"


@pytest.mark.parametrize("name", KINDS)
def test_every_kind_signs_and_binds_with_sha256(name):
    kind = KINDS[name]
    token = kind.make(ids={"u": 7}, state=STATE)
    assert django_signing.TimestampSigner(salt=kind.salt, algorithm="sha256").unsign_object(token) == {
        "u": 7, "s": salted_hmac(kind.salt, STATE, algorithm="sha256").hexdigest()[:32],
    }
    with pytest.raises(django_signing.BadSignature):
        django_signing.TimestampSigner(salt=kind.salt, algorithm="sha1").unsign_object(token)


@pytest.mark.parametrize("name", KINDS)
def test_a_tampered_link_is_refused(name):
    kind = KINDS[name]
    token = kind.make(ids={"u": 7}, state=STATE)
    payload, rest = token.split(":", 1)
    foreign = django_signing.TimestampSigner(key="another server's key", salt=kind.salt, algorithm="sha256")
    forgeries = [
        token[:-1] + ("A" if token[-1] != "A" else "B"),  # the signature changed
        payload[:-1] + ("A" if payload[-1] != "A" else "B") + ":" + rest,  # the payload changed
        token[: len(token) // 2],  # cut short, as a mail client may wrap it
        "not-a-token",
        "",
        foreign.sign_object(kind.read(token), compress=True),  # signed with another SECRET_KEY
        django_signing.TimestampSigner(salt=kind.salt, algorithm="sha256").sign_object([7, STATE]),  # not an object
    ]
    for forged in forgeries:
        error = _refusal(kind, forged)
        assert (error.reason, error.messages) == (signing.TAMPERED, [kind.tampered]), forged


@pytest.mark.parametrize(("made", "opened"), itertools.permutations(KINDS, 2))
def test_a_link_of_another_kind_is_refused(made, opened):
    token = KINDS[made].make(ids={"u": 7}, state=STATE)
    assert _refusal(KINDS[opened], token).reason == signing.TAMPERED


@pytest.mark.parametrize("name", EXPIRING)
def test_a_link_past_its_max_age_is_refused(name, monkeypatch):
    kind = KINDS[name]
    token = kind.make(ids={"u": 7}, state=STATE)
    _later(monkeypatch, kind.max_age.total_seconds() - 60)
    kind.check(kind.read(token), STATE)
    _later(monkeypatch, kind.max_age.total_seconds() + 60)
    error = _refusal(kind, token)
    assert (error.reason, error.messages) == (signing.EXPIRED, [kind.expired])


def test_a_join_link_works_until_the_organiser_closes_it(monkeypatch):
    token = signing.JOIN.make(ids={"l": 7}, state="key")
    _later(monkeypatch, 10 * 365 * 86400)
    signing.JOIN.check(signing.JOIN.read(token), "key")


@pytest.mark.parametrize("name", KINDS)
def test_a_link_whose_state_changed_is_refused(name):
    kind = KINDS[name]
    token = kind.make(ids={"u": 7}, state=STATE)
    error = _refusal(kind, token, state=STATE.replace("ada@", "ada.new@"))
    assert (error.reason, error.messages) == (signing.USED, [kind.used])
    assert isinstance(error, ValidationError)  # what the pages already catch


# Links handed out before: signed as the flows' own modules signed them.


def _signed_before(salt: str, payload: dict) -> str:
    return django_signing.dumps(payload, salt=salt, compress=True)


@pytest.mark.django_db
def test_a_sign_up_link_mailed_before_verifies_the_account(client):
    user = UserFactory(username="ada", email="ada@example.org", is_active=False)
    state = f"{user.pk}:ada@example.org:{user.password}:False"
    digest = salted_hmac("league.signup", state, algorithm="sha256").hexdigest()[:32]
    token = _signed_before("league.signup", {"u": user.pk, "s": digest})
    url = reverse("verify_email", args=[token])
    assert "ada@example.org" in client.get(url).content.decode()
    assert client.post(url).status_code == 302
    user.refresh_from_db()
    assert user.is_active
    assert "has been used already" in client.get(url).content.decode()


@pytest.mark.django_db
def test_an_email_change_link_mailed_with_the_sha1_digest_still_changes_the_address(client):
    user = CoachFactory(name="Ada", email="ada@example.org").user
    state = f"{user.pk}:{user.email.lower()}:{user.password}"
    sha1 = salted_hmac("league.email_change", state).hexdigest()[:20]
    token = _signed_before("league.email_change", {"u": user.pk, "e": "ada.new@example.org", "s": sha1})
    url = reverse("confirm_email", args=[token])
    assert "ada.new@example.org" in client.get(url).content.decode()
    assert client.post(url).status_code == 302
    user.refresh_from_db()
    assert user.email == "ada.new@example.org" and Coach.objects.get(user=user).email == "ada.new@example.org"
    refused = client.post(url)
    assert refused.status_code == 400 and "has been used" in refused.content.decode()


@pytest.mark.django_db
def test_an_invitation_mailed_before_opens_its_page(client, organiser, season):
    coach = invitations.add_coach(league=season.league, season=season, by=organiser, name="Mina Hart",
                                  email="mina@example.org")
    invitations.send_invitation(coach=coach, league=season.league, request=None)
    coach.refresh_from_db()
    state = f"{coach.pk}:mina@example.org:0:{coach.invitation_nonce}"
    digest = salted_hmac("league.invitations", state, algorithm="sha256").hexdigest()[:32]
    token = _signed_before("league.invitations", {"c": coach.pk, "s": digest})
    page = client.get(reverse("accept_invitation", args=[token]))
    assert page.status_code == 200 and "Mina Hart" in page.content.decode()


@pytest.mark.django_db
def test_a_join_link_that_carries_its_key_still_joins(client, organiser, season):
    link = joining.create_link(season=season, by=organiser, max_uses=None, closes_on=None)
    url = reverse("league:join", args=[_signed_before("league.joinlink", {"l": link.pk, "k": link.key})])
    page = client.get(url)
    assert page.status_code == 200 and f"Join {season.league.name}" in page.content.decode()
    client.force_login(UserFactory(username="newcomer"))
    assert client.post(url, {"name": "Newcomer"}).status_code == 302
    assert Entry.objects.filter(season=season, coach__name="Newcomer").exists()
    guessed = reverse("league:join", args=[_signed_before("league.joinlink", {"l": link.pk, "k": "guessed"})])
    refused = client.get(guessed)
    assert refused.status_code == 400 and "not valid" in refused.content.decode()
