"""The Big League's notifications (campaigns/notices.py, registered through the
layer): a loan request or card offer to the other coach and its answer to the
one who asked; a Moment reached to the Longshanks (GB-13), confirmed to the coach
to pick their card; each to the right person only, and a kind turned off is not
sent."""

import pytest
from django.core import mail
from django.urls import reverse

from campaigns.ledgers import services as ledgers
from campaigns.moments import services as moments
from campaigns.models import CardOffer, Loan, MomentUnlock, PlotCard
from league.outbox import notifications
from league.models import Fixture
from tests.campaigns.factories import make_campaign, play, user_of

pytestmark = pytest.mark.django_db

SLUG = "midlands"


def url(name, *args):
    return reverse(f"campaigns:{name}", args=[SLUG, *args])


def email_of(cc):
    return cc.entry.coach.contact_email


def sent():
    return sorted((message.to[0], message.subject) for message in mail.outbox)


@pytest.fixture
def world(season, organiser):
    coaches = make_campaign(season, 4, organiser=organiser)
    for f in Fixture.objects.filter(round__number=1, round__season=season):
        play(f, winner=f.home.campaign_coach, organiser=organiser)
    for cc in coaches:
        ledgers.adjust(coach=cc, ledger="favours", amount=10, reason="start-up grant", by=organiser)
    mail.outbox.clear()
    return coaches


def test_kinds_come_from_the_engine_and_the_layer():
    keys = [kind.key for kind in notifications.kinds()]
    assert keys[:4] == ["result_reported", "result_disputed", "result_approved", "fixture_rearranged"]
    assert {"loan_requested", "loan_answered", "offer_made", "offer_answered", "moment_to_confirm", "card_to_pick"} <= set(keys)
    assert len(keys) == len(set(keys))


def test_a_loan_request_goes_to_the_lender_and_its_answer_to_the_borrower(client, world, django_capture_on_commit_callbacks):
    a, b = world[0], world[1]
    client.force_login(user_of(a))
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url("request_loan"), {"lender": b.pk, "model_name": "Friday", "model_type": "squaddie"})
    assert response.status_code == 302 and Loan.objects.get().status == "pending"
    assert [to for to, _ in sent()] == [email_of(b)]
    assert "asks to borrow Friday" in mail.outbox[0].subject and email_of(a) not in mail.outbox[0].body
    mail.outbox.clear()
    client.force_login(user_of(b))
    with django_capture_on_commit_callbacks(execute=True):
        client.post(url("answer_loan", Loan.objects.get().pk), {"action": "refuse", "confirmed": "yes"})
    assert Loan.objects.get().status == "refused"
    assert sent() == [(email_of(a), f"[{a.campaign.season.league.name}] The Big League: {b} refused your loan request")]


def test_a_card_offer_goes_to_the_owner_and_its_answer_to_the_proposer(
    client, world, organiser, django_capture_on_commit_callbacks
):
    a, b = world[0], world[1]
    ledgers.adjust(coach=b, ledger="cp", amount=20, reason="test", by=organiser)
    unlock = MomentUnlock.objects.get(coach=b, threshold=20)
    moments.confirm_unlock(unlock=unlock, by=organiser)
    wanted = moments.pick_card(unlock=unlock, card=PlotCard.objects.filter(guild=b.guild, is_rare=False).last(), by=user_of(b))
    client.force_login(user_of(a))
    with django_capture_on_commit_callbacks(execute=True):
        client.post(url("make_offer"), {"kind": "purchase", "wanted": wanted.pk, "favours": 3})
    offer = CardOffer.objects.get()
    assert sent() == [(email_of(b), f"[{a.campaign.season.league.name}] The Big League: {a} offers 3 Favours for one of your cards")]
    mail.outbox.clear()
    client.force_login(user_of(b))
    with django_capture_on_commit_callbacks(execute=True):
        client.post(url("answer_offer", offer.pk), {"action": "accept", "confirmed": "yes"})
    offer.refresh_from_db()
    assert offer.status == "accepted"
    # The proposer hears the answer; the Longshanks hears of the sale (GB-23).
    assert sorted(to for to, _ in sent()) == sorted([email_of(a), organiser.email])
    assert "accepted your offer" in next(m.subject for m in mail.outbox if m.to == [email_of(a)])


def test_a_moment_reached_goes_to_the_organiser_and_its_confirmation_to_the_coach(
    client, world, organiser, other_organiser, django_capture_on_commit_callbacks
):
    a = world[0]
    with django_capture_on_commit_callbacks(execute=True):
        ledgers.adjust(coach=a, ledger="cp", amount=60, reason="test", by=organiser)
    assert [to for to, _ in sent()] == [organiser.email]
    assert "Confirm it from the organiser's dashboard" in mail.outbox[0].body
    assert reverse("league:organiser_dashboard", args=[SLUG]) in mail.outbox[0].body
    mail.outbox.clear()
    unlock = MomentUnlock.objects.get(coach=a, threshold=60)
    client.force_login(organiser)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(url("confirm_unlock", unlock.pk))
    assert MomentUnlock.objects.get(pk=unlock.pk).confirmed_at is not None
    assert [to for to, _ in sent()] == [email_of(a)] and "pick your card" in mail.outbox[0].subject


def test_a_campaign_kind_turned_off_is_not_sent(client, world, organiser, django_capture_on_commit_callbacks):
    a, b = world[0], world[1]
    notifications.set_preferences(user=user_of(b), on=[k.key for k in notifications.kinds() if k.key != "loan_requested"])
    client.force_login(user_of(a))
    with django_capture_on_commit_callbacks(execute=True):
        client.post(url("request_loan"), {"lender": b.pk, "model_name": "Friday", "model_type": "squaddie"})
    assert Loan.objects.exists() and mail.outbox == []
    # The organiser turns Moments off: the coach is still told when one is confirmed.
    notifications.set_preferences(user=organiser, on=[])
    with django_capture_on_commit_callbacks(execute=True):
        ledgers.adjust(coach=a, ledger="cp", amount=20, reason="test", by=organiser)
        moments.confirm_unlock(unlock=MomentUnlock.objects.get(coach=a, threshold=20), by=organiser)
    assert [to for to, _ in sent()] == [email_of(a)]
