"""Catalogue, ledgers and the result hooks: CP from achieved cards (GB-17), match
Favours (GB-18), Moments (GB-12, GB-13), reversal on correction or reopening."""

import datetime

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from campaigns.ledgers import balances
from campaigns.decks import services as decks
from campaigns.ledgers import services as ledgers
from campaigns.moments import services as moments
from campaigns.models import (
    Campaign, CampaignPointLine, Deck, LineKind, FavourLine, Moment, MomentUnlock, PlotCard, Sponsorship,
)
from league.services import results as league_services
from league.models import Fixture
from tests.campaigns.factories import base_deck, fixture_between, make_campaign, play, set_match_day, user_of
from tests.support.factories import FixtureFactory, SeasonFactory

pytestmark = pytest.mark.django_db


def card(name):
    return PlotCard.objects.get(name=name)


def favours(cc):
    return balances.favour_balance(cc)


def test_catalogue_is_loaded():
    assert PlotCard.objects.filter(kind="core").count() == 12
    assert PlotCard.objects.filter(kind="common").count() == 10
    assert PlotCard.objects.filter(kind="rare").count() == 6
    assert PlotCard.objects.filter(kind="guild").count() == 72
    assert PlotCard.objects.filter(kind="guild", is_rare=True).count() == 9
    poisoned = card("Poisoned Chalice")
    assert (poisoned.cp_reward, poisoned.favour_reward, poisoned.is_rare) == (25, 1, True)
    bribery = card("Bribery and Corruption")
    assert (bribery.guild.name, bribery.is_rare, bribery.cp_reward, bribery.favour_reward) == ("The Union", True, 0, 1)
    assert Sponsorship.objects.count() == 9
    assert list(Moment.objects.values_list("threshold", flat=True)) == list(range(0, 201, 20))
    assert Moment.objects.get(threshold=200).repeat_every == 20


def test_campaign_rows_created_lazily_on_first_approval(season, organiser):
    fixture = FixtureFactory(round__season=season, home__team="Mason's", away__team="brewers")
    assert not Campaign.objects.exists()
    play(fixture, winner=None, organiser=organiser, abandoned=True)
    campaign = Campaign.objects.get(season=season)
    home, away = (fixture.home.campaign_coach, fixture.away.campaign_coach)
    assert (home.guild.name, away.guild.name) == ("Mason's", "Brewer's")
    assert home.campaign == campaign
    # GB-6/GB-18: an abandoned match is a loss for both.
    assert favours(home) == favours(away) == 3
    # GB-14: everyone starts with Plotting reached and confirmed.
    assert MomentUnlock.objects.filter(threshold=0, confirmed_at__isnull=False).count() == 2


def test_gb18_compares_lp_from_earlier_rounds(season, organiser):
    a, b, c, d = make_campaign(season, 4, organiser=organiser)
    rounds = list(season.rounds.order_by("number"))
    r1 = list(Fixture.objects.filter(round=rounds[0]))
    # Round 1: a beats their opponent and b beats theirs (whoever they are).
    winners = {}
    for f in r1:
        home_cc, away_cc = f.home.campaign_coach, f.away.campaign_coach
        winner = home_cc if home_cc.pk < away_cc.pk else away_cc
        winners[f.pk] = winner
        play(f, winner=winner, organiser=organiser)
    lp = {cc.pk: 0 for cc in (a, b, c, d)}
    for w in winners.values():
        lp[w.pk] = 3
    for cc in (a, b, c, d):
        # Round 1: nobody had LP before, so +1 per win and +3 per loss.
        assert favours(cc) == (1 if lp[cc.pk] else 3)
    # Round 2: a winner of round 1 loses to a loser of round 1 -> loser had more LP.
    for f in Fixture.objects.filter(round=rounds[1]).select_related("home", "away"):
        home_cc, away_cc = f.home.campaign_coach, f.away.campaign_coach
        if lp[home_cc.pk] != lp[away_cc.pk]:
            underdog = home_cc if lp[home_cc.pk] < lp[away_cc.pk] else away_cc
            favourite = away_cc if underdog is home_cc else home_cc
            before_u, before_f = favours(underdog), favours(favourite)
            play(f, winner=underdog, organiser=organiser)
            assert favours(underdog) - before_u == 1 + 1 + 2  # won, played more LP, beat more LP
            assert favours(favourite) - before_f == 3
            reasons = list(FavourLine.objects.filter(coach=underdog, result=f.result).values_list("reason", flat=True))
            assert any("who had more LP (3 to 0)" in r for r in reasons)
            return
    pytest.fail("round 2 should pair a round 1 winner with a loser")


