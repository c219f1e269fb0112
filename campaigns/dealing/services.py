"""Wheeling & Dealing (GB-19 to GB-24): sponsorships, Campaign Advancement, loans
and card offers. Everything that spends Favours locks the spender's
``CampaignCoach`` row first, so two requests at once cannot both pass the checks."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Sum
from django.utils import timezone

from campaigns import rules
from campaigns.ledgers.balances import favour_balance, spent_in_phase
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
from campaigns.moments.services import sync_moments
from campaigns.dealing.phases import phase_for, phases_for
from league.facts.recording import happened
from league.models import Result

# What Wheeling & Dealing's writes record (league/facts/): the loan's or the offer's
# own row keeps each, and the Big League's declaration names who follows them.
LOAN_REQUESTED = "campaigns.loan_requested"  # GB-22
LOAN_ANSWERED = "campaigns.loan_answered"  # GB-22
OFFER_MADE = "campaigns.offer_made"  # GB-23
OFFER_ANSWERED = "campaigns.offer_answered"  # GB-23: a card sold or swapped when accepted


def _loan(kind: str, loan: Loan, by) -> None:
    happened(kind, rows=[loan], by=by, league_id=None, loan=loan)  # its mail needs no league


def _offer(kind: str, offer: CardOffer, by) -> None:
    happened(kind, rows=[offer], by=by, league_id=None, offer=offer)  # its mail needs no league


def phase_share_note(coach: CampaignCoach, cost: int) -> str:
    """GB-19: what a request will take from the requester's 5 Favours of this
    phase once the other coach accepts, told when it is made."""
    phase = phase_for(coach)
    spent = spent_in_phase(coach, phase.number)
    left = rules.SPEND_LIMIT_PER_PHASE - spent - cost
    return (
        f"When it is accepted it takes {cost} of the {rules.SPEND_LIMIT_PER_PHASE} Favours you may spend this "
        f"Wheeling & Dealing phase: you have spent {spent}, so {max(left, 0)} would be left. It is checked "
        f"again then, and closed if your Favours no longer cover it."
    )


# What each of the coach's own spends costs, what it is called, and the refusal
# when they have no League Match left to use it in.
_SPENDS = {
    "sponsorship": (rules.SPONSORSHIP_COST, "A sponsorship", "You have no League Match left to use a sponsorship in."),
    "advancement": (rules.ADVANCEMENT_COST, "Campaign Advancement", None),
    "loan": (rules.LOAN_COST, "A loan", "You have no League Match left to field a loaned model in."),
}


def spending_refusal(action: str, *, phase, lines, what: str | None = None) -> str | None:
    """GB-19 to GB-24: why the coach's own ``action`` ("sponsorship", "advancement",
    "loan") cannot go through now, from their Favour lines (``amount``, ``phase``,
    ``kind``); None when it can. The service refuses with it and the coach's page
    disables the action and says why, from the lines it shows."""
    cost, default_what, no_match = _SPENDS[action]
    if not phase.is_open:
        return f"Wheeling & Dealing is closed: {phase.closed_because}."
    if no_match and phase.next_fixture is None:
        return no_match
    this_phase = [line for line in lines if line.phase == phase.number]
    if action == "advancement":
        done = sum(1 for line in this_phase if line.kind == LineKind.ADVANCEMENT)
        refusal = rules.check_advancement(advancements_in_phase=done)
        if refusal:
            return refusal
    return rules.check_spend(
        balance=sum(line.amount for line in lines), spent_in_phase=-sum(line.amount for line in this_phase),
        cost=cost, what=what or default_what,
    )


def _refuse_spend(action: str, coach: CampaignCoach, *, what: str | None = None):
    """The coach's phase, or the ValidationError saying why ``action`` is refused."""
    phase = phase_for(coach)
    lines = FavourLine.objects.filter(coach=coach).only("amount", "phase", "kind")
    refusal = spending_refusal(action, phase=phase, lines=list(lines), what=what)
    if refusal:
        raise ValidationError(refusal)
    return phase


def advancement_refusal(coach: CampaignCoach) -> str | None:
    """Why ``buy_advancement`` would refuse now (reads only): the confirmation step
    asks only about a purchase that can go through."""
    try:
        require_running(coach.campaign)
        _refuse_spend("advancement", coach)
    except ValidationError as exc:
        return " ".join(exc.messages)
    return None


