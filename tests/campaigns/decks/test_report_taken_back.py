"""The Big League on a report its coach changes or takes back (GB-8 Decision,
every game; GB-17): achieved cards belong to a reported match, so they stay
through a change of the score and go with a report taken back."""

import datetime

import pytest

from campaigns.ledgers import balances
from campaigns.decks import services as decks
from campaigns.models import Achievement, PlotCard
from league.services import results as league_services
from tests.campaigns.factories import base_deck, fixture_between, make_campaign, set_match_day, user_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def reported(season, organiser):
    """Coach 00 registered a deck with Geoff, reported a 12-6 win and recorded Geoff."""
    a, b = make_campaign(season, 2, organiser=organiser)
    fixture = fixture_between(a, b)
    set_match_day(fixture, datetime.date.today() - datetime.timedelta(days=1))
    geoff = PlotCard.objects.get(name="It's Unbelievable Geoff!")
    decks.register_deck(coach=a, fixture=fixture, cards=base_deck([geoff]), by=user_of(a))
    home = fixture.home_id == a.entry_id
    result = league_services.report_result(
        fixture=fixture, by=user_of(a), home_score=12 if home else 6, away_score=6 if home else 12)
    decks.record_achievements(coach=a, fixture=fixture, cards=[geoff], by=user_of(a))
    return a, b, fixture, result, geoff


def test_a_change_of_score_keeps_the_achieved_cards(reported, organiser):
    a, b, fixture, result, geoff = reported
    home = fixture.home_id == a.entry_id
    league_services.change_report(result=result, by=user_of(a), home_score=12 if home else 8,
                                  away_score=8 if home else 12)
    assert list(Achievement.objects.filter(fixture=fixture).values_list("card", flat=True)) == [geoff.pk]
    league_services.approve_result(result=fixture.result, by=organiser, reason="seen the sheet")
    assert balances.cp_total(a) == 10


def test_a_report_taken_back_takes_its_achieved_cards_with_it(reported, organiser):
    a, b, fixture, result, geoff = reported
    league_services.withdraw_report(result=result, by=user_of(a))
    assert not Achievement.objects.filter(fixture=fixture).exists()
    # Reported again (the other way round) and approved: nothing of the first report pays.
    home = fixture.home_id == b.entry_id
    again = league_services.report_result(
        fixture=fixture, by=user_of(b), home_score=12 if home else 6, away_score=6 if home else 12)
    league_services.approve_result(result=again, by=organiser, reason="seen the sheet")
    assert balances.cp_total(a) == 0