def test_gb18_late_approval_of_an_earlier_round_recomputes_later_rounds(season, organiser):
    a, b, c, d = make_campaign(season, 4, organiser=organiser)
    r1, r2 = list(season.rounds.order_by("number"))[:2]
    f1 = list(Fixture.objects.filter(round=r1))
    f2 = list(Fixture.objects.filter(round=r2))
    # Round 2 is played first (round 1 rearranged): nobody has LP yet.
    for f in f2:
        play(f, winner=f.home.campaign_coach, organiser=organiser)
    first = {cc.pk: favours(cc) for cc in (a, b, c, d)}
    assert sorted(first.values()) == [1, 1, 3, 3]
    # Now round 1 is approved: round 2's "more LP" lines follow round 1's results.
    for f in f1:
        play(f, winner=f.home.campaign_coach, organiser=organiser)
    table = {}
    for f in f1:
        table[f.home.campaign_coach.pk], table[f.away.campaign_coach.pk] = 3, 0
    for f in f2:
        h, w = f.home.campaign_coach, f.away.campaign_coach
        expected_r2_home = 1 + (1 + 2 if table[w.pk] > table[h.pk] else 0)
        got = sum(FavourLine.objects.filter(coach=h, result=f.result).values_list("amount", flat=True))
        assert got == expected_r2_home


def deck_with(cc, fixture, extra):
    return decks.register_deck(coach=cc, fixture=fixture, cards=base_deck(extra), by=user_of(cc))


def test_cards_achieved_give_catalogue_rewards_on_approval(season, organiser):
    a, b = make_campaign(season, 2, organiser=organiser)
    fixture = fixture_between(a, b)
    set_match_day(fixture, datetime.date.today() + datetime.timedelta(days=3))
    deck_with(a, fixture, [card("Winning Ugly"), card("It's Unbelievable Geoff!")])
    deck_with(b, fixture, [])
    result = league_services.report_result(
        fixture=fixture, by=user_of(a), home_score=12 if fixture.home_id == a.entry_id else 6,
        away_score=6 if fixture.home_id == a.entry_id else 12,
    )
    decks.record_achievements(
        coach=a, fixture=fixture, cards=[card("Winning Ugly"), card("It's Unbelievable Geoff!")], by=user_of(a)
    )
    # Nothing is credited before approval.
    assert balances.cp_total(a) == 0
    league_services.confirm_result(result=result, by=user_of(b))
    league_services.approve_result(result=result, by=organiser)
    assert balances.cp_total(a) == 20
    assert set(CampaignPointLine.objects.filter(coach=a).values_list("kind", "amount")) == {(LineKind.CARD, 10)}
    # 20 CP reaches Planning (GB-12) and leaves an unconfirmed unlock (GB-13).
    planning = MomentUnlock.objects.get(coach=a, threshold=20)
    assert planning.confirmed_at is None and planning.name == "Planning"
    assert favours(a) == 1 and favours(b) == 3


def test_only_cards_in_the_deck_count_gb17(season, organiser):
    a, b = make_campaign(season, 2, organiser=organiser)
    fixture = fixture_between(a, b)
    set_match_day(fixture, datetime.date.today() + datetime.timedelta(days=3))
    league_services.report_result(fixture=fixture, by=user_of(a), home_score=12, away_score=6)
    with pytest.raises(ValidationError, match="No deck was registered"):
        decks.record_achievements(coach=a, fixture=fixture, cards=[card("Winning Ugly")], by=user_of(a))
    Deck.objects.create(coach=a, fixture=fixture).cards.set(  # registered before the report
        base_deck([card("Winning Ugly"), card("Tap In")])
    )
    with pytest.raises(ValidationError, match="not in it: Payday"):
        decks.record_achievements(coach=a, fixture=fixture, cards=[card("Payday")], by=user_of(a))
    with pytest.raises(ValidationError, match="in-game effect only"):
        decks.record_achievements(coach=a, fixture=fixture, cards=[card("Tap In")], by=user_of(a))
    with pytest.raises(PermissionDenied):
        decks.record_achievements(coach=a, fixture=fixture, cards=[], by=user_of(b))


