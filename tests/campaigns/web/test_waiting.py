"""A coach's home lists what waits on them in their campaigns (campaigns/web/waiting.py):
loans and offers to answer, a card to pick, the deck to register, Favours to
spend before Wheeling & Dealing closes (GB-13, GB-16, GB-20, GB-22, GB-23); only
their own, at a fixed number of queries."""

import datetime

import pytest
from django.core.exceptions import ValidationError
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaigns.dealing import services as dealing
from campaigns.decks import services as decks
from campaigns.ledgers import services as ledgers
from campaigns.moments import services as moments
from campaigns.models import MomentUnlock, PlotCard
from league.models import Fixture
from league.people import entrants as season_entrants
from tests.campaigns.factories import base_deck, fixture_between, make_campaign, set_match_day, starting_card, user_of

pytestmark = pytest.mark.django_db


def home(client, user):
    client.force_login(user)
    return client.get(reverse("league:my_fixtures")).content.decode()


@pytest.fixture
def pair(season, organiser):
    a, b = make_campaign(season, 2, organiser=organiser)
    fixture = fixture_between(a, b)
    set_match_day(fixture, datetime.date.today() + datetime.timedelta(days=3))
    for cc in (a, b):
        moments.choose_starting_card(coach=cc, card=starting_card(cc), by=user_of(cc))
    return a, b, fixture


def test_the_deck_and_favours_wait_then_go_once_done(client, pair, organiser):
    a, b, fixture = pair
    page = home(client, user_of(a))
    assert "The Big League: waiting on you" in page
    assert f"your deck for {fixture.round} against {b}" in page
    assert reverse("campaigns:fixture_page", args=["midlands", fixture.pk]) in page
    assert "Favours before" not in page  # no Favours yet
    ledgers.adjust(coach=a, ledger="favours", amount=4, reason="grant", by=organiser)
    page = home(client, user_of(a))
    closes = fixture.date.strftime("%A %-d %B")
    assert f"4 Favours before Wheeling &amp; Dealing closes on {closes}" in page
    decks.register_deck(coach=a, fixture=fixture, cards=base_deck([starting_card(a)]), by=user_of(a))
    page = home(client, user_of(a))
    assert "your deck for" not in page and "4 Favours before" in page


def test_a_loan_an_offer_and_a_pick_wait_on_the_right_coach(client, pair, organiser):
    a, b, fixture = pair
    for cc in (a, b):
        ledgers.adjust(coach=cc, ledger="favours", amount=10, reason="grant", by=organiser)
    dealing.request_loan(borrower=b, lender=a, model_name="Friday", model_type="squaddie", by=user_of(b))
    ledgers.adjust(coach=a, ledger="cp", amount=20, reason="test", by=organiser)
    unlock = MomentUnlock.objects.get(coach=a, threshold=20)
    page = home(client, user_of(a))
    assert f"{b} asks to borrow Friday" in page
    assert "pick your card" not in page  # not confirmed yet: it waits on the Longshanks
    moments.confirm_unlock(unlock=unlock, by=organiser)
    page = home(client, user_of(a))
    assert f"{unlock.name} is confirmed: pick your card" in page
    owned = moments.pick_card(unlock=unlock, card=PlotCard.objects.filter(guild=a.guild, is_rare=False).last(), by=user_of(a))
    dealing.offer_purchase(buyer=b, wanted=owned, favours=2, by=user_of(b))
    page = home(client, user_of(a))
    assert "pick your card" not in page and f"{b} offers 2 Favours for {owned.card}" in page
    # The other coach sees none of it: their loan and offer wait on someone else.
    page = home(client, user_of(b))
    assert "asks to borrow" not in page and "offers 2 Favours" not in page
    assert f"your deck for {fixture.round} against {a}" in page


def test_the_panel_costs_the_same_with_more_deals(client, pair, organiser):
    a, b, fixture = pair
    ledgers.adjust(coach=b, ledger="favours", amount=20, reason="grant", by=organiser)

    def count() -> int:  # building the page (kept, it is three queries: tests/caching/test_kept_pages.py)
        client.force_login(user_of(a))
        cache.clear()
        with CaptureQueriesContext(connection) as queries:
            assert client.get(reverse("league:my_fixtures")).status_code == 200
        return len(queries)

    before = count()
    dealing.request_loan(borrower=b, lender=a, model_name="Friday", model_type="squaddie", by=user_of(b))
    dealing.request_loan(borrower=b, lender=a, model_name="Harry", model_type="squaddie", by=user_of(b))
    ledgers.adjust(coach=a, ledger="cp", amount=60, reason="test", by=organiser)
    for unlock in MomentUnlock.objects.filter(coach=a, confirmed_at__isnull=True):
        moments.confirm_unlock(unlock=unlock, by=organiser)
    page = client.get(reverse("league:my_fixtures")).content.decode()
    assert "asks to borrow Harry" in page and page.count("pick your card") >= 2
    assert count() == before


def test_a_coachs_home_costs_the_same_at_4_and_40_coaches(client, organiser):
    from tests.support.factories import LeagueFactory, SeasonFactory

    counts = {}
    for size in (4, 40):
        season = SeasonFactory(league=LeagueFactory(slug=f"home-{size}", organisers=[organiser]))
        coaches = make_campaign(season, size, organiser=organiser, prefix=f"C{size}")
        ledgers.adjust(coach=coaches[0], ledger="favours", amount=3, reason="grant", by=organiser)
        client.force_login(user_of(coaches[0]))
        with CaptureQueriesContext(connection) as queries:
            page = client.get(reverse("league:my_fixtures")).content.decode()
        assert "3 Favours before" in page and "your deck for Round 1" in page
        counts[size] = len(queries)
    assert counts[4] == counts[40], counts


def test_nothing_waits_on_a_coach_who_withdrew(client, season, organiser):
    """LG-2: the withdrawn coach's to-dos in that season go, on their home and on
    their campaign page: no starting card to choose, no deck, no dealing."""
    a, b, c, d = make_campaign(season, 4, organiser=organiser)
    ledgers.adjust(coach=a, ledger="favours", amount=4, reason="grant", by=organiser)
    page = home(client, user_of(a))
    assert "choose your starting Guild card" in page and "your deck for" in page
    coach_page = reverse("campaigns:coach_page", args=["midlands", a.entry.coach_id])
    assert "Record my starting card" in client.get(coach_page).content.decode()

    season_entrants.withdraw(entry=a.entry, by=organiser)
    page = home(client, user_of(a))
    assert "choose your starting Guild card" not in page and "your deck for" not in page
    assert "Favours before" not in page
    assert "Nothing to answer, pick or register in your campaigns." in page
    assert "Record my starting card" not in client.get(coach_page).content.decode()
    assert "choose your starting Guild card" in home(client, user_of(b))  # the others' stay
    cancelled = fixture_between(a, b)
    assert cancelled.cancelled_by_id == a.entry_id
    client.force_login(user_of(b))
    match_page = client.get(reverse("campaigns:fixture_page", args=["midlands", cancelled.pk])).content.decode()
    assert "Register" not in match_page
    with pytest.raises(ValidationError, match="not played: a coach withdrew"):
        decks.register_deck(coach=b, fixture=cancelled, cards=base_deck([starting_card(b)]), by=user_of(b))
