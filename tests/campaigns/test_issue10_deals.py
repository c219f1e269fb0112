"""Issue 10, deals agreed earlier (GB-19, GB-20 Decision): checked again when
answered, closed with both coaches told when the rules refuse them; the requester
is told at request time what the request will take from the phase's 5 Favours."""

import pytest
from django.core import mail
from django.urls import reverse

from campaigns import balances, dealing, ledgers, moments
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


def test_loan_refused_by_the_rules_when_answered_is_closed_and_both_told_gb20(
    three, client, django_capture_on_commit_callbacks
):
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
    mail.outbox.clear()
    client.force_login(user_of(b))
    with django_capture_on_commit_callbacks(execute=True):
        page = client.post(
            reverse("campaigns:answer_loan", args=["midlands", loan.pk]), {"action": "accept"}, follow=True
        ).content.decode()
    assert "could not go through and is now closed" in page and "already spent 3 of the 5" in page
    loan.refresh_from_db()
    assert loan.status == Status.CLOSED and "GB-19" in loan.closed_reason
    assert not FavourLine.objects.filter(kind=LineKind.LOAN_FEE).exists()
    assert set(Notice.objects.values_list("coach", flat=True)) == {a.pk, b.pk}
    assert len(mail.outbox) == 2 and "already spent 3 of the 5" in mail.outbox[0].body
    for cc in (a, b):
        assert "Coach 00&#x27;s loan of Friday from Coach 01 could not go through" in page_of(client, cc)
    # No longer pending: it cannot be answered again.
    client.force_login(user_of(b))
    response = client.post(reverse("campaigns:answer_loan", args=["midlands", loan.pk]), {"action": "accept"})
    assert response.status_code == 400 and "already closed" in response.content.decode()


def test_card_offer_refused_by_the_rules_when_answered_is_closed_gb20(three, organiser, client):
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
    closed = dealing.answer_offer(offer=offer, accept=True, by=user_of(b))
    assert closed.status == Status.CLOSED and "already spent 2 of the 5" in closed.closed_reason
    assert Notice.objects.filter(coach=a).count() == 1 and Notice.objects.filter(coach=b).count() == 1
    assert balances.favour_balance(b) == 10 + 1  # grant + round-1 win; nothing from the sale