def test_deck_is_exactly_12_distinct_pool_cards_gb16(season, organiser):
    a, b = make_campaign(season, 2, organiser=organiser)
    fixture = fixture_between(a, b)
    set_match_day(fixture, datetime.date.today() + datetime.timedelta(days=3))
    with pytest.raises(ValidationError, match="exactly 12 distinct cards; you chose 11"):
        decks.register_deck(coach=a, fixture=fixture, cards=base_deck()[:11], by=user_of(a))
    with pytest.raises(ValidationError, match="Not in your pool: Payday"):
        decks.register_deck(coach=a, fixture=fixture, cards=base_deck([card("Payday")]), by=user_of(a))
    deck = decks.register_deck(coach=a, fixture=fixture, cards=base_deck(), by=user_of(a))
    assert deck.cards.count() == 12
    # On match day the registered deck is shown face up and cannot change.
    set_match_day(fixture, datetime.date.today())
    with pytest.raises(ValidationError, match="can no longer change"):
        decks.register_deck(coach=a, fixture=fixture, cards=base_deck(), by=user_of(a))


def test_correction_reverses_exactly_what_the_result_gave(season, organiser):
    a, b = make_campaign(season, 2, organiser=organiser)
    fixture = fixture_between(a, b)
    set_match_day(fixture, datetime.date.today() + datetime.timedelta(days=3))
    deck_with(a, fixture, [card("The Beautiful Game"), card("Winning Ugly")])
    league_services.report_result(
        fixture=fixture, by=user_of(a), home_score=12 if fixture.home_id == a.entry_id else 6,
        away_score=6 if fixture.home_id == a.entry_id else 12,
    )
    decks.record_achievements(
        coach=a, fixture=fixture, cards=[card("The Beautiful Game"), card("Winning Ugly")], by=user_of(a)
    )
    ledgers.adjust(coach=a, ledger="cp", amount=5, reason="painted army bonus", by=organiser)
    result = play(fixture, winner=a, organiser=organiser)
    assert balances.cp_total(a) == 25 and favours(a) == 1 and favours(b) == 3
    moments.confirm_unlock(unlock=MomentUnlock.objects.get(coach=a, threshold=20), by=organiser)

    # Corrected: b actually won. a's cards still count (achieved is not about winning).
    league_services.record_result(
        fixture=fixture, by=organiser, reason="scores swapped",
        home_score=6 if fixture.home_id == a.entry_id else 12, away_score=12 if fixture.home_id == a.entry_id else 6,
    )
    assert balances.cp_total(a) == 25 and favours(a) == 3 and favours(b) == 1
    reversals = FavourLine.objects.filter(reverses__isnull=False)
    assert sorted(reversals.values_list("amount", flat=True)) == [-3, -1]

    # Reopened: everything the result gave is reversed; the adjustment stays.
    league_services.reopen_result(result=result, by=organiser, reason="check the cards")
    assert balances.cp_total(a) == 5 and favours(a) == 0 and favours(b) == 0
    assert CampaignPointLine.objects.filter(coach=a, kind=LineKind.ADJUSTMENT).count() == 1
    # Planning (20 CP) stays recorded but is no longer reached.
    assert MomentUnlock.objects.filter(coach=a, threshold=20).exists()
    with pytest.raises(ValidationError, match="needs 20 CP and you now have 5"):
        moments.pick_card(unlock=MomentUnlock.objects.get(coach=a, threshold=20), card=card("Bonded"), by=user_of(a))


def test_hooks_do_nothing_for_a_bye(organiser):
    season = SeasonFactory()
    fixture = FixtureFactory(round__season=season, away=None)
    ledgers.on_result_withdrawn(type("R", (), {"fixture_id": fixture.pk, "pk": 0})(), by=None)
    assert not Campaign.objects.exists()
