"""GB-19 to GB-24, GB-20 Decision: an action that cannot go through is
not offered as if it could: Accept is disabled with the reason while the paying
coach's Wheeling & Dealing is closed, a refusal destroys nothing (the deal stays
pending) and is shown in the error style. Destructive one-click Big
League actions (+5 CP, answering a deal, the Final Day) ask for confirmation first,
without script."""

import datetime
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaigns.ledgers import balances
from campaigns.dealing import services as dealing
from campaigns.decks import services as decks
from campaigns.ledgers import services as ledgers
from campaigns.moments import services as moments
from campaigns.finalday import services as titles
from campaigns.models import (
    CampaignPointLine, CardOffer, FavourLine, LineKind, Loan, MomentUnlock, OwnedCard, PlotCard, Status, Title,
)
from league.models import Fixture
from tests.campaigns.factories import base_deck, make_campaign, play, set_match_day, user_of
from tests.support.factories import CoachFactory
from tests.support.world import row_counts

pytestmark = pytest.mark.django_db


@pytest.fixture
def four(season, organiser):
    """Four coaches after round 1, 10 Favours granted each; b owns a Guild card."""
    coaches = make_campaign(season, 4, organiser=organiser)
    for f in Fixture.objects.filter(round__number=1, round__season=season):
        play(f, winner=f.home.campaign_coach, organiser=organiser)
    for cc in coaches:
        ledgers.adjust(coach=cc, ledger="favours", amount=10, reason="grant", by=organiser)
    b = coaches[1]
    ledgers.adjust(coach=b, ledger="cp", amount=20, reason="x", by=organiser)
    unlock = MomentUnlock.objects.get(coach=b, threshold=20)
    moments.confirm_unlock(unlock=unlock, by=organiser)
    moments.pick_card(unlock=unlock, card=PlotCard.objects.filter(guild=b.guild, is_rare=False).last(), by=user_of(b))
    return coaches


def url(name, *args):
    return reverse(f"campaigns:{name}", args=["midlands", *args])


def page_of(client, cc) -> str:
    client.force_login(user_of(cc))
    return client.get(url("coach_page", cc.entry.coach_id)).content.decode()


def close_dealing(cc) -> None:
    """GB-20 Decision: the coach's next match day has come, so their phase is closed."""
    nxt = dealing.phase_for(cc).next_fixture
    set_match_day(nxt, datetime.date.today())


def test_accept_is_disabled_while_the_payers_dealing_is_closed_and_refusing_destroys_nothing_gb20(
    four, client, organiser
):
    a, b, c = four[0], four[1], four[2]
    wanted = OwnedCard.objects.get(coach=b, source=OwnedCard.Source.MOMENT)
    offer = dealing.offer_purchase(buyer=a, wanted=wanted, favours=3, by=user_of(a))
    close_dealing(a)
    why = "Coach 00&#x27;s Wheeling &amp; Dealing is closed: your match in Round 2 is due"
    # The card's owner: Accept disabled, with the reason; Refuse still offered.
    page = page_of(client, b)
    assert '<button name="action" value="accept" disabled>Accept</button>' in page
    assert f"Cannot be accepted now: {why}" in page
    assert '<button name="action" value="refuse" class="secondary">Refuse</button>' in page
    # The buyer sees why too.
    assert f"Cannot be accepted now: {why}" in page_of(client, a)
    # Clicking Accept anyway (an old page): refused in the error style, status 400,
    # asked nothing, and the offer, the card and the Favours are untouched.
    client.force_login(user_of(b))
    before = row_counts()
    for data in ({"action": "accept"}, {"action": "accept", "confirmed": "yes"}):
        response = client.post(url("answer_offer", offer.pk), data)
        page = response.content.decode()
        assert response.status_code == 400
        assert f'<ul class="errorlist"><li>This offer cannot be accepted now: {why}' in page
        assert 'class="success"' not in page and "is now closed" not in page and "Accept:" not in page
    assert row_counts() == before
    offer.refresh_from_db()
    assert offer.status == Status.PENDING and offer.closed_reason == ""
    assert OwnedCard.objects.get(pk=wanted.pk).gone_at is None
    assert not FavourLine.objects.filter(kind=LineKind.CARD_SALE).exists()
    # The other roles cannot reach it: anonymous, a coach not in the deal, the
    # Longshanks (no coach of this campaign).
    client.logout()
    assert client.post(url("answer_offer", offer.pk), {"action": "accept"}).status_code == 302
    assert client.get(url("coach_page", b.entry.coach_id)).status_code == 302
    client.force_login(user_of(c))
    assert client.post(url("answer_offer", offer.pk), {"action": "accept"}).status_code == 404
    client.force_login(organiser)
    assert client.post(url("answer_offer", offer.pk), {"action": "accept"}).status_code == 403
    page = client.get(url("coach_page", b.entry.coach_id)).content.decode()
    assert f"Cannot be accepted now: {why}" in page and 'value="accept"' not in page
    assert CardOffer.objects.get().status == Status.PENDING