@transaction.atomic
def buy_sponsorship(*, coach: CampaignCoach, sponsorship: Sponsorship, by) -> SponsorshipPurchase:
    """GB-21: 1 Favour, attached to the coach's next match, one copy of each."""
    coach = lock_coach(coach)
    require_own(coach, by)
    require_running(coach.campaign)
    phase = _refuse_spend("sponsorship", coach, what=f"The sponsorship {sponsorship.name}")
    held = (
        coach.sponsorships.filter(fixture__isnull=False)  # a cancelled one (LG-5) is held no more
        .exclude(fixture__result__status=Result.Status.APPROVED).values_list("sponsorship__name", flat=True)
    )
    refusal = rules.check_sponsorship(name=sponsorship.name, held=held)
    if refusal:
        raise ValidationError(refusal)
    purchase = SponsorshipPurchase.objects.create(coach=coach, sponsorship=sponsorship, fixture=phase.next_fixture)
    FavourLine.objects.create(
        coach=coach, amount=-rules.SPONSORSHIP_COST, kind=LineKind.SPONSORSHIP, phase=phase.number,
        sponsorship=purchase, created_by=by,
        reason=f"sponsorship {sponsorship.name} for {phase.next_fixture.round}",
    )
    return purchase


@transaction.atomic
def buy_advancement(*, coach: CampaignCoach, by) -> CampaignPointLine:
    """GB-24: 1 Favour buys +5 CP, once per Wheeling & Dealing phase."""
    coach = lock_coach(coach)
    require_own(coach, by)
    require_running(coach.campaign)
    phase = _refuse_spend("advancement", coach)
    FavourLine.objects.create(
        coach=coach, amount=-rules.ADVANCEMENT_COST, kind=LineKind.ADVANCEMENT, phase=phase.number, created_by=by,
        reason=f"Campaign Advancement: +{rules.ADVANCEMENT_CP} CP",
    )
    line = CampaignPointLine.objects.create(
        coach=coach, amount=rules.ADVANCEMENT_CP, kind=LineKind.ADVANCEMENT, created_by=by,
        reason=f"Campaign Advancement for {rules.ADVANCEMENT_COST} Favour",
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
    _refuse_spend("loan", borrower)
    loan = Loan.objects.create(borrower=borrower, lender=lender, model_name=model_name, model_type=model_type)
    _loan(LOAN_REQUESTED, loan, by)
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


def _payers(coaches: list[CampaignCoach], *, campaign_over: bool) -> dict[int, tuple]:
    """By coach id: (phase, balance, spent in that phase) for the coaches who pay
    for pending deals, in three queries (their phases, their Favours by phase)."""
    phases = phases_for(coaches, campaign_over=campaign_over)
    balance: dict[int, int] = {cc.pk: 0 for cc in coaches}
    by_phase: dict[tuple[int, int | None], int] = {}
    for row in FavourLine.objects.filter(coach_id__in=balance).values("coach_id", "phase").annotate(total=Sum("amount")):
        balance[row["coach_id"]] += row["total"]
        by_phase[row["coach_id"], row["phase"]] = row["total"]
    return {
        pk: (phase, balance[pk], -by_phase.get((pk, phase.number), 0)) for pk, phase in phases.items()
    }


def _payer_refusal(payer: CampaignCoach, facts: tuple, cost: int, what: str) -> str | None:
    """GB-19, GB-20 when a deal is answered: the paying coach's Wheeling & Dealing
    phase is open and they still have the Favours and the phase's allowance for it
    (the message names them: both coaches read it)."""
    phase, balance, spent = facts
    if not phase.is_open:
        return f"{payer}'s Wheeling & Dealing is closed: {phase.closed_because}."
    return rules.check_spend(balance=balance, spent_in_phase=spent, cost=cost, what=what, who=str(payer))


def acceptance_refusals(*, loans=(), offers=(), campaign_over: bool) -> tuple[dict[tuple[str, int], str], dict]:
    """GB-20 Decision: why each pending loan request or card offer cannot be
    accepted now, by ("loan" | "offer", id); a deal that can go through has no
    entry. The answer services refuse with it (and the deal stays pending: a
    refusal never destroys what was refused), the coach's page
    disables Accept and shows both coaches why. Five queries whatever the number
    of deals. Also returns the payers' facts (phase, balance, spent) by coach id."""
    loans, offers = list(loans), list(offers)
    if campaign_over:
        reason = "The Final Day has been declared: this campaign is over."
        return {**{("loan", x.pk): reason for x in loans}, **{("offer", x.pk): reason for x in offers}}, {}
    payers = {x.borrower.pk: x.borrower for x in loans} | {
        x.proposer.pk: x.proposer for x in offers if x.kind == CardOffer.Kind.PURCHASE
    }
    facts = _payers(list(payers.values()), campaign_over=False) if payers else {}
    moves = [(x.wanted, x.recipient, x.proposer) for x in offers]
    moves += [(x.offered, x.proposer, x.recipient) for x in offers if x.offered_id]
    cards = dict(zip([(c.pk, o.pk, r.pk) for c, o, r in moves], _card_refusals(moves)))
    found: dict[tuple[str, int], str] = {}
    for loan in loans:
        phase = facts[loan.borrower.pk][0]
        reason = rules.check_loanable(loan.model_type)
        if reason is None and phase.is_open and phase.next_fixture is None:
            reason = f"{loan.borrower} has no League Match left to field the model in."
        reason = reason or _payer_refusal(loan.borrower, facts[loan.borrower.pk], rules.LOAN_COST, "The loan")
        if reason:
            found["loan", loan.pk] = reason
    for offer in offers:
        reason = cards[offer.wanted.pk, offer.recipient.pk, offer.proposer.pk] or (
            cards[offer.offered.pk, offer.proposer.pk, offer.recipient.pk] if offer.offered_id else None
        )
        if reason is None and offer.kind == CardOffer.Kind.PURCHASE:
            reason = _payer_refusal(offer.proposer, facts[offer.proposer.pk], offer.favours, "The offer")
        if reason:
            found["offer", offer.pk] = reason
    return found, facts


def acceptance_refused(reason: str, what: str) -> str:
    """The refusal of an acceptance, which destroys nothing."""
    return f"This {what} cannot be accepted now: {reason} It stays pending: accept it once it can go through, or refuse it."


@transaction.atomic
def answer_loan(*, loan: Loan, accept: bool, by) -> Loan:
    """GB-22: the lender accepts (borrower pays 3: 2 to the lender, 1 to the bank;
    the loan lasts the borrower's next match) or refuses. Accepting a request the
    rules no longer allow (GB-19, GB-20) is refused with the reason and the request
    stays pending; both coaches' pages say why."""
    loan = Loan.objects.select_for_update(of=("self",)).select_related("borrower", "lender").get(pk=loan.pk)
    borrower, lender = lock_pair(loan.borrower, loan.lender)
    require_own(lender, by)
    if not accept:
        _answer(loan, status=Status.REFUSED, what="loan request")
        _loan(LOAN_ANSWERED, loan, by)
        return loan
    _require_pending(loan, "loan request")
    loan.borrower, loan.lender = borrower, lender
    refusals, facts = acceptance_refusals(loans=[loan], campaign_over=borrower.campaign.is_over)
    if ("loan", loan.pk) in refusals:
        raise ValidationError(acceptance_refused(refusals["loan", loan.pk], "loan request"))
    phase = facts[borrower.pk][0]
    loan.fixture = phase.next_fixture
    _answer(loan, status=Status.ACCEPTED, what="loan request", extra_fields=("fixture",))
    FavourLine.objects.create(
        coach=borrower, amount=-rules.LOAN_COST, kind=LineKind.LOAN_FEE, phase=phase.number, loan=loan, created_by=by,
        reason=f"borrowed {loan.model_name} from {lender}: {rules.LOAN_TO_LENDER} to them, 1 to the bank",
    )
    FavourLine.objects.create(
        coach=lender, amount=rules.LOAN_TO_LENDER, kind=LineKind.LOAN_FEE, loan=loan, created_by=by,
        reason=f"lent {loan.model_name} to {borrower}",
    )
    _loan(LOAN_ANSWERED, loan, by)
    return loan


@transaction.atomic
def withdraw_loan(*, loan: Loan, by) -> Loan:
    loan = Loan.objects.select_for_update(of=("self",)).select_related("borrower__entry__coach").get(pk=loan.pk)
    require_own(loan.borrower, by)
    _answer(loan, status=Status.WITHDRAWN, what="loan request")
    return loan


def _card_refusal(card: OwnedCard, owner: CampaignCoach, receiver: CampaignCoach, *, receiver_holds: bool,
                  deck: Deck | None) -> str | None:
    """GB-14, GB-23: why ``card`` cannot move from ``owner`` to ``receiver`` now."""
    if card.gone_at is not None or card.coach_id != owner.pk:
        return f"{card.card} is no longer in {owner}'s pool."
    if card.is_locked:
        return f"{card.card} is {owner}'s starting pick and cannot change hands."
    if receiver_holds:
        return f"{receiver} already has {card.card} in their pool."
    # Decision (GB-16, GB-17, GB-23): a card in a registered deck stays with its
    # owner until that match is approved, so it scores for one coach only.
    if deck is not None:
        return (
            f"{card.card} is in {owner}'s registered deck for {deck.fixture.round}: it can change hands once "
            f"that match's result is approved."
        )
    return None


def _card_refusals(moves: list[tuple[OwnedCard, CampaignCoach, CampaignCoach]]) -> list[str | None]:
    """``_card_refusal`` for each (card, owner, receiver), in two queries whatever
    their number: the receivers' pools and the owners' decks not yet approved."""
    if not moves:
        return []
    card_ids = {card.card_id for card, _, _ in moves}
    held = set(
        OwnedCard.objects.filter(
            coach_id__in={r.pk for _, _, r in moves}, card_id__in=card_ids, gone_at__isnull=True
        ).values_list("coach_id", "card_id")
    )
    decks: dict[tuple[int, int], Deck] = {}
    for row in (
        Deck.cards.through.objects.filter(deck__coach_id__in={o.pk for _, o, _ in moves}, plotcard_id__in=card_ids)
        .exclude(deck__fixture__result__status=Result.Status.APPROVED)
        .select_related("deck__fixture__round")
        .order_by("deck__fixture__date", "deck_id")
    ):
        decks.setdefault((row.deck.coach_id, row.plotcard_id), row.deck)
    return [
        _card_refusal(
            card, owner, receiver,
            receiver_holds=(receiver.pk, card.card_id) in held, deck=decks.get((owner.pk, card.card_id)),
        )
        for card, owner, receiver in moves
    ]


def _check_card_movable(card: OwnedCard, owner: CampaignCoach, receiver: CampaignCoach) -> None:
    (refusal,) = _card_refusals([(card, owner, receiver)])
    if refusal:
        raise ValidationError(refusal)


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
    _offer(OFFER_MADE, offer, by)
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
    _offer(OFFER_MADE, offer, by)
    return offer


@transaction.atomic
def answer_offer(*, offer: CardOffer, accept: bool, by) -> CardOffer:
    """GB-23: the card's owner accepts or refuses. A sale moves the card to the buyer
    and the Favours to the seller (spent by the buyer, GB-19); a swap moves both,
    and the Longshanks is told of either (GB-1).
    Accepting an offer the rules no longer allow (a card now in a registered deck,
    Favours spent meanwhile: GB-19, GB-20) is refused with the reason and the offer
    stays pending; both coaches' pages say why."""
    offer = CardOffer.objects.select_for_update(of=("self",)).select_related("proposer", "recipient").get(pk=offer.pk)
    proposer, recipient = lock_pair(offer.proposer, offer.recipient)
    require_own(recipient, by)
    if not accept:
        _answer(offer, status=Status.REFUSED, what="offer")
        _offer(OFFER_ANSWERED, offer, by)
        return offer
    _require_pending(offer, "offer")
    wanted = OwnedCard.objects.select_for_update(of=("self",)).select_related("card").get(pk=offer.wanted_id)
    offered = (
        OwnedCard.objects.select_for_update(of=("self",)).select_related("card").get(pk=offer.offered_id)
        if offer.offered_id else None
    )
    offer.proposer, offer.recipient, offer.wanted, offer.offered = proposer, recipient, wanted, offered
    refusals, facts = acceptance_refusals(offers=[offer], campaign_over=proposer.campaign.is_over)
    if ("offer", offer.pk) in refusals:
        raise ValidationError(acceptance_refused(refusals["offer", offer.pk], "offer"))
    now = timezone.now()
    if offer.kind == CardOffer.Kind.PURCHASE:
        FavourLine.objects.create(
            coach=proposer, amount=-offer.favours, kind=LineKind.CARD_SALE, phase=facts[proposer.pk][0].number, offer=offer,
            created_by=by, reason=f"bought {wanted.card} from {recipient}",
        )
        FavourLine.objects.create(
            coach=recipient, amount=offer.favours, kind=LineKind.CARD_SALE, offer=offer, created_by=by,
            reason=f"sold {wanted.card} to {proposer}",
        )
        _move(wanted, proposer, OwnedCard.Source.BOUGHT, now)
    else:
        _move(wanted, proposer, OwnedCard.Source.SWAPPED, now)
        _move(offered, recipient, OwnedCard.Source.SWAPPED, now)
    _answer(offer, status=Status.ACCEPTED, what="offer")
    _offer(OFFER_ANSWERED, offer, by)
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
