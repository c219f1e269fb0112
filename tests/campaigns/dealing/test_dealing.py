"""Picks (GB-13, GB-14) and Wheeling & Dealing through the services (GB-19 to GB-24)."""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from campaigns.ledgers import balances
from campaigns.dealing import services as dealing
from campaigns.decks import services as decks
from campaigns.ledgers import services as ledgers
from campaigns.moments import services as moments
from campaigns.dealing import phases
from campaigns.models import (
    CardOffer, LineKind, FavourLine, Loan, MomentUnlock, OwnedCard, PlotCard, Sponsorship, SponsorshipPurchase,
)
from league.services import results as league_services
from league.models import Fixture
from tests.campaigns.factories import make_campaign, play, starting_card, user_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def four(season, organiser):
    """Four coaches after round 1 (everyone in Wheeling & Dealing phase 1), each
    given 10 Favours by the Longshanks on top of their match Favours."""
    coaches = make_campaign(season, 4, organiser=organiser)
    for f in Fixture.objects.filter(round__number=1, round__season=season):
        play(f, winner=f.home.campaign_coach, organiser=organiser)
    for cc in coaches:
        ledgers.adjust(coach=cc, ledger="favours", amount=10, reason="start-up grant", by=organiser)
    return coaches


def spons(name):
    return Sponsorship.objects.get(name=name)


def test_starting_pick_is_locked_gb14(season, organiser):
    a, b = make_campaign(season, 2, organiser=organiser)
    wrong = PlotCard.objects.get(name="Payday")  # The Union, not a's Guild
    with pytest.raises(ValidationError, match="non-rare Alchemist's campaign plot"):
        moments.choose_starting_card(coach=a, card=wrong, by=user_of(a))
    with pytest.raises(PermissionDenied):
        moments.choose_starting_card(coach=a, card=starting_card(a), by=user_of(b))
    owned = moments.choose_starting_card(coach=a, card=starting_card(a), by=user_of(a))
    assert owned.source == OwnedCard.Source.START and owned.unlock.threshold == 0
    with pytest.raises(ValidationError, match="cannot be changed"):
        moments.choose_starting_card(coach=a, card=PlotCard.objects.get(name="Mixology"), by=user_of(a))


def test_unlock_needs_confirmation_then_pick_gb13(four, organiser):
    a = four[0]
    ledgers.adjust(coach=a, ledger="cp", amount=65, reason="test jump", by=organiser)
    unlocks = list(MomentUnlock.objects.filter(coach=a).order_by("threshold"))
    assert [(u.threshold, u.unlocks) for u in unlocks] == [(0, "guild"), (20, "guild"), (40, "guild"), (60, "rare")]
    rare = unlocks[3]
    with pytest.raises(ValidationError, match="has not confirmed Best Laid Plans"):
        moments.pick_card(unlock=rare, card=PlotCard.objects.get(name="Poisoned Chalice"), by=user_of(a))
    with pytest.raises(PermissionDenied):
        moments.confirm_unlock(unlock=rare, by=user_of(a))
    moments.confirm_unlock(unlock=rare, by=organiser)
    # A Rare unlock cannot take a non-rare Guild card.
    with pytest.raises(ValidationError, match="Season Two Rare or your own Guild's rare card"):
        moments.pick_card(unlock=rare, card=PlotCard.objects.get(name="Mixology"), by=user_of(a))
    moments.pick_card(unlock=rare, card=PlotCard.objects.get(name="Experimental Mix"), by=user_of(a))
    assert PlotCard.objects.get(name="Experimental Mix").pk in decks.pool_card_ids(a)
    with pytest.raises(ValidationError, match="already picked"):
        moments.pick_card(unlock=rare, card=PlotCard.objects.get(name="Poisoned Chalice"), by=user_of(a))