def test_a_loan_the_borrower_can_no_longer_pay_is_refused_and_kept_gb19(four, client):
    a, b = four[0], four[1]
    loan = dealing.request_loan(borrower=a, lender=b, model_name="Friday", model_type="squaddie", by=user_of(a))
    close_dealing(a)
    client.force_login(user_of(b))
    response = client.post(url("answer_loan", loan.pk), {"action": "accept", "confirmed": "yes"})
    assert response.status_code == 400
    assert "This loan request cannot be accepted now: Coach 00&#x27;s Wheeling &amp; Dealing is closed" in (
        response.content.decode()
    )
    loan.refresh_from_db()
    assert loan.status == Status.PENDING and loan.fixture is None
    assert not FavourLine.objects.filter(kind=LineKind.LOAN_FEE).exists()


def test_own_spends_that_cannot_go_through_are_disabled_with_the_reason_gb19_gb24(four, client, organiser):
    a = four[0]
    dealing.buy_advancement(coach=a, by=user_of(a))
    page = page_of(client, a)
    assert "You have already bought 1 Campaign Advancement this Wheeling &amp; Dealing phase" in page
    assert '<button type="submit" disabled>Buy +5 CP</button>' in page
    assert '<button type="submit">Buy for my next match</button>' in page  # still possible
    # No Favours left: every spend says why and is disabled (GB-20).
    ledgers.adjust(coach=a, ledger="favours", amount=-balances.favour_balance(a), reason="to 0", by=organiser)
    page = page_of(client, a)
    assert "A sponsorship costs 1 Favour and you have 0" in page and "A loan costs 3 Favours and you have 0" in page
    assert '<button type="submit" disabled>Buy for my next match</button>' in page
    assert '<button type="submit" disabled>Ask to borrow</button>' in page


def test_buy_5_cp_asks_first_and_writes_nothing_until_confirmed_gb24(four, client, organiser):
    a, b = four[0], four[1]
    target = url("buy_advancement")
    client.force_login(user_of(a))
    before = row_counts()
    response = client.post(target)
    page = response.content.decode()
    assert response.status_code == 200 and "<h1>Buy Campaign Advancement?</h1>" in page
    assert '<input type="hidden" name="confirmed" value="yes">' in page and "Yes, buy +5 CP" in page
    assert f'href="{url("coach_page", a.entry.coach_id)}#tab-dealing">No, go back</a>' in page
    # No script of its own (the site-wide static files only, never inline).
    assert not re.search(r"<script(?![^>]*\bsrc=)", page) and 'class="league-nav"' in page
    assert row_counts() == before
    response = client.post(target, {"confirmed": "yes"})
    assert response.status_code == 302
    assert CampaignPointLine.objects.get(kind=LineKind.ADVANCEMENT).coach == a
    # A second one in the phase is refused at once, not asked about (GB-24).
    response = client.post(target)
    assert response.status_code == 400 and "already bought 1 Campaign Advancement" in response.content.decode()
    # Nobody else gets the question: anonymous, the Longshanks and a coach of no campaign.
    client.logout()
    assert client.post(target).status_code == 302
    for user in (organiser, CoachFactory(name="Outsider").user):
        client.force_login(user)
        assert client.post(target, {"confirmed": "yes"}).status_code == 403
    assert CampaignPointLine.objects.filter(kind=LineKind.ADVANCEMENT).count() == 1


def test_answering_a_deal_asks_first_and_only_the_party_who_may_gb22_gb23(four, client):
    a, b, c = four[0], four[1], four[2]
    loan = dealing.request_loan(borrower=a, lender=b, model_name="Friday", model_type="squaddie", by=user_of(a))
    client.force_login(user_of(b))
    before = row_counts()
    page = client.post(url("answer_loan", loan.pk), {"action": "refuse"}).content.decode()
    assert "<h1>Refuse Coach 00&#x27;s request to borrow Friday?</h1>" in page
    assert '<input type="hidden" name="action" value="refuse">' in page
    assert row_counts() == before and Loan.objects.get().status == Status.PENDING
    # The borrower may withdraw but not accept or refuse; the lender may not withdraw.
    client.force_login(user_of(a))
    assert client.post(url("answer_loan", loan.pk), {"action": "accept"}).status_code == 403
    assert "Withdraw your request to borrow Friday from Coach 01?" in client.post(
        url("answer_loan", loan.pk), {"action": "withdraw"}
    ).content.decode()
    client.force_login(user_of(b))
    assert client.post(url("answer_loan", loan.pk), {"action": "withdraw"}).status_code == 403
    assert client.post(url("answer_loan", loan.pk), {"action": "refuse", "confirmed": "yes"}).status_code == 302
    assert Loan.objects.get().status == Status.REFUSED
    # Answered already: refused at once, nothing asked.
    response = client.post(url("answer_loan", loan.pk), {"action": "refuse"})
    assert response.status_code == 400 and "already refused" in response.content.decode()


