"""Wheeling & Dealing (GB-19 to GB-24): sponsorships, Campaign Advancement, loans
and card offers. Everything that spends Favours locks the spender's
``CampaignCoach`` row first, so two requests at once cannot both pass the checks."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from campaigns import notices, rules
from campaigns.balances import favour_balance, spent_in_phase
from campaigns.guards import (
    lock_coach,
    lock_pair,
    require_open_phase,
    require_own,
    require_running,
    require_spend,
    same_campaign,
)
from campaigns.models import (
    CampaignCoach,
    CampaignPointLine,
    CardOffer,
    Deck,
    FavourLine,
    LineKind,
    Loan,
    OwnedCard,
    Sponsorship,
    SponsorshipPurchase,
    Status,
)
from campaigns.moments import sync_moments
from campaigns.phases import phase_for
from league.models import Result


def phase_share_note(coach: CampaignCoach, cost: int) -> str:
    """GB-19: what a request will take from the requester's 5 Favours of this
    phase once the other coach accepts, told when it is made."""
    phase = phase_for(coach)
    spent = spent_in_phase(coach, phase.number)
    left = rules.SPEND_LIMIT_PER_PHASE - spent - cost
    return (
        f"When it is accepted it takes {cost} of the {rules.SPEND_LIMIT_PER_PHASE} Favours you may spend this "
        f"Wheeling & Dealing phase (GB-19): you have spent {spent}, so {max(left, 0)} would be left. It is checked "
        f"again then, and closed if your Favours no longer cover it."
    )


@transaction.atomic
def buy_sponsorship(*, coach: CampaignCoach, sponsorship: Sponsorship, by) -> SponsorshipPurchase:
    """GB-21: 1 Favour, attached to the coach's next match, one copy of each."""
    coach = lock_coach(coach)
    require_own(coach, by)
    require_running(coach.campaign)
    phase = require_open_phase(coach)
    if phase.next_fixture is None:
        raise ValidationError("You have no League Match left to use a sponsorship in (GB-21).")
    held = coach.sponsorships.exclude(fixture__result__status=Result.Status.APPROVED).values_list(
        "sponsorship__name", flat=True
    )
    refusal = rules.check_sponsorship(name=sponsorship.name, held=held)
    if refusal:
        raise ValidationError(refusal)
    require_spend(coach, phase, rules.SPONSORSHIP_COST, f"The sponsorship {sponsorship.name}")
    purchase = SponsorshipPurchase.objects.create(coach=coach, sponsorship=sponsorship, fixture=phase.next_fixture)
    FavourLine.objects.create(
        coach=coach, amount=-rules.SPONSORSHIP_COST, kind=LineKind.SPONSORSHIP, phase=phase.number,
        sponsorship=purchase, created_by=by,
        reason=f"sponsorship {sponsorship.name} for {phase.next_fixture.round} (GB-21)",
    )
    return purchase


@transaction.atomic
def buy_advancement(*, coach: CampaignCoach, by) -> CampaignPointLine:
    """GB-24: 1 Favour buys +5 CP, once per Wheeling & Dealing phase."""
    coach = lock_coach(coach)
    require_own(coach, by)
    require_running(coach.campaign)
    phase = require_open_phase(coach)
    done = FavourLine.objects.filter(coach=coach, phase=phase.number, kind=LineKind.ADVANCEMENT).count()
    refusal = rules.check_advancement(advancements_in_phase=done)
    if refusal:
        raise ValidationError(refusal)
    require_spend(coach, phase, rules.ADVANCEMENT_COST, "Campaign Advancement")
    FavourLine.objects.create(
        coach=coach, amount=-rules.ADVANCEMENT_COST, kind=LineKind.ADVANCEMENT, phase=phase.number, created_by=by,
        reason=f"Campaign Advancement: +{rules.ADVANCEMENT_CP} CP (GB-24)",
    )
    line = CampaignPointLine.objects.create(
        coach=coach, amount=rules.ADVANCEMENT_CP, kind=LineKind.ADVANCEMENT, created_by=by,
        reason=f"Campaign Advancement for {rules.ADVANCEMENT_COST} Favour (GB-24)",
    )
    sync_moments(coach)
    return line