def test_sponsorship_costs_1_one_copy_and_is_attached_to_next_match_gb21(four):
    a = four[0]
    before = balances.favour_balance(a)
    purchase = dealing.buy_sponsorship(coach=a, sponsorship=spons("+1 DEF"), by=user_of(a))
    assert purchase.fixture.round.number == 2
    assert balances.favour_balance(a) == before - 1
    line = FavourLine.objects.get(sponsorship=purchase)
    assert (line.amount, line.kind, line.phase) == (-1, LineKind.SPONSORSHIP, 1)
    with pytest.raises(ValidationError, match="already hold \\+1 DEF for your next match .one copy of each"):
        dealing.buy_sponsorship(coach=a, sponsorship=spons("+1 DEF"), by=user_of(a))


def test_sponsorships_are_returned_after_the_match(four, organiser):
    a = four[0]
    dealing.buy_sponsorship(coach=a, sponsorship=spons("+1 DEF"), by=user_of(a))
    nxt = phases.phase_for(a).next_fixture
    play(nxt, winner=a, organiser=organiser)
    # Returned with the match: a may buy the same one again for the next match.
    again = dealing.buy_sponsorship(coach=a, sponsorship=spons("+1 DEF"), by=user_of(a))
    assert again.fixture.round.number == 3
    assert FavourLine.objects.get(sponsorship=again).phase == 2


def test_five_favours_per_phase_gb19(four):
    a = four[0]
    for name in ["+1 DEF", "Re-roll Shots", "+2/+0 INF", "+1 TAC and +1 ARM"]:
        dealing.buy_sponsorship(coach=a, sponsorship=spons(name), by=user_of(a))
    dealing.buy_advancement(coach=a, by=user_of(a))  # the fifth Favour is fine
    with pytest.raises(ValidationError, match="already spent 5 of the 5 Favours allowed"):
        dealing.buy_sponsorship(coach=a, sponsorship=spons('+2"/+2" MOV'), by=user_of(a))
    assert balances.spent_in_phase(a, 1) == 5


def test_advancement_once_per_phase_gives_5_cp_gb24(four):
    a = four[0]
    dealing.buy_advancement(coach=a, by=user_of(a))
    assert balances.cp_total(a) == 5
    with pytest.raises(ValidationError, match="at most 1 Favour per phase"):
        dealing.buy_advancement(coach=a, by=user_of(a))


def test_balance_zero_cannot_spend_gb20(season, organiser):
    a, b = make_campaign(season, 2, organiser=organiser, fixtures=False)
    # Phase 0 (before any match) is open, but a has no Favours.
    with pytest.raises(ValidationError, match="you have 0 .a balance can never go below zero"):
        dealing.buy_advancement(coach=a, by=user_of(a))
    assert not FavourLine.objects.exists()


def test_phase_closes_when_the_next_match_is_reported(four):
    a = four[0]
    nxt = phases.phase_for(a).next_fixture
    league_services.report_result(fixture=nxt, by=user_of(a), home_score=12, away_score=4)
    with pytest.raises(ValidationError, match="Wheeling & Dealing is closed"):
        dealing.buy_advancement(coach=a, by=user_of(a))


def test_loan_request_accept_moves_3_favours_gb22(four):
    a, b = four[0], four[1]
    with pytest.raises(ValidationError, match="A Captain cannot be loaned .models of type Captain"):
        dealing.request_loan(borrower=a, lender=b, model_name="Tapper", model_type="captain", by=user_of(a))
    loan = dealing.request_loan(borrower=a, lender=b, model_name="Friday", model_type="squaddie", by=user_of(a))
    with pytest.raises(PermissionDenied):
        dealing.answer_loan(loan=loan, accept=True, by=user_of(a))
    a_before, b_before = balances.favour_balance(a), balances.favour_balance(b)
    dealing.answer_loan(loan=loan, accept=True, by=user_of(b))
    loan.refresh_from_db()
    assert loan.status == "accepted" and loan.fixture == phases.phase_for(a).next_fixture
    assert balances.favour_balance(a) == a_before - 3 and balances.favour_balance(b) == b_before + 2
    assert balances.spent_in_phase(a, 1) == 3 and balances.spent_in_phase(b, 1) == 0