def test_final_day_asks_first_gb26(four, client, organiser):
    target = url("declare_final_day")
    for f in Fixture.objects.unplayed():
        play(f, winner=f.home.campaign_coach, organiser=organiser)
    client.force_login(user_of(four[0]))
    assert client.post(target, {"confirmed": "yes"}).status_code == 403
    client.force_login(organiser)
    before = row_counts()
    page = client.post(target).content.decode()
    assert "<h1>Declare the Final Day?</h1>" in page and "It cannot be undone." in page
    assert f'href="{url("campaign_table")}">No, go back</a>' in page
    assert row_counts() == before and not Title.objects.exists()
    page = client.post(target, {"confirmed": "yes"}, follow=True).content.decode()
    assert "Final Day declared" in page and Title.objects.exists()


def test_final_day_button_is_disabled_with_the_reason_until_every_match_is_approved_gb26(four, client, organiser):
    client.force_login(organiser)
    page = client.get(url("campaign_table")).content.decode()
    assert "still without an approved result: record or abandon them before the Final Day" in page
    assert '<button type="submit" disabled>Declare the Final Day</button>' in page
    client.logout()
    assert "Declare the Final Day" not in client.get(url("campaign_table")).content.decode()


def test_deck_form_is_not_offered_where_it_cannot_be_registered_gb16(four, client):
    """Once registered, a deck is fixed from match day: the form is not offered."""
    a = four[0]
    fixture = dealing.phase_for(a).next_fixture
    fixture_page = reverse("campaigns:fixture_page", args=["midlands", fixture.pk])
    client.force_login(user_of(a))
    assert "Register deck" in client.get(fixture_page).content.decode()
    decks.register_deck(coach=a, fixture=fixture, cards=base_deck(), by=user_of(a))
    assert "Change your deck" in client.get(fixture_page).content.decode()
    set_match_day(fixture, datetime.date.today())
    page = client.get(fixture_page).content.decode()
    assert "Change your deck" not in page and "Register deck" not in page


def test_no_pick_is_offered_once_the_campaign_is_over_gb26(four, client, organiser):
    b = four[1]
    ledgers.adjust(coach=b, ledger="cp", amount=20, reason="to Opening Gambit", by=organiser)
    moments.confirm_unlock(unlock=MomentUnlock.objects.get(coach=b, threshold=40), by=organiser)
    assert f'action="{url("pick", MomentUnlock.objects.get(coach=b, threshold=40).pk)}"' in page_of(client, b)
    for f in Fixture.objects.unplayed():
        play(f, winner=f.home.campaign_coach, organiser=organiser)
    titles.declare_final_day(campaign=b.campaign, by=organiser)
    page = page_of(client, b)
    assert "pick pending" in page and "/pick/" not in page


def test_the_reasons_cost_the_same_queries_for_one_pending_deal_or_many(four, client):
    """STYLE habit 4: the Dealing tab's reasons are read in bulk, and two buyers
    offering for the same card each get their own answer."""
    a, b, c, d = four
    wanted = OwnedCard.objects.get(coach=b, source=OwnedCard.Source.MOMENT)
    client.force_login(user_of(b))
    page = url("coach_page", b.entry.coach_id)
    dealing.offer_purchase(buyer=a, wanted=wanted, favours=2, by=user_of(a))
    # Each write gives the season a new version (the page is kept per version):
    # both readings below are the first of their version.
    with CaptureQueriesContext(connection) as one:
        client.get(page)
    for buyer in (c, d):
        dealing.offer_purchase(buyer=buyer, wanted=wanted, favours=2, by=user_of(buyer))
    dealing.request_loan(borrower=c, lender=b, model_name="Friday", model_type="squaddie", by=user_of(c))
    close_dealing(d)
    with CaptureQueriesContext(connection) as many:
        html = client.get(page).content.decode()
    assert len(many) == len(one)
    closed = [not dealing.phase_for(payer).is_open for payer in (a, c, d, c)]  # three offers and the loan
    assert closed[2] and html.count("Cannot be accepted now:") == sum(closed)
    assert "Coach 03&#x27;s Wheeling &amp; Dealing is closed" in html
    assert html.count('<button name="action" value="accept">Accept</button>') == 4 - sum(closed)
    assert html.count('<button name="action" value="accept" disabled>Accept</button>') == sum(closed)
