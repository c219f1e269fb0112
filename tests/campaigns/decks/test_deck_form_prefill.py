"""GB-16: the deck form says what it is pre-filled from, and a wrong
count says how many of the ticked cards were pre-filled."""

import pytest
from django.urls import reverse

from campaigns.decks import services as decks
from campaigns.dealing import phases
from campaigns.models import Deck, PlotCard
from league.models import Fixture
from tests.campaigns.factories import base_deck, make_campaign, play, user_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def after_round_1(season, organiser):
    """Coach 00 registered a deck for round 1, which is played and approved."""
    a, b, c = make_campaign(season, 4, organiser=organiser)[:3]
    first = phases.phase_for(a).next_fixture
    decks.register_deck(coach=a, fixture=first, cards=base_deck(), by=user_of(a))
    for f in Fixture.objects.filter(round__number=1, round__season=season):
        play(f, winner=f.home.campaign_coach, organiser=organiser)
    return a, phases.phase_for(a).next_fixture


def side_of(cc, fixture) -> str:
    return "home" if fixture.home_id == cc.entry_id else "away"


def test_deck_form_says_it_is_pre_filled_from_the_last_deck_gb16(client, after_round_1, organiser):
    a, fixture = after_round_1
    url = reverse("campaigns:fixture_page", args=["midlands", fixture.pk])
    client.force_login(user_of(a))
    page = client.get(url).content.decode()
    assert "No deck registered for this match yet." in page
    assert "Pre-filled from your deck for Round 1: 12 cards ticked." in page
    assert page.count(" checked") == 12
    # The opponent and the Longshanks get no deck form, so no pre-fill note.
    opponent = fixture.away if side_of(a, fixture) == "home" else fixture.home
    for user in (opponent.coach.user, organiser):
        client.force_login(user)
        assert "Pre-filled" not in client.get(url).content.decode()


def test_a_wrong_count_says_how_many_were_pre_filled_and_writes_nothing_gb16(client, after_round_1):
    """Ticking the 10 cards left on top of the 12 pre-ticked ones is 22, and the
    refusal says that 12 of them were pre-filled; a deck of 12 is registered."""
    a, fixture = after_round_1
    side = side_of(a, fixture)
    last = [c.pk for c in base_deck()]
    others = list(decks.base_pool().exclude(pk__in=last).values_list("pk", flat=True))
    client.force_login(user_of(a))
    url = reverse("campaigns:register_deck", args=["midlands", fixture.pk])
    response = client.post(url, {f"deck-{side}-cards": last + others})
    page = response.content.decode()
    assert response.status_code == 400
    assert (
        f"A deck is exactly 12 distinct cards; you chose {12 + len(others)}. 12 of them were ticked already, "
        "pre-filled from your deck for Round 1: untick the cards you leave out." in page
    )
    assert not Deck.objects.filter(fixture=fixture).exists()
    # Twelve ticked, four of them new: registered.
    chosen = last[4:] + others[:4]
    assert client.post(url, {f"deck-{side}-cards": chosen}).status_code == 302
    assert sorted(Deck.objects.get(fixture=fixture).cards.values_list("pk", flat=True)) == sorted(chosen)
    page = client.get(reverse("campaigns:fixture_page", args=["midlands", fixture.pk])).content.decode()
    assert "Pre-filled from your deck for this match: 12 cards ticked." in page


def test_first_deck_form_is_not_pre_filled(client, season, organiser):
    a = make_campaign(season, 2, organiser=organiser)[0]
    fixture = phases.phase_for(a).next_fixture
    client.force_login(user_of(a))
    page = client.get(reverse("campaigns:fixture_page", args=["midlands", fixture.pk])).content.decode()
    assert "No deck registered for this match yet." in page and "Pre-filled" not in page
    assert PlotCard.objects.exists() and " checked" not in page
