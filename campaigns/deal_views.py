"""The Big League: Wheeling & Dealing from a coach's page: sponsorships,
advancements, loans and card offers, and answering them (GB-19 to GB-24)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.views.decorators.http import require_POST

from campaigns import dealing, forms, rules
from campaigns.models import CardOffer, Loan, Status
from campaigns.views import _campaign, _coach_action, _me



@login_required
@require_POST
def buy_sponsorship(request: HttpRequest, slug: str) -> HttpResponse:
    def act(cc, form):
        purchase = dealing.buy_sponsorship(coach=cc, sponsorship=form.cleaned_data["sponsorship"], by=request.user)
        return f"Sponsorship {purchase.sponsorship} bought for {purchase.fixture.round}."

    return _coach_action(request, slug, "sponsorship", lambda cc: forms.SponsorshipForm(request.POST), act)


@login_required
@require_POST
def buy_advancement(request: HttpRequest, slug: str) -> HttpResponse:
    def act(cc, form):
        dealing.buy_advancement(coach=cc, by=request.user)
        return "Campaign Advancement bought: +5 CP (GB-24)."

    return _coach_action(request, slug, "advancement", None, act)


@login_required
@require_POST
def request_loan(request: HttpRequest, slug: str) -> HttpResponse:
    def act(cc, form):
        loan = dealing.request_loan(
            borrower=cc, lender=form.cleaned_data["lender"], model_name=form.cleaned_data["model_name"],
            model_type=form.cleaned_data["model_type"], by=request.user,
        )
        return f"Loan of {loan.model_name} requested from {loan.lender}. {dealing.phase_share_note(cc, rules.LOAN_COST)}"

    return _coach_action(request, slug, "loan", lambda cc: forms.LoanForm(request.POST, coach=cc), act)


@login_required
@require_POST
def make_offer(request: HttpRequest, slug: str) -> HttpResponse:
    def act(cc, form):
        data = form.cleaned_data
        if data["kind"] == CardOffer.Kind.PURCHASE:
            offer = dealing.offer_purchase(buyer=cc, wanted=data["wanted"], favours=data["favours"], by=request.user)
            return f"Offer sent to {offer.recipient}. {dealing.phase_share_note(cc, offer.favours)}"
        offer = dealing.offer_swap(proposer=cc, wanted=data["wanted"], offered=data["offered"], by=request.user)
        return f"Offer sent to {offer.recipient}."

    return _coach_action(request, slug, "offer", lambda cc: forms.OfferForm(request.POST, coach=cc), act)


def _answer_deal(request, slug, queryset, pk, *, section, withdraw, answer, done) -> HttpResponse:
    """Accept, refuse or withdraw a pending loan request or card offer that the
    logged-in coach is party to (GB-22, GB-23); ``done(action, deal)`` words the
    success message."""
    me = _me(request, _campaign(slug))
    if me.pk is None:
        raise Http404("No such loan request or offer.")
    deal = get_object_or_404(queryset(me), pk=pk)
    action = request.POST.get("action")
    if action not in {"accept", "refuse", "withdraw"}:
        return HttpResponse("Unknown action.", status=400)

    def act(cc, form):
        answered = withdraw(deal) if action == "withdraw" else answer(deal, action == "accept")
        if answered.status == Status.CLOSED:  # GB-20: the rules closed it; both coaches were told
            return f"It could not go through and is now closed: {answered.closed_reason}"
        return done(action, answered)

    return _coach_action(request, slug, section, None, act)


_PAST = {"accept": "accepted", "refuse": "refused", "withdraw": "withdrawn"}


@login_required
@require_POST
def answer_loan(request: HttpRequest, slug: str, loan_id: int) -> HttpResponse:
    return _answer_deal(
        request, slug, lambda me: Loan.objects.filter(Q(borrower=me) | Q(lender=me)), loan_id,
        section="loans",
        withdraw=lambda loan: dealing.withdraw_loan(loan=loan, by=request.user),
        answer=lambda loan, accept: dealing.answer_loan(loan=loan, accept=accept, by=request.user),
        done=lambda action, loan: (
            "Loan request withdrawn." if action == "withdraw" else f"Loan of {loan.model_name} {_PAST[action]}."
        ),
    )


@login_required
@require_POST
def answer_offer(request: HttpRequest, slug: str, offer_id: int) -> HttpResponse:
    return _answer_deal(
        request, slug, lambda me: CardOffer.objects.filter(Q(proposer=me) | Q(recipient=me)), offer_id,
        section="offers",
        withdraw=lambda offer: dealing.withdraw_offer(offer=offer, by=request.user),
        answer=lambda offer, accept: dealing.answer_offer(offer=offer, accept=accept, by=request.user),
        done=lambda action, offer: f"Offer {_PAST[action]}.",
    )