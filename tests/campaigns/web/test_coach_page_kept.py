"""A coach's campaign page is kept per version of the season: every
write it shows gives the season a new version, so the page is never stale, for
the coach and for anyone else reading it."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse

from campaigns.dealing import services as dealing
from campaigns.decks import services as decks
from campaigns.ledgers import services as ledgers
from campaigns.moments import services as moments
from campaigns.dealing import phases
from campaigns.models import Notice, PlotCard, Sponsorship
from league.models import Fixture
from tests.campaigns.factories import base_deck, make_campaign, play, starting_card, user_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def campaign(season, organiser):
    coaches = make_campaign(season, 4, organiser=organiser, prefix="Kept")
    for f in Fixture.objects.filter(round__number=1, round__season=season):
        play(f, winner=f.home.campaign_coach, organiser=organiser)
    for cc in coaches:
        ledgers.adjust(coach=cc, ledger="favours", amount=10, reason="grant", by=organiser)
    return coaches


def test_each_write_the_page_shows_is_shown_at_once(client, season, organiser, campaign):
    a, b = campaign[0], campaign[1]
    url = reverse("campaigns:coach_page", args=[season.league.slug, a.entry.coach_id])
    client.force_login(user_of(a))

    def page() -> str:
        client.get(url)  # the first reading of a version keeps it
        return client.get(url).content.decode()  # the kept copy

    card = starting_card(a)
    before = page()
    moments.choose_starting_card(coach=a, card=card, by=user_of(a))
    assert page() != before

    sponsorship = Sponsorship.objects.first()
    before = page()
    dealing.buy_sponsorship(coach=a, sponsorship=sponsorship, by=user_of(a))
    assert page() != before

    nxt = phases.phase_for(a).next_fixture
    Fixture.objects.filter(pk=nxt.pk).update(date=datetime.date.today() + datetime.timedelta(days=3))
    before = page()
    decks.register_deck(coach=a, fixture=nxt, cards=base_deck(), by=user_of(a))
    assert page() != before

    assert "Mordecai" not in page()
    dealing.request_loan(borrower=b, lender=a, model_name="Mordecai", model_type="squaddie", by=user_of(b))
    assert "Mordecai" in page()

    Notice.objects.create(coach=a, text="The Longshanks says hello")
    assert "The Longshanks says hello" in page()

    # The catalogue, edited in the admin: every campaign's pages follow.
    assert "Renamed Card" not in page()
    renamed = PlotCard.objects.get(pk=card.pk)
    renamed.name = "Renamed Card"
    renamed.save()
    assert "Renamed Card" in page()


def test_the_organiser_and_the_coach_read_the_same_kept_page_with_their_own_forms(client, season, organiser, campaign):
    a = campaign[0]
    url = reverse("campaigns:coach_page", args=[season.league.slug, a.entry.coach_id])
    client.force_login(user_of(a))
    own = client.get(url).content.decode()
    client.force_login(organiser)
    theirs = client.get(url).content.decode()
    assert 'name="adjust-amount"' not in own or 'name="adjust-amount"' in theirs
    assert own != theirs  # the forms are each viewer's own, built per request
