"""The Big League's kinds of fact and who follows them (league/facts/registry.py),
given in its declaration (``game.py``): the engine imports no layer."""

from __future__ import annotations

import itertools

from campaigns import notices
from campaigns.dealing.services import LOAN_ANSWERED, LOAN_REQUESTED, OFFER_ANSWERED, OFFER_MADE
from campaigns.models import CampaignCoach, Status
from campaigns.moments.services import MOMENT_CONFIRMED, MOMENTS_REACHED
from league.events import emit as events
from league.events import types as event_types
from league.facts.registry import Recorded
from league.games import Facts


def mail_moments_reached(fact: Recorded) -> None:
    """GB-13: the organisers confirm each new Moment: one notice per coach, as for one coach."""
    for _, reached in itertools.groupby(fact.about["unlocks"], key=lambda unlock: unlock.coach_id):
        notices.moments_reached(list(reached))


def events_moments_reached(fact: Recorded) -> None:
    """GB-13: a ``moment.reached`` event per new unlock, one emit per league (two
    queries, whatever the number)."""
    created = fact.about["unlocks"]
    coaches = {
        pk: (league_id, season_id, season_name, slug, name)
        for pk, league_id, season_id, season_name, slug, name in CampaignCoach.objects.filter(
            pk__in={unlock.coach_id for unlock in created}).values_list(
            "pk", "campaign__season__league_id", "campaign__season_id", "campaign__season__name",
            "campaign__season__league__slug", "entry__coach__name")
    }
    by_league: dict[int, list] = {}
    for unlock in created:
        league_id, season_id, season_name, slug, name = coaches[unlock.coach_id]
        by_league.setdefault(league_id, []).append((event_types.MOMENT_REACHED, {
            "league": slug, "season": {"id": season_id, "name": season_name},
            "moment": {"name": unlock.name, "threshold": unlock.threshold, "unlocks": unlock.unlocks, "coach": name},
        }))
    for league_id, reached in by_league.items():
        events.emit(league_id=league_id, events=reached)


def mail_card_to_pick(fact: Recorded) -> None:
    """GB-13: the coach whose Moment the Longshanks confirmed picks their card."""
    notices.card_to_pick(fact.about["unlock"])


def mail_loan_requested(fact: Recorded) -> None:
    """GB-22: the lender accepts or refuses."""
    notices.loan_requested(fact.about["loan"])


def mail_loan_answered(fact: Recorded) -> None:
    """GB-22: the borrower hears the answer."""
    notices.loan_answered(fact.about["loan"])


def mail_offer_made(fact: Recorded) -> None:
    """GB-23: the card's owner hears of the offer."""
    notices.offer_made(fact.about["offer"])


def mail_offer_answered(fact: Recorded) -> None:
    """GB-23: the coach who made the offer hears the answer."""
    notices.offer_answered(fact.about["offer"])


def mail_card_traded(fact: Recorded) -> None:
    """GB-1, GB-23: the Longshanks hears of every card sold or swapped."""
    if fact.about["offer"].status == Status.ACCEPTED:
        notices.card_traded(fact.about["offer"])


FACTS = Facts(
    kinds={
        MOMENTS_REACHED: "Big League coaches reach Moments (GB-13)",
        MOMENT_CONFIRMED: "the Longshanks confirms a Moment; its coach picks a card (GB-13)",
        LOAN_REQUESTED: "a coach asks another to lend a model (GB-22)",
        LOAN_ANSWERED: "the lender accepts or refuses a loan (GB-22)",
        OFFER_MADE: "a coach offers to buy or swap a card (GB-23)",
        OFFER_ANSWERED: "the card's owner accepts or refuses an offer (GB-23)",
    },
    followers=(
        (MOMENTS_REACHED, "mail", mail_moments_reached),
        (MOMENTS_REACHED, "events", events_moments_reached),
        (MOMENT_CONFIRMED, "mail", mail_card_to_pick),
        (LOAN_REQUESTED, "mail", mail_loan_requested),
        (LOAN_ANSWERED, "mail", mail_loan_answered),
        (OFFER_MADE, "mail", mail_offer_made),
        (OFFER_ANSWERED, "mail", mail_offer_answered),
        (OFFER_ANSWERED, "mail to the Longshanks", mail_card_traded),
    ),
)
