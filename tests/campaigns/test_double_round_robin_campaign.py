"""A whole campaign between two coaches over a double round robin: a
rearranged fixture, a deck change, a card sale, a sponsorship, a loan and a
correction after spending, with both ledgers checked line by line."""

import datetime

import pytest

from campaigns.ledgers import balances
from campaigns.dealing import services as dealing
from campaigns.decks import services as decks
from campaigns.ledgers import services as ledgers
from campaigns.moments import services as moments
from campaigns.dealing import phases
from campaigns.models import (
    CampaignPointLine, FavourLine, Loan, MomentUnlock, OwnedCard, PlotCard, Sponsorship, SponsorshipPurchase,
)
from league.services import fixtures as fixture_services
from league.services import results as league_services
from league.models import Fixture
from tests.campaigns.factories import base_deck, make_campaign, starting_card, user_of

pytestmark = pytest.mark.django_db


def card(name):
    return PlotCard.objects.get(name=name)


def lines(model, cc):
    """The coach's ledger, oldest first, as (amount, reason)."""
    return list(model.objects.filter(coach=cc).order_by("created_at", "id").values_list("amount", "reason"))


def score(fixture, winner):
    home = fixture.home_id == winner.entry_id
    return {"home_score": 12 if home else 6, "away_score": 6 if home else 12}


