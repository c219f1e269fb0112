"""Personal API tokens on /accounts/tokens/: made with a name and scopes, shown
once, only their SHA-256 kept, revoked by their owner only."""

from __future__ import annotations

import hashlib
import re

import pytest
from django.urls import reverse

from league.api.models import ApiToken
from tests.support.factories import UserFactory

URL = "/accounts/tokens/"
TOKEN = re.compile(r"lgt_[0-9a-f]{12}_[A-Za-z0-9_-]{43}")


def make(client, name="results bot", scopes=("read", "report")):
    return client.post(URL, {"action": "create", "name": name, "scopes": list(scopes)})


@pytest.mark.django_db
def test_a_token_is_shown_once_and_only_its_hash_is_kept(client):
    user = UserFactory()
    client.force_login(user)
    assert reverse("api_tokens") == URL
    answer = make(client)
    assert answer.status_code == 201
    assert "no-store" in answer["Cache-Control"]
    html = answer.content.decode()
    shown = TOKEN.findall(html)
    assert len(set(shown)) == 1, html
    token = ApiToken.objects.get()
    assert (token.user, token.name, token.scopes) == (user, "results bot", ["read", "report"])
    assert token.digest == hashlib.sha256(shown[0].encode()).hexdigest()
    assert shown[0].startswith(f"lgt_{token.prefix}_")
    stored = " ".join(str(value) for value in ApiToken.objects.values_list().get())
    assert shown[0] not in stored and shown[0].split("_", 2)[2] not in stored
    again = client.get(URL).content.decode()
    assert not TOKEN.search(again)
    assert f"lgt_{token.prefix}_…" in again and "Report, confirm and dispute results as your coach" in again


@pytest.mark.django_db
def test_a_token_needs_a_name_and_a_scope_and_nothing_is_written_without(client):
    client.force_login(UserFactory())
    refused = make(client, name="   ")
    assert refused.status_code == 400 and "Name the token" in refused.content.decode()
    refused = make(client, scopes=())
    assert refused.status_code == 400 and "Choose at least one thing" in refused.content.decode()
    assert make(client, scopes=("everything",)).status_code == 400
    assert client.post(URL, {}).status_code == 400
    assert not ApiToken.objects.exists()


@pytest.mark.django_db
def test_the_owner_revokes_a_token_and_nobody_else_can(client):
    owner, other = UserFactory(), UserFactory()
    client.force_login(owner)
    make(client)
    token = ApiToken.objects.get()
    client.force_login(other)
    assert client.post(URL, {"action": "revoke", "token": token.pk}).status_code == 404
    assert client.post(URL, {"action": "revoke", "token": "x"}).status_code == 404
    token.refresh_from_db()
    assert token.is_active
    assert "results bot" not in client.get(URL).content.decode()
    client.force_login(owner)
    answer = client.post(URL, {"action": "revoke", "token": token.pk}, follow=True)
    assert "Revoked “results bot”" in answer.content.decode()
    token.refresh_from_db()
    assert not token.is_active


@pytest.mark.django_db
def test_anonymous_visitors_are_sent_to_log_in(client):
    assert client.get(URL)["Location"].startswith(reverse("login"))
    assert client.post(URL, {"action": "create", "name": "x", "scopes": ["read"]}).status_code == 302
    assert not ApiToken.objects.exists()


@pytest.mark.django_db
def test_the_profile_links_to_the_tokens(client):
    client.force_login(UserFactory())
    assert URL in client.get(reverse("profile")).content.decode()
