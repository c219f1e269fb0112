"""LG-5 Decision: a sponsorship or a loan bought for a fixture that a withdrawal
cancels (LG-2: it stays, not played) or a re-generation of fixtures removes is
cancelled, and every Favour it moved goes back (a sponsorship's 1 to its buyer; a
loan's 3 to the borrower, 2 of them from the lender and 1 from the council) as
lines reversing the deal's own, naming why.
A balance this leaves below zero is a debt, as after a correction (GB-20).

The engine asks through its layer hooks (``league.layers.held_by_fixtures`` for
the confirmation page, ``release_fixtures`` inside the change's transaction,
before the fixtures are marked cancelled or deleted): the rows stay, without their
fixture, so the ledger lines that point at them keep their cause."""

from __future__ import annotations

from django.db.models import Q

from campaigns import rules
from campaigns.ledgers.services import insert_lines, reversals
from campaigns.models import FavourLine, Loan, SponsorshipPurchase, Status
from league.caching import writes


def _deals(fixtures) -> tuple[list[SponsorshipPurchase], list[Loan]]:
    """The sponsorships and the loans attached to ``fixtures``, two queries."""
    match = ("fixture__round", "fixture__home__coach", "fixture__away__coach")
    sponsorships = list(
        SponsorshipPurchase.objects.filter(fixture__in=fixtures)
        .select_related("sponsorship", "coach__entry__coach", *match).order_by("pk")
    )
    loans = list(
        Loan.objects.filter(fixture__in=fixtures)
        .select_related("borrower__entry__coach", "lender__entry__coach", *match).order_by("pk")
    )
    return sponsorships, loans


def _sponsorship_text(purchase: SponsorshipPurchase) -> str:
    return (f"{purchase.coach}'s sponsorship {purchase.sponsorship} for {purchase.fixture}: "
            f"{rules.SPONSORSHIP_COST} Favour back to {purchase.coach}")


def _loan_text(loan: Loan) -> str:
    return (f"{loan.borrower}'s loan of {loan.model_name} from {loan.lender} for {loan.fixture}: "
            f"{rules.LOAN_COST} Favours back to {loan.borrower}, {rules.LOAN_TO_LENDER} of them from {loan.lender} "
            f"and {rules.LOAN_COST - rules.LOAN_TO_LENDER} from the council")


def held_by_fixtures(fixtures) -> list[str]:
    """The Layer hook: what a change removing ``fixtures`` cancels, a sentence each."""
    sponsorships, loans = _deals(fixtures)
    return [*map(_sponsorship_text, sponsorships), *map(_loan_text, loans)]


def release_fixtures(fixtures, *, why: str, by) -> None:
    """The Layer hook, inside the engine's transaction before ``fixtures`` are
    cancelled or deleted: each deal on them loses its fixture, is marked cancelled with
    ``why``, and its active Favour lines are reversed (one insert)."""
    sponsorships, loans = _deals(fixtures)
    if not sponsorships and not loans:
        return
    lines = FavourLine.objects.filter(
        Q(sponsorship__in=sponsorships) | Q(loan__in=loans), reverses__isnull=True, reversed_by__isnull=True,
    ).order_by("pk")
    rows = reversals(lines, f"cancelled, {why}")
    for row in rows:
        row["created_by_id"] = by.pk if by is not None else None
    insert_lines(FavourLine, rows)
    for purchase in sponsorships:
        purchase.cancelled_reason = f"Cancelled: it was for {purchase.fixture}; {why}"[:300]
        purchase.fixture = None
        purchase.save(update_fields=["fixture", "cancelled_reason"])
    for loan in loans:
        loan.closed_reason = f"Cancelled: it was for {loan.fixture}; {why}"[:300]
        loan.fixture = None
        loan.status = Status.CLOSED
        loan.save(update_fields=["fixture", "status", "closed_reason"])
    coaches = {p.coach_id for p in sponsorships} | {x.borrower_id for x in loans} | {x.lender_id for x in loans}
    writes.changed(Q(campaign__coaches__pk__in=coaches))  # the raw insert sends no signals
