"""Favours and phases: the coach's next League Match by date (GB-20
Decision) and the phase closing on the next match day (GB-20)."""

import datetime

import pytest
from django.core.exceptions import ValidationError
from django.db.models import Q

from campaigns.ledgers import balances
from campaigns.dealing import services as dealing
from campaigns.ledgers import services as ledgers
from campaigns.dealing import phases
from campaigns.models import Loan, Sponsorship, SponsorshipPurchase
from league.services import fixtures as fixture_services
from league.models import Fixture
from tests.campaigns.factories import make_campaign, play, set_match_day, user_of

pytestmark = pytest.mark.django_db


def fixture_of(cc, number):
    return Fixture.objects.select_related("round").get(
        Q(home_id=cc.entry_id) | Q(away_id=cc.entry_id), round__number=number, away__isnull=False
    )


@pytest.fixture
def after_round_1(season, organiser):
    coaches = make_campaign(season, 4, organiser=organiser)
    for f in Fixture.objects.filter(round__number=1, round__season=season):
        play(f, winner=f.home.campaign_coach, organiser=organiser)
    for cc in coaches:
        ledgers.adjust(coach=cc, ledger="favours", amount=10, reason="start-up grant", by=organiser)
    return coaches


def test_next_match_is_the_next_unplayed_fixture_by_date_gb20(after_round_1, organiser):
    a, b = after_round_1[0], after_round_1[1]
    round_2, round_3 = fixture_of(a, 2), fixture_of(a, 3)
    # Round 2 cannot be played in its week: it moves after round 3.
    fixture_services.rearrange_fixture(
        fixture=round_2, by=organiser, new_date=round_3.date + datetime.timedelta(days=2), reason="venue closed"
    )
    assert phases.phase_for(a).next_fixture == round_3
    first = dealing.buy_sponsorship(coach=a, sponsorship=Sponsorship.objects.get(name="+1 DEF"), by=user_of(a))
    assert first.fixture == round_3
    loan = dealing.request_loan(borrower=a, lender=b, model_name="Friday", model_type="squaddie", by=user_of(a))
    dealing.answer_loan(loan=loan, accept=True, by=user_of(b))
    assert Loan.objects.get(pk=loan.pk).fixture == round_3
    play(round_3, winner=a, organiser=organiser)
    # Round 3 is over and its sponsorship returned: the rearranged round 2 is next,
    # and the same sponsorship can be bought again for it.
    assert phases.phase_for(a).next_fixture == round_2
    again = dealing.buy_sponsorship(coach=a, sponsorship=Sponsorship.objects.get(name="+1 DEF"), by=user_of(a))
    assert again.fixture == round_2
    assert SponsorshipPurchase.objects.filter(coach=a).count() == 2


def test_phase_closes_when_the_next_match_day_starts_gb20(after_round_1):
    a = after_round_1[0]
    nxt = phases.phase_for(a).next_fixture
    set_match_day(nxt, datetime.date.today())
    phase = phases.phase_for(a)
    assert not phase.is_open and "is due" in phase.closed_because
    before = balances.favour_balance(a)
    with pytest.raises(ValidationError, match="Wheeling & Dealing is closed: your match in Round 2 is due"):
        dealing.buy_advancement(coach=a, by=user_of(a))
    assert balances.favour_balance(a) == before
    # The day before, it is still open.
    set_match_day(nxt, datetime.date.today() + datetime.timedelta(days=1))
    assert phases.phase_for(a).is_open
