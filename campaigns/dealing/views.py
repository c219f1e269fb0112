"""The Big League: Wheeling & Dealing from a coach's page: sponsorships,
advancements, loans and card offers, and answering them (GB-19 to GB-24)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.views.decorators.http import require_POST

from campaigns import rules
from campaigns.dealing import forms
from campaigns.dealing import services as dealing
from campaigns.models import CardOffer, Loan, Status
from campaigns.web.views import Ask, _campaign, _coach_action, _me


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
    def ask(cc):
        refusal = dealing.advancement_refusal(cc)
        if refusal:
            raise ValidationError(refusal)
        return Ask(
            "Buy Campaign Advancement?",
            f"It spends {rules.ADVANCEMENT_COST} Favour for +{rules.ADVANCEMENT_CP} CP, once per Wheeling & Dealing "
            f"phase. A Favour spent is not given back.",
            f"Yes, buy +{rules.ADVANCEMENT_CP} CP",
        )

    def act(cc, form):
        dealing.buy_advancement(coach=cc, by=request.user)
        return f"Campaign Advancement bought: +{rules.ADVANCEMENT_CP} CP."

    return _coach_action(request, slug, "advancement", None, act, ask=ask)


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


def _answer_deal(
    request, slug, queryset, pk, *, what, section, answerer, withdraw, answer, refusal, question, done
) -> HttpResponse:
    """Accept, refuse or withdraw a pending loan request or card offer that the
    logged-in coach is party to (GB-22, GB-23), after a confirmation step.
    An acceptance the rules refuse now (GB-20) is refused with the reason,
    in the error style, and the deal stays pending: ``refusal(deal)``
    says why before anyone is asked; ``question(action, deal)`` words the step and
    ``done(action, deal)`` the success message. ``answerer(deal)`` is the id of the
    coach who accepts or refuses; the other one may only withdraw."""
    campaign = _campaign(slug)
    me = _me(request, campaign)
    if me.pk is None:
        raise Http404("No such loan request or offer.")
    deal = get_object_or_404(queryset(me), pk=pk)
    action = request.POST.get("action")
    if action not in {"accept", "refuse", "withdraw"}:
        return HttpResponse("Unknown action.", status=400)

    def ask(cc):
        if (action == "withdraw") == (answerer(deal) == me.pk):
            raise PermissionDenied("Only the coach themself can do this.")
        if deal.status != Status.PENDING:
            raise ValidationError(f"This is already {deal.get_status_display()}.")
        reason = refusal(deal, campaign.is_over) if action == "accept" else None
        if reason:
            raise ValidationError(dealing.acceptance_refused(reason, what))
        return question(action, deal)

    def act(cc, form):
        answered = withdraw(deal) if action == "withdraw" else answer(deal, action == "accept")
        return done(action, answered)

    return _coach_action(request, slug, section, None, act, ask=ask)


def _acceptance_refusal(kind: str, deal, campaign_over: bool) -> str | None:
    loans, offers = ([deal], []) if kind == "loan" else ([], [deal])
    refusals, _ = dealing.acceptance_refusals(loans=loans, offers=offers, campaign_over=campaign_over)
    return refusals.get((kind, deal.pk))


def _loan_question(action: str, loan: Loan) -> Ask:
    if action == "accept":
        return Ask(
            f"Lend {loan.model_name} to {loan.borrower}?",
            f"{loan.borrower} pays {rules.LOAN_COST} Favours: {rules.LOAN_TO_LENDER} to you, the rest to the bank, and "
            f"you may not field {loan.model_name} in their next League Match. It cannot be undone.",
            "Yes, accept",
        )
    if action == "refuse":
        return Ask(
            f"Refuse {loan.borrower}'s request to borrow {loan.model_name}?",
            "The request is closed for good; they may ask again.", "Yes, refuse",
        )
    return Ask(
        f"Withdraw your request to borrow {loan.model_name} from {loan.lender}?",
        "The request is closed for good; you may ask again.", "Yes, withdraw",
    )


def _offer_question(action: str, offer: CardOffer) -> Ask:
    if action == "accept":
        if offer.kind == CardOffer.Kind.PURCHASE:
            moves = f"{offer.wanted.card} moves to {offer.proposer}'s pool and {offer.favours} Favours to you"
        else:
            moves = f"{offer.wanted.card} moves to {offer.proposer}'s pool and {offer.offered.card} to yours"
        return Ask(f"Accept: {offer}?", f"{moves}. It cannot be undone.", "Yes, accept")
    if action == "refuse":
        return Ask(f"Refuse: {offer}?", "The offer is closed for good; they may offer again.", "Yes, refuse")
    return Ask(f"Withdraw your offer for {offer.wanted.card}?", "The offer is closed for good.", "Yes, withdraw")


_PAST = {"accept": "accepted", "refuse": "refused", "withdraw": "withdrawn"}


@login_required
@require_POST
def answer_loan(request: HttpRequest, slug: str, loan_id: int) -> HttpResponse:
    return _answer_deal(
        request, slug,
        lambda me: Loan.objects.filter(Q(borrower=me) | Q(lender=me)).select_related(
            "borrower__entry__coach", "lender__entry__coach"
        ),
        loan_id,
        what="loan request",
        section="loans",
        answerer=lambda loan: loan.lender_id,
        withdraw=lambda loan: dealing.withdraw_loan(loan=loan, by=request.user),
        answer=lambda loan, accept: dealing.answer_loan(loan=loan, accept=accept, by=request.user),
        refusal=lambda loan, over: _acceptance_refusal("loan", loan, over),
        question=_loan_question,
        done=lambda action, loan: (
            "Loan request withdrawn." if action == "withdraw" else f"Loan of {loan.model_name} {_PAST[action]}."
        ),
    )


@login_required
@require_POST
def answer_offer(request: HttpRequest, slug: str, offer_id: int) -> HttpResponse:
    return _answer_deal(
        request, slug,
        lambda me: CardOffer.objects.filter(Q(proposer=me) | Q(recipient=me)).select_related(
            "proposer__entry__coach", "recipient__entry__coach", "wanted__card", "offered__card"
        ),
        offer_id,
        what="offer",
        section="offers",
        answerer=lambda offer: offer.recipient_id,
        withdraw=lambda offer: dealing.withdraw_offer(offer=offer, by=request.user),
        answer=lambda offer, accept: dealing.answer_offer(offer=offer, accept=accept, by=request.user),
        refusal=lambda offer, over: _acceptance_refusal("offer", offer, over),
        question=_offer_question,
        done=lambda action, offer: f"Offer {_PAST[action]}.",
    )