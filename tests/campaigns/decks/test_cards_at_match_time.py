"""Plot cards (GB-16, GB-17, GB-23): only the deck as it stands at match
time scores, a card in a registered deck stays with its owner until the match is
approved, and achievements wait until the match is reported."""

import datetime

import pytest
from django.core import mail
from django.core.exceptions import ValidationError
from django.urls import reverse

from campaigns.ledgers import balances
from campaigns.dealing import services as dealing
from campaigns.decks import services as decks
from campaigns.ledgers import services as ledgers
from campaigns.moments import services as moments
from campaigns.models import Achievement, CardOffer, MomentUnlock, Notice, OwnedCard, PlotCard, Status
from league.services import results as league_services
from tests.campaigns.factories import base_deck, fixture_between, make_campaign, play, set_match_day, user_of

pytestmark = pytest.mark.django_db


def card(name):
    return PlotCard.objects.get(name=name)


def report_win(fixture, winner, loser):
    """``winner`` reports a 12-6 win; ``loser`` confirms it."""
    home = fixture.home_id == winner.entry_id
    result = league_services.report_result(
        fixture=fixture, by=user_of(winner), home_score=12 if home else 6, away_score=6 if home else 12
    )
    return league_services.confirm_result(result=result, by=user_of(loser))


@pytest.fixture
def pair(season, organiser):
    a, b = make_campaign(season, 2, organiser=organiser)
    fixture = fixture_between(a, b)
    set_match_day(fixture, datetime.date.today() + datetime.timedelta(days=3))
    return a, b, fixture


def test_achievements_wait_until_the_match_is_reported_gb17(pair, organiser, client):
    a, b, fixture = pair
    geoff = card("It's Unbelievable Geoff!")
    decks.register_deck(coach=a, fixture=fixture, cards=base_deck([geoff]), by=user_of(a))
    with pytest.raises(ValidationError, match="Report the match first"):
        decks.record_achievements(coach=a, fixture=fixture, cards=[geoff], by=user_of(a))
    with pytest.raises(ValidationError, match="Report the match first"):
        decks.record_achievements(coach=a, fixture=fixture, cards=[geoff], by=organiser)
    # Through the form: refused with the reason, nothing written, and no form offered before the report.
    client.force_login(user_of(a))
    page_url = reverse("campaigns:fixture_page", args=[fixture.round.season.league.slug, fixture.pk])
    assert "Record achieved cards" not in client.get(page_url).content.decode()
    side = "home" if fixture.home_id == a.entry_id else "away"
    response = client.post(
        reverse("campaigns:record_achievements", args=[fixture.round.season.league.slug, fixture.pk]),
        {f"achieved-{side}-cards": [geoff.pk], "side": side},
    )
    assert response.status_code == 400 and "Report the match first" in response.content.decode()
    assert not Achievement.objects.exists()
    report_win(fixture, a, b)
    assert "Record achieved cards" in client.get(page_url).content.decode()
    decks.record_achievements(coach=a, fixture=fixture, cards=[geoff], by=user_of(a))
    league_services.approve_result(result=fixture.result, by=organiser)
    assert balances.cp_total(a) == 10


def test_a_card_out_of_the_deck_at_match_time_pays_nothing_gb17(pair, organiser):
    a, b, fixture = pair
    geoff = card("It's Unbelievable Geoff!")
    decks.register_deck(coach=a, fixture=fixture, cards=base_deck([geoff]), by=user_of(a))
    # An achievement left over from the deck registered first (recorded before this
    # fix allowed it only after the report), then the deck re-registered without it.
    Achievement.objects.create(fixture=fixture, coach=a, card=geoff)
    decks.register_deck(coach=a, fixture=fixture, cards=base_deck([card("Winning Ugly")]), by=user_of(a))
    assert not Achievement.objects.filter(card=geoff).exists()
    Achievement.objects.create(fixture=fixture, coach=a, card=geoff)  # even if one slips through
    report_win(fixture, a, b)
    league_services.approve_result(result=fixture.result, by=organiser)
    assert balances.cp_total(a) == 0


def _owned_guild_card(cc, organiser, name):
    ledgers.adjust(coach=cc, ledger="cp", amount=20, reason="test", by=organiser)
    unlock = MomentUnlock.objects.get(coach=cc, threshold=20)
    moments.confirm_unlock(unlock=unlock, by=organiser)
    return moments.pick_card(unlock=unlock, card=card(name), by=user_of(cc))


def test_a_card_in_a_registered_deck_is_not_sold_until_the_match_is_approved_gb23(
    pair, organiser, client, django_capture_on_commit_callbacks
):
    a, b, fixture = pair  # a is Alchemist's: Recipe for Success (15 CP)
    recipe = _owned_guild_card(a, organiser, "Recipe for Success")
    ledgers.adjust(coach=b, ledger="favours", amount=5, reason="grant", by=organiser)
    offer = dealing.offer_purchase(buyer=b, wanted=recipe, favours=3, by=user_of(b))  # before the deck
    decks.register_deck(coach=a, fixture=fixture, cards=base_deck([recipe.card]), by=user_of(a))
    # A new offer is refused at once; accepting the pending one is refused and it
    # stays pending, both coaches seeing why.
    with pytest.raises(ValidationError, match="in Coach 00's registered deck for Round 1"):
        dealing.offer_purchase(buyer=b, wanted=recipe, favours=3, by=user_of(b))
    mail.outbox.clear()
    client.force_login(user_of(a))
    slug = fixture.round.season.league.slug
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("campaigns:answer_offer", args=[slug, offer.pk]), {"action": "accept", "confirmed": "yes"}
        )
    page = response.content.decode()
    assert response.status_code == 400
    assert '<ul class="errorlist"><li>This offer cannot be accepted now:' in page and "registered deck for Round 1" in page
    offer.refresh_from_db()
    assert offer.status == Status.PENDING
    assert not Notice.objects.exists() and not mail.outbox
    assert balances.favour_balance(b) == 5  # nothing moved
    client.force_login(user_of(b))
    assert "Cannot be accepted now: Recipe for Success is in Coach 00&#x27;s registered deck for Round 1" in client.get(
        reverse("campaigns:coach_page", args=[slug, b.entry.coach_id])
    ).content.decode()
    # The card scores for its holder only, once; then it can be sold.
    report_win(fixture, a, b)
    decks.record_achievements(coach=a, fixture=fixture, cards=[recipe.card], by=user_of(a))
    league_services.approve_result(result=fixture.result, by=organiser)
    assert balances.cp_total(a) == 20 + 15 and balances.cp_total(b) == 0
    dealing.answer_offer(offer=offer, accept=True, by=user_of(a))  # the offer kept pending goes through
    assert OwnedCard.objects.get(card=recipe.card, gone_at__isnull=True).coach == b


def test_a_card_sold_before_the_report_scores_for_nobody_who_no_longer_holds_it_gb23(pair, organiser):
    a, b, fixture = pair
    recipe = _owned_guild_card(a, organiser, "Recipe for Success")
    decks.register_deck(coach=a, fixture=fixture, cards=base_deck([recipe.card]), by=user_of(a))
    # Moved behind the rules' back (as the sale did before this fix).
    OwnedCard.objects.filter(pk=recipe.pk).update(gone_at=recipe.acquired_at)
    OwnedCard.objects.create(coach=b, card=recipe.card, source="bought")
    report_win(fixture, a, b)
    with pytest.raises(ValidationError, match="No longer in your pool"):
        decks.record_achievements(coach=a, fixture=fixture, cards=[recipe.card], by=user_of(a))
    Achievement.objects.create(fixture=fixture, coach=a, card=recipe.card)
    league_services.approve_result(result=fixture.result, by=organiser)
    assert balances.cp_total(a) == 20  # the Moment's adjustment only


def test_swap_of_a_card_in_a_registered_deck_is_refused_gb23(pair, organiser):
    a, b, fixture = pair
    mine = _owned_guild_card(a, organiser, "Recipe for Success")
    theirs = _owned_guild_card(b, organiser, PlotCard.objects.filter(guild=b.guild, is_rare=False).last().name)
    decks.register_deck(coach=b, fixture=fixture, cards=base_deck([theirs.card]), by=user_of(b))
    with pytest.raises(ValidationError, match="registered deck"):
        dealing.offer_swap(proposer=a, wanted=theirs, offered=mine, by=user_of(a))
    assert not CardOffer.objects.exists()