def test_loan_refused_moves_nothing(four):
    a, b = four[0], four[1]
    loan = dealing.request_loan(borrower=a, lender=b, model_name="Friday", model_type="squaddie", by=user_of(a))
    dealing.answer_loan(loan=loan, accept=False, by=user_of(b))
    assert Loan.objects.get().status == "refused"
    assert not FavourLine.objects.filter(kind=LineKind.LOAN_FEE).exists()


def test_buy_a_card_moves_card_and_favours_gb23(four, organiser):
    a, b = four[0], four[1]
    ledgers.adjust(coach=b, ledger="cp", amount=20, reason="x", by=organiser)
    unlock = MomentUnlock.objects.get(coach=b, threshold=20)
    moments.confirm_unlock(unlock=unlock, by=organiser)
    sold = moments.pick_card(unlock=unlock, card=PlotCard.objects.filter(guild=b.guild, is_rare=False).last(), by=user_of(b))
    with pytest.raises(ValidationError, match="1 to 5 Favours; you offered 6"):
        dealing.offer_purchase(buyer=a, wanted=sold, favours=6, by=user_of(a))
    offer = dealing.offer_purchase(buyer=a, wanted=sold, favours=4, by=user_of(a))
    a_before, b_before = balances.favour_balance(a), balances.favour_balance(b)
    dealing.answer_offer(offer=offer, accept=True, by=user_of(b))
    assert balances.favour_balance(a) == a_before - 4 and balances.favour_balance(b) == b_before + 4
    assert OwnedCard.objects.get(coach=a, card=sold.card, gone_at__isnull=True).source == "bought"
    assert sold.card_id not in decks.pool_card_ids(b)


def test_starting_pick_cannot_be_sold_gb14(four):
    a, b = four[0], four[1]
    start = moments.choose_starting_card(coach=b, card=starting_card(b), by=user_of(b))
    with pytest.raises(ValidationError, match="starting pick and cannot change hands"):
        dealing.offer_purchase(buyer=a, wanted=start, favours=2, by=user_of(a))


def test_swap_needs_both_and_is_free(four, organiser):
    a, b = four[0], four[1]
    cards = {}
    for cc in (a, b):
        ledgers.adjust(coach=cc, ledger="cp", amount=20, reason="x", by=organiser)
        unlock = MomentUnlock.objects.get(coach=cc, threshold=20)
        moments.confirm_unlock(unlock=unlock, by=organiser)
        cards[cc.pk] = moments.pick_card(
            unlock=unlock, card=PlotCard.objects.filter(guild=cc.guild, is_rare=False).last(), by=user_of(cc)
        )
    offer = dealing.offer_swap(proposer=a, wanted=cards[b.pk], offered=cards[a.pk], by=user_of(a))
    with pytest.raises(PermissionDenied):
        dealing.answer_offer(offer=offer, accept=True, by=user_of(a))
    balance = balances.favour_balance(a)
    dealing.answer_offer(offer=offer, accept=True, by=user_of(b))
    assert CardOffer.objects.get().status == "accepted"
    assert cards[b.pk].card_id in decks.pool_card_ids(a) and cards[a.pk].card_id in decks.pool_card_ids(b)
    assert balances.favour_balance(a) == balance


def test_adjustment_never_leaves_a_negative_balance(four, organiser):
    a = four[0]
    balance = balances.favour_balance(a)
    with pytest.raises(ValidationError, match="never below zero"):
        ledgers.adjust(coach=a, ledger="favours", amount=-(balance + 1), reason="penalty", by=organiser)
    with pytest.raises(ValidationError, match="reason"):
        ledgers.adjust(coach=a, ledger="cp", amount=5, reason=" ", by=organiser)
    assert not SponsorshipPurchase.objects.exists()
