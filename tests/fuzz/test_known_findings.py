"""Inputs the fuzzing found that gave a 5xx or worse, each kept as a plain
test so they cannot come back."""

from __future__ import annotations

import pytest
from django.urls import reverse


@pytest.mark.django_db
def test_a_card_id_beyond_64_bits_in_a_deck_is_refused(world, clients):
    g = world.games["guildball"]
    url = reverse("campaigns:register_deck", args=[g.league.slug, g.open_fixture.pk])
    client = clients["guildball", "right"]
    side = "home" if g.open_fixture.home.coach_id == g.right.pk else "away"
    response = client.post(url, {f"deck-{side}-cards": str(2**63)})
    assert 400 <= response.status_code < 500


def test_a_cp_adjustment_has_bounds_at_the_form():
    """2**31 CP once grew the server by gigabytes before it answered."""
    from campaigns.ledgers.forms import AdjustForm

    assert not AdjustForm(data={"ledger": "cp", "amount": 2**31, "reason": "fuzz"}).is_valid()