def test_two_coaches_double_round_robin(season, organiser):
    season.double_round_robin = True
    season.save(update_fields=["double_round_robin"])
    a, b = make_campaign(season, 2, organiser=organiser)  # a: Alchemist's, b: Brewer's
    first, second = Fixture.objects.filter(round__season=season).select_related("round").order_by("round__number")
    for cc in (a, b):
        moments.choose_starting_card(coach=cc, card=starting_card(cc), by=user_of(cc))

    # Round 1 cannot be played in its week: it moves after round 2 (GB-5).
    fixture_services.rearrange_fixture(
        fixture=first, by=organiser, new_date=second.date + datetime.timedelta(days=3), reason="venue closed"
    )
    first.refresh_from_db()
    assert phases.phase_for(a).next_fixture == second and phases.phase_for(b).next_fixture == second

    # The Longshanks grants b 20 CP; b picks a Brewer's card at Planning (GB-13).
    ledgers.adjust(coach=b, ledger="cp", amount=20, reason="painted army", by=organiser)
    planning = MomentUnlock.objects.get(coach=b, threshold=20)
    moments.confirm_unlock(unlock=planning, by=organiser)
    over_the_line = moments.pick_card(unlock=planning, card=card("Over the Line"), by=user_of(b))

    # Round 2, played first. a changes their deck before match day (Geoff out, Winning Ugly in).
    decks.register_deck(coach=a, fixture=second, cards=base_deck([card("It's Unbelievable Geoff!")]), by=user_of(a))
    decks.register_deck(coach=a, fixture=second, cards=base_deck([card("Winning Ugly")]), by=user_of(a))
    decks.register_deck(coach=b, fixture=second, cards=base_deck([over_the_line.card]), by=user_of(b))
    result2 = league_services.report_result(fixture=second, by=user_of(a), **score(second, a))
    decks.record_achievements(coach=a, fixture=second, cards=[card("Winning Ugly")], by=user_of(a))
    league_services.confirm_result(result=result2, by=user_of(b))
    league_services.approve_result(result=result2, by=organiser)

    # Wheeling & Dealing, phase 1 for both; the next match by date is round 1.
    assert phases.phase_for(a).next_fixture == first
    ledgers.adjust(coach=a, ledger="favours", amount=3, reason="hosted the league night", by=organiser)
    offer = dealing.offer_purchase(buyer=a, wanted=over_the_line, favours=2, by=user_of(a))
    dealing.answer_offer(offer=offer, accept=True, by=user_of(b))
    purchase = dealing.buy_sponsorship(coach=b, sponsorship=Sponsorship.objects.get(name="+1 DEF"), by=user_of(b))
    loan = dealing.request_loan(borrower=b, lender=a, model_name="Friday", model_type="squaddie", by=user_of(b))
    dealing.answer_loan(loan=loan, accept=True, by=user_of(a))
    assert purchase.fixture == first and Loan.objects.get(pk=loan.pk).fixture == first
    assert balances.favour_balance(a) == 4 and balances.favour_balance(b) == 1

    # The Longshanks finds b won round 2: b had spent the Favours of the loss (GB-20).
    with pytest.raises(league_services.NeedsAcknowledgement, match="Coach 01 .* from 1 to -1, a debt of 1"):
        league_services.record_result(fixture=second, by=organiser, reason="scores swapped", **score(second, b))
    league_services.record_result(
        fixture=second, by=organiser, reason="scores swapped", acknowledged=True, **score(second, b)
    )
    assert balances.favour_balance(b) == -1

    # Round 1 (rearranged), played last: a fields the card bought from b.
    decks.register_deck(coach=a, fixture=first, cards=base_deck([over_the_line.card]), by=user_of(a))
    decks.register_deck(coach=b, fixture=first, cards=base_deck(), by=user_of(b))
    result1 = league_services.report_result(fixture=first, by=user_of(a), **score(first, a))
    decks.record_achievements(coach=a, fixture=first, cards=[over_the_line.card], by=user_of(a))
    league_services.confirm_result(result=result1, by=user_of(b))
    league_services.approve_result(result=result1, by=organiser)

    assert lines(CampaignPointLine, a) == [
        (10, "Round 2: achieved Winning Ugly"),
        (-10, "Round 2 result corrected or reopened: Round 2: achieved Winning Ugly"),
        (10, "Round 2: achieved Winning Ugly"),
        (15, "Round 1: achieved Over the Line"),
    ]
    assert lines(CampaignPointLine, b) == [(20, "painted army")]
    assert lines(FavourLine, a) == [
        (1, "Round 2: won against Coach 01"),
        (3, "hosted the league night"),
        (-2, "bought Over the Line from Coach 01"),
        (2, "lent Friday to Coach 01"),
        (-1, "Round 2 result corrected or reopened: Round 2: won against Coach 01"),
        (3, "Round 2: lost to Coach 01"),
        (1, "Round 1: won against Coach 01"),
        # Round 2's lines are rewritten together when round 1 changes b's: a's stay 3.
        (-3, "recomputed after an earlier round changed: Round 2: lost to Coach 01"),
        (3, "Round 2: lost to Coach 01"),
    ]
    assert lines(FavourLine, b) == [
        (3, "Round 2: lost to Coach 00"),
        (2, "sold Over the Line to Coach 00"),
        (-1, "sponsorship +1 DEF for Round 1"),
        (-3, "borrowed Friday from Coach 00: 2 to them, 1 to the bank"),
        (-3, "Round 2 result corrected or reopened: Round 2: lost to Coach 00"),
        (1, "Round 2: won against Coach 00"),
        (3, "Round 1: lost to Coach 00"),
        # GB-18 Decision: round 1 counts before round 2 whatever the order played, so
        # b's round-2 win was over a coach with more LP (3 to 0).
        (-1, "recomputed after an earlier round changed: Round 2: won against Coach 00"),
        (1, "Round 2: won against Coach 00"),
        (1, "Round 2: played Coach 00, who had more LP (3 to 0)"),
        (2, "Round 2: beat Coach 00, who had more LP (3 to 0)"),
    ]
    assert balances.favour_balance(a) == 7 and balances.favour_balance(b) == 5
    assert balances.spent_in_phase(a, 1) == 2 and balances.spent_in_phase(b, 1) == 4
    assert balances.cp_total(a) == 25 and balances.cp_total(b) == 20
    assert OwnedCard.objects.get(card=over_the_line.card, gone_at__isnull=True).coach == a
    assert SponsorshipPurchase.objects.get().fixture == first
