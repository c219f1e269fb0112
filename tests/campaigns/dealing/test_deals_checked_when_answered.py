"""Deals agreed earlier (GB-19, GB-20 Decision): checked again when
answered; when the rules refuse them now, accepting is refused and the deal stays
pending, both coaches seeing why; the requester
is told at request time what the request will take from the phase's 5 Favours."""

import pytest
from django.core.exceptions import ValidationError
from django.core import mail
from django.urls import reverse

from campaigns.ledgers import balances
from campaigns.dealing import services as dealing
from campaigns.ledgers import services as ledgers
from campaigns.moments import services as moments
from campaigns.models import FavourLine, LineKind, Loan, MomentUnlock, Notice, PlotCard, Sponsorship, Status
from league.models import Fixture
from tests.campaigns.factories import make_campaign, play, user_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def three(season, organiser):
    coaches = make_campaign(season, 4, organiser=organiser)
    for f in Fixture.objects.filter(round__number=1, round__season=season):
        play(f, winner=f.home.campaign_coach, organiser=organiser)
    for cc in coaches:
        ledgers.adjust(coach=cc, ledger="favours", amount=10, reason="start-up grant", by=organiser)
    return coaches


def page_of(client, cc):
    client.force_login(user_of(cc))
    return client.get(reverse("campaigns:coach_page", args=["midlands", cc.entry.coach_id])).content.decode()


def test_loan_refused_by_the_rules_when_answered_stays_pending_and_both_see_why_gb20(
    three, client, django_capture_on_commit_callbacks
):
    """The rules' refusal is shown in the error style, with status 400,
    and the request stays pending; Accept is disabled with the reason on the
    lender's page and the borrower's page says why too."""
    a, b = three[0], three[1]
    client.force_login(user_of(a))
    page = client.post(
        reverse("campaigns:request_loan", args=["midlands"]),
        {"lender": b.pk, "model_name": "Friday", "model_type": "squaddie"}, follow=True,
    ).content.decode()
    # Told at request time what it will take from this phase's 5.
    assert "takes 3 of the 5 Favours you may spend this Wheeling &amp; Dealing phase" in page
    assert "you have spent 0, so 2 would be left" in page
    loan = Loan.objects.get()
    # Meanwhile a spends 3 of the phase's 5: the loan's 3 no longer fit (GB-19).
    for name in ["+1 DEF", "Re-roll Shots", "+2/+0 INF"]:
        dealing.buy_sponsorship(coach=a, sponsorship=Sponsorship.objects.get(name=name), by=user_of(a))
    why = "The loan costs 3 and Coach 00 has already spent 3 of the 5 Favours allowed this Wheeling &amp; Dealing phase"
    lender_page = page_of(client, b)
    assert f"Cannot be accepted now: {why}" in lender_page
    assert '<button name="action" value="accept" disabled>Accept</button>' in lender_page
    assert f"Cannot be accepted now: {why}" in page_of(client, a)
    mail.outbox.clear()
    client.force_login(user_of(b))
    for data in ({"action": "accept"}, {"action": "accept", "confirmed": "yes"}):
        with django_capture_on_commit_callbacks(execute=True):
            response = client.post(reverse("campaigns:answer_loan", args=["midlands", loan.pk]), data)
        page = response.content.decode()
        assert response.status_code == 400
        assert f'<ul class="errorlist"><li>This loan request cannot be accepted now: {why}' in page
        assert "It stays pending: accept it once it can go through, or refuse it." in page
        assert "could not go through" not in page and 'class="success"' not in page
    loan.refresh_from_db()
    assert loan.status == Status.PENDING and loan.closed_reason == ""
    assert not FavourLine.objects.filter(kind=LineKind.LOAN_FEE).exists()
    assert not Notice.objects.exists() and not mail.outbox
    # Still pending: the lender can refuse it (after confirming).
    client.post(reverse("campaigns:answer_loan", args=["midlands", loan.pk]), {"action": "refuse", "confirmed": "yes"})
    loan.refresh_from_db()
    assert loan.status == Status.REFUSED


def test_card_offer_refused_by_the_rules_when_answered_stays_pending_gb20(three, organiser, client):
    a, b = three[0], three[1]
    ledgers.adjust(coach=b, ledger="cp", amount=20, reason="x", by=organiser)
    unlock = MomentUnlock.objects.get(coach=b, threshold=20)
    moments.confirm_unlock(unlock=unlock, by=organiser)
    wanted = moments.pick_card(
        unlock=unlock, card=PlotCard.objects.filter(guild=b.guild, is_rare=False).last(), by=user_of(b)
    )
    client.force_login(user_of(a))
    page = client.post(
        reverse("campaigns:make_offer", args=["midlands"]), {"kind": "purchase", "wanted": wanted.pk, "favours": 4},
        follow=True,
    ).content.decode()
    assert "takes 4 of the 5 Favours" in page and "so 1 would be left" in page
    offer = a.offers_made.get()
    dealing.buy_advancement(coach=a, by=user_of(a))
    dealing.buy_sponsorship(coach=a, sponsorship=Sponsorship.objects.get(name="+1 DEF"), by=user_of(a))
    with pytest.raises(ValidationError, match="cannot be accepted now: .*already spent 2 of the 5"):
        dealing.answer_offer(offer=offer, accept=True, by=user_of(b))
    offer.refresh_from_db()
    assert offer.status == Status.PENDING and offer.closed_reason == ""
    assert balances.favour_balance(b) == 10 + 1  # grant + round-1 win; nothing from the sale
