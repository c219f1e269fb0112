"""Telling coaches and the Longshanks what waits on them or what they must hear of
in the Big League (GB-1, GB-13, GB-20, GB-22, GB-23): the campaign's notification
kinds, registered with
the engine's notifications (league/outbox/notifications.py) through the layer, and one
function per step, called inside that step's transaction (mail goes out once it
commits)."""

from __future__ import annotations

from django.urls import reverse

from campaigns.models import CampaignCoach, CardOffer, Loan, MomentUnlock
from campaigns.rules import LOAN_COST, LOAN_TO_LENDER
from league.outbox.quiet import is_quiet
from league.outbox import notifications
from league.outbox.notifications import Kind

LOAN_REQUESTED = Kind("loan_requested", "Another coach asks to borrow a model from you (Big League)")
LOAN_ANSWERED = Kind("loan_answered", "Your loan request is accepted or refused (Big League)")
OFFER_MADE = Kind("offer_made", "Another coach offers for one of your plot cards (Big League)")
OFFER_ANSWERED = Kind("offer_answered", "Your card offer is accepted or refused (Big League)")
MOMENT_TO_CONFIRM = Kind("moment_to_confirm", "A coach reached a Moment for you to confirm (Big League organisers)")
CARD_TO_PICK = Kind("card_to_pick", "A Moment of yours is confirmed: a card to pick (Big League)")
CARD_TRADED = Kind("card_traded", "Two coaches agreed a card sale or swap (Big League organisers)")

KINDS = (LOAN_REQUESTED, LOAN_ANSWERED, OFFER_MADE, OFFER_ANSWERED, MOMENT_TO_CONFIRM, CARD_TO_PICK, CARD_TRADED)


def _coach(cc: CampaignCoach):
    return notifications.coach_recipient(cc.entry.coach)


def _page(cc: CampaignCoach) -> str:
    return reverse("campaigns:coach_page", args=[cc.campaign.season.league.slug, cc.entry.coach_id])


def _league(cc: CampaignCoach):
    return cc.campaign.season.league


def _load(*coaches: CampaignCoach) -> list[CampaignCoach]:
    """The coaches with what a message needs (their account, league), one query."""
    by_pk = CampaignCoach.objects.select_related("entry__coach__user", "campaign__season__league").in_bulk(
        [cc.pk for cc in coaches]
    )
    return [by_pk[cc.pk] for cc in coaches]


# Each step builds its kind's context; the words are templates/emails/<kind>-*.


def loan_requested(loan: Loan) -> None:
    """GB-22: to the lender, who accepts or refuses."""
    borrower, lender = _load(loan.borrower, loan.lender)
    notifications.send(
        LOAN_REQUESTED, [_coach(lender)],
        context={
            "league": _league(lender), "loan": loan, "borrower": borrower,
            "loan_cost": LOAN_COST, "loan_to_lender": LOAN_TO_LENDER,
        },
        link=_page(lender),
    )


def loan_answered(loan: Loan) -> None:
    """GB-22: to the borrower."""
    borrower, lender = _load(loan.borrower, loan.lender)
    notifications.send(
        LOAN_ANSWERED, [_coach(borrower)],
        context={"league": _league(borrower), "loan": loan, "lender": lender},
        link=_page(borrower),
    )


def offer_made(offer: CardOffer) -> None:
    """GB-23: to the card's owner."""
    proposer, recipient = _load(offer.proposer, offer.recipient)
    notifications.send(
        OFFER_MADE, [_coach(recipient)],
        context={
            "league": _league(recipient), "offer": offer, "proposer": proposer,
            "purchase": offer.kind == CardOffer.Kind.PURCHASE,
        },
        link=_page(recipient),
    )


def offer_answered(offer: CardOffer) -> None:
    """GB-23: to the coach who made the offer."""
    proposer, recipient = _load(offer.proposer, offer.recipient)
    notifications.send(
        OFFER_ANSWERED, [_coach(proposer)],
        context={"league": _league(proposer), "offer": offer, "recipient": recipient},
        link=_page(proposer),
    )


def card_traded(offer: CardOffer) -> None:
    """GB-1, GB-23: every accepted card sale or swap is notified to the Longshanks,
    that is to the league's organisers, except one who made the deal (a Longshanks
    who also plays knows their own). ``offer`` has its cards loaded."""
    proposer, recipient = _load(offer.proposer, offer.recipient)
    league = _league(proposer)
    parties = {proposer.entry.coach.user_id, recipient.entry.coach.user_id}
    notifications.send(
        CARD_TRADED, [r for r in notifications.organiser_recipients(league) if r.user_id not in parties],
        context={
            "league": league, "offer": offer, "proposer": proposer, "recipient": recipient,
            "purchase": offer.kind == CardOffer.Kind.PURCHASE,
        },
        link=reverse("league:organiser_dashboard", args=[league.slug]) + "#card-trades",
    )


def moments_reached(unlocks: list[MomentUnlock]) -> None:
    """GB-13: new Moments waiting for the Longshanks to confirm, to the league's
    organisers. In a quiet block (an import) nothing is sent, so nothing is loaded
    either: a query per coach there was most of a CP import's cost."""
    if not unlocks or is_quiet():
        return
    (cc,) = _load(unlocks[0].coach)
    league = _league(cc)
    notifications.send(
        MOMENT_TO_CONFIRM, notifications.organiser_recipients(league),
        context={"league": league, "coach": cc, "unlocks": unlocks},
        link=reverse("league:organiser_dashboard", args=[league.slug]),
    )


def card_to_pick(unlock: MomentUnlock) -> None:
    """GB-13: the coach whose Moment the Longshanks confirmed picks their card."""
    (cc,) = _load(unlock.coach)
    notifications.send(
        CARD_TO_PICK, [_coach(cc)],
        context={"league": _league(cc), "unlock": unlock},
        link=_page(cc),
    )