@transaction.atomic
def request_loan(*, borrower: CampaignCoach, lender: CampaignCoach, model_name: str, model_type: str, by) -> Loan:
    """GB-22: ask another coach to lend a model for your next League Match. The 3
    Favours move when the lender accepts; they are checked now as well."""
    borrower = lock_coach(borrower)
    require_own(borrower, by)
    same_campaign(borrower, lender)
    require_running(borrower.campaign)
    refusal = rules.check_loanable(model_type)
    if refusal:
        raise ValidationError(refusal)
    model_name = (model_name or "").strip()
    if not model_name:
        raise ValidationError("Name the model you want to borrow.")
    phase = require_open_phase(borrower)
    if phase.next_fixture is None:
        raise ValidationError("You have no League Match left to field a loaned model in (GB-22).")
    require_spend(borrower, phase, rules.LOAN_COST, "A loan")
    loan = Loan.objects.create(borrower=borrower, lender=lender, model_name=model_name, model_type=model_type)
    notices.loan_requested(loan)
    return loan


def _require_pending(deal, what: str) -> None:
    if deal.status != Status.PENDING:
        raise ValidationError(f"This {what} is already {deal.status}.")


def _answer(deal, *, status: str, what: str, extra_fields: tuple[str, ...] = ()) -> None:
    """Close a pending loan request or card offer (GB-22, GB-23) as accepted,
    refused or withdrawn; one that was already answered is refused."""
    _require_pending(deal, what)
    deal.status = status
    deal.answered_at = timezone.now()
    deal.save(update_fields=["status", "answered_at", *extra_fields])


def _close_by_rules(deal, *, reason: str, what: str, coaches: tuple[CampaignCoach, CampaignCoach]) -> None:
    """GB-20 Decision: a deal agreed earlier is checked again when it is answered;
    one the rules now refuse is closed (never left pending) and both coaches are
    told why."""
    deal.status = Status.CLOSED
    deal.closed_reason = reason[:300]
    deal.answered_at = timezone.now()
    deal.save(update_fields=["status", "closed_reason", "answered_at"])
    notices.tell(coaches, f"{what} could not go through and is closed: {reason}")


def _refusal(check) -> str | None:
    """The rules' refusal of ``check()`` as one message, None when it passes."""
    try:
        check()
    except ValidationError as exc:
        return " ".join(exc.messages)
    return None


@transaction.atomic
def answer_loan(*, loan: Loan, accept: bool, by) -> Loan:
    """GB-22: the lender accepts (borrower pays 3: 2 to the lender, 1 to the bank;
    the loan lasts the borrower's next match) or refuses. An accepted request the
    rules no longer allow (GB-19, GB-20) is closed and both coaches are told."""
    loan = Loan.objects.select_for_update(of=("self",)).select_related("borrower", "lender").get(pk=loan.pk)
    borrower, lender = lock_pair(loan.borrower, loan.lender)
    require_own(lender, by)
    if not accept:
        _answer(loan, status=Status.REFUSED, what="loan request")
        notices.loan_answered(loan)
        return loan
    _require_pending(loan, "loan request")
    found = {}

    def check() -> None:
        require_running(borrower.campaign)
        refusal = rules.check_loanable(loan.model_type)
        if refusal:
            raise ValidationError(refusal)
        phase = phase_for(borrower)
        if not phase.is_open:
            raise ValidationError(f"{borrower}'s Wheeling & Dealing is closed: {phase.closed_because}.")
        if phase.next_fixture is None:
            raise ValidationError(f"{borrower} has no League Match left to field the model in (GB-22).")
        refusal = rules.check_spend(
            balance=favour_balance(borrower), spent_in_phase=spent_in_phase(borrower, phase.number),
            cost=rules.LOAN_COST, what="The loan", who=str(borrower),
        )
        if refusal:
            raise ValidationError(refusal)
        found["phase"] = phase

    reason = _refusal(check)
    if reason:
        _close_by_rules(
            loan, reason=reason, what=f"{borrower}'s loan of {loan.model_name} from {lender}", coaches=(borrower, lender)
        )
        return loan
    phase = found["phase"]
    loan.fixture = phase.next_fixture
    _answer(loan, status=Status.ACCEPTED, what="loan request", extra_fields=("fixture",))
    FavourLine.objects.create(
        coach=borrower, amount=-rules.LOAN_COST, kind=LineKind.LOAN_FEE, phase=phase.number, loan=loan, created_by=by,
        reason=f"borrowed {loan.model_name} from {lender}: {rules.LOAN_TO_LENDER} to them, 1 to the bank (GB-22)",
    )
    FavourLine.objects.create(
        coach=lender, amount=rules.LOAN_TO_LENDER, kind=LineKind.LOAN_FEE, loan=loan, created_by=by,
        reason=f"lent {loan.model_name} to {borrower} (GB-22)",
    )
    notices.loan_answered(loan)
    return loan


@transaction.atomic
def withdraw_loan(*, loan: Loan, by) -> Loan:
    loan = Loan.objects.select_for_update(of=("self",)).select_related("borrower__entry__coach").get(pk=loan.pk)
    require_own(loan.borrower, by)
    _answer(loan, status=Status.WITHDRAWN, what="loan request")
    return loan


def _check_card_movable(card: OwnedCard, owner: CampaignCoach, receiver: CampaignCoach) -> None:
    if card.gone_at is not None or card.coach_id != owner.pk:
        raise ValidationError(f"{card.card} is no longer in {owner}'s pool.")
    if card.is_locked:
        raise ValidationError(f"{card.card} is {owner}'s starting pick and cannot change hands (GB-14).")
    if OwnedCard.objects.filter(coach=receiver, card_id=card.card_id, gone_at__isnull=True).exists():
        raise ValidationError(f"{receiver} already has {card.card} in their pool.")
    # Decision (GB-16, GB-17, GB-23): a card in a registered deck stays with its
    # owner until that match is approved, so it scores for one coach only.
    deck = (
        Deck.objects.filter(coach=owner, cards=card.card_id)
        .exclude(fixture__result__status=Result.Status.APPROVED)
        .select_related("fixture__round")
        .order_by("fixture__date")
        .first()
    )
    if deck is not None:
        raise ValidationError(
            f"{card.card} is in {owner}'s registered deck for {deck.fixture.round}: it can change hands once "
            f"that match's result is approved (GB-16, GB-23)."
        )


@transaction.atomic
def offer_purchase(*, buyer: CampaignCoach, wanted: OwnedCard, favours: int, by) -> CardOffer:
    """GB-23: offer 1 to 5 Favours for another coach's unlocked card."""
    buyer = lock_coach(buyer)
    require_own(buyer, by)
    seller = wanted.coach
    same_campaign(buyer, seller)
    require_running(buyer.campaign)
    refusal = rules.check_card_offer(favours)
    if refusal:
        raise ValidationError(refusal)
    _check_card_movable(wanted, seller, buyer)
    phase = require_open_phase(buyer)
    require_spend(buyer, phase, favours, f"Your offer for {wanted.card}")
    offer = CardOffer.objects.create(
        kind=CardOffer.Kind.PURCHASE, proposer=buyer, recipient=seller, wanted=wanted, favours=favours
    )
    notices.offer_made(offer)
    return offer


@transaction.atomic
def offer_swap(*, proposer: CampaignCoach, wanted: OwnedCard, offered: OwnedCard, by) -> CardOffer:
    """GB-23: propose a free swap of unlocked cards; the other coach accepts or not."""
    proposer = lock_coach(proposer)
    require_own(proposer, by)
    other = wanted.coach
    same_campaign(proposer, other)
    require_running(proposer.campaign)
    _check_card_movable(wanted, other, proposer)
    _check_card_movable(offered, proposer, other)
    offer = CardOffer.objects.create(
        kind=CardOffer.Kind.SWAP, proposer=proposer, recipient=other, wanted=wanted, offered=offered
    )
    notices.offer_made(offer)
    return offer


@transaction.atomic
def answer_offer(*, offer: CardOffer, accept: bool, by) -> CardOffer:
    """GB-23: the card's owner accepts or refuses. A sale moves the card to the buyer
    and the Favours to the seller (spent by the buyer, GB-19); a swap moves both.
    An accepted offer the rules no longer allow (a card now in a registered deck,
    Favours spent meanwhile: GB-19, GB-20) is closed and both coaches are told."""
    offer = CardOffer.objects.select_for_update(of=("self",)).select_related("proposer", "recipient").get(pk=offer.pk)
    proposer, recipient = lock_pair(offer.proposer, offer.recipient)
    require_own(recipient, by)
    if not accept:
        _answer(offer, status=Status.REFUSED, what="offer")
        notices.offer_answered(offer)
        return offer
    _require_pending(offer, "offer")
    wanted = OwnedCard.objects.select_for_update().select_related("card").get(pk=offer.wanted_id)
    offered = (
        OwnedCard.objects.select_for_update().select_related("card").get(pk=offer.offered_id)
        if offer.offered_id else None
    )
    found = {}

    def check() -> None:
        require_running(proposer.campaign)
        _check_card_movable(wanted, recipient, proposer)
        if offered is not None:
            _check_card_movable(offered, proposer, recipient)
        if offer.kind == CardOffer.Kind.PURCHASE:
            phase = phase_for(proposer)
            if not phase.is_open:
                raise ValidationError(f"{proposer}'s Wheeling & Dealing is closed: {phase.closed_because}.")
            refusal = rules.check_spend(
                balance=favour_balance(proposer), spent_in_phase=spent_in_phase(proposer, phase.number),
                cost=offer.favours, what="The offer", who=str(proposer),
            )
            if refusal:
                raise ValidationError(refusal)
            found["phase"] = phase

    reason = _refusal(check)
    if reason:
        _close_by_rules(offer, reason=reason, what=f"{proposer}'s offer for {wanted.card}", coaches=(proposer, recipient))
        return offer
    now = timezone.now()
    if offer.kind == CardOffer.Kind.PURCHASE:
        FavourLine.objects.create(
            coach=proposer, amount=-offer.favours, kind=LineKind.CARD_SALE, phase=found["phase"].number, offer=offer,
            created_by=by, reason=f"bought {wanted.card} from {recipient} (GB-23)",
        )
        FavourLine.objects.create(
            coach=recipient, amount=offer.favours, kind=LineKind.CARD_SALE, offer=offer, created_by=by,
            reason=f"sold {wanted.card} to {proposer} (GB-23)",
        )
        _move(wanted, proposer, OwnedCard.Source.BOUGHT, now)
    else:
        _move(wanted, proposer, OwnedCard.Source.SWAPPED, now)
        _move(offered, recipient, OwnedCard.Source.SWAPPED, now)
    _answer(offer, status=Status.ACCEPTED, what="offer")
    notices.offer_answered(offer)
    return offer


def _move(card: OwnedCard, to: CampaignCoach, source: str, now) -> None:
    card.gone_at = now
    card.save(update_fields=["gone_at"])
    OwnedCard.objects.create(coach=to, card_id=card.card_id, source=source, acquired_at=now)


@transaction.atomic
def withdraw_offer(*, offer: CardOffer, by) -> CardOffer:
    offer = CardOffer.objects.select_for_update(of=("self",)).select_related("proposer__entry__coach").get(pk=offer.pk)
    require_own(offer.proposer, by)
    _answer(offer, status=Status.WITHDRAWN, what="offer")
    return offer
