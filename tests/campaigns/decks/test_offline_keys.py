"""The Big League's match-day forms (GB-16, GB-17): the deck form
carries an idempotency key; sent twice, it registers the deck once; a forged key
is refused and registers nothing."""

import re

import pytest
from django.urls import reverse

from campaigns.dealing import phases
from campaigns.models import Deck
from league.models import IdempotencyKey
from tests.campaigns.factories import base_deck, make_campaign, user_of

pytestmark = pytest.mark.django_db

KEY = re.compile(r'name="idempotency_key" value="([^"]+)"')


def test_the_deck_form_sent_twice_registers_once_gb16(client, season, organiser):
    a = make_campaign(season, 2, organiser=organiser)[0]
    fixture = phases.phase_for(a).next_fixture
    side = "home" if fixture.home_id == a.entry_id else "away"
    client.force_login(user_of(a))
    [key] = KEY.findall(client.get(reverse("campaigns:fixture_page", args=["midlands", fixture.pk])).content.decode())
    url = reverse("campaigns:register_deck", args=["midlands", fixture.pk])
    data = {f"deck-{side}-cards": [c.pk for c in base_deck()], "idempotency_key": key}
    forged = client.post(url, {**data, "idempotency_key": key[:-3] + "abc"})
    assert forged.status_code == 400 and not Deck.objects.exists()
    assert client.post(url, data).status_code == 302
    again = client.post(url, data, follow=True)
    assert "This was already received, so nothing was sent twice." in again.content.decode()
    assert Deck.objects.filter(fixture=fixture).count() == 1 and IdempotencyKey.objects.count() == 1
