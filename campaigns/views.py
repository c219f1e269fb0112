"""The Big League pages: public campaign table and feed, each coach's campaign page
and each fixture's campaign page, and the POST endpoints behind their forms.

Views are thin: a permission helper returns the object or raises 404/403, the
form cleans, the service decides. A refused action re-renders the page with the
refusal on the form that caused it (status 400) and writes nothing.
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST
from django_tables2 import RequestConfig

from campaigns import forms, selectors, services
from campaigns.models import (
    Achievement,
    Campaign,
    CampaignCoach,
    CampaignPointEntry,
    CardOffer,
    Deck,
    FavourEntry,
    Loan,
    MomentUnlock,
    PlotCard,
    SponsorshipPurchase,
    Status,
)
from campaigns.rules import moments_reached
from campaigns.tables import CampaignTable
from league.models import Fixture, League, Season
from league.permissions import coach_for

# Lookups and permissions --------------------------------------------------------


def _campaign(slug: str) -> Campaign:
    """The league's current season as a campaign (404 for other games or no season)."""
    league = get_object_or_404(League, slug=slug, game_system="guildball")
    season = Season.objects.filter(league=league).select_related("league").first()
    if season is None:
        raise Http404("This league has no season yet.")
    campaign = services.ensure_campaign(season)
    campaign.season = season
    return campaign


def _coach_in(campaign: Campaign, coach_id: int) -> CampaignCoach:
    cc = (
        CampaignCoach.objects.select_related("entry__coach", "guild")
        .filter(campaign=campaign, entry__coach_id=coach_id)
        .first()
    )
    if cc is None:
        raise Http404("That coach is not in this campaign.")
    cc.campaign = campaign
    return cc


def _me(request: HttpRequest, campaign: Campaign) -> CampaignCoach:
    """The logged-in user's own row in the campaign; 403 for anyone else."""
    coach = coach_for(request.user)
    if coach is None:
        raise PermissionDenied("You are not a coach in this campaign.")
    return _coach_in_or_403(campaign, coach.pk)


def _coach_in_or_403(campaign: Campaign, coach_id: int) -> CampaignCoach:
    try:
        return _coach_in(campaign, coach_id)
    except Http404:
        raise PermissionDenied("You are not a coach in this campaign.") from None


def _is_organiser(request: HttpRequest, campaign: Campaign) -> bool:
    return campaign.season.league.is_organised_by(request.user)


def _viewable_coach(request: HttpRequest, campaign: Campaign, coach_id: int) -> tuple[CampaignCoach, bool, bool]:
    """A coach's page is for that coach and the Longshanks."""
    cc = _coach_in(campaign, coach_id)
    is_owner = cc.entry.coach.user_id == request.user.pk
    is_organiser = _is_organiser(request, campaign)
    if not (is_owner or is_organiser):
        raise PermissionDenied("A coach's campaign page is for that coach and the Longshanks.")
    return cc, is_owner, is_organiser


def _refused(exc: Exception) -> str:
    return " ".join(exc.messages) if isinstance(exc, ValidationError) else str(exc)


# Public pages ------------------------------------------------------------------------


def campaign_table(request: HttpRequest, slug: str) -> HttpResponse:
    """Campaign table (public): LP, CP, Moments, Favours and the title race."""
    campaign = _campaign(slug)
    rows = selectors.campaign_rows(campaign)
    race = selectors.title_race(rows)
    is_organiser = _is_organiser(request, campaign)
    me = coach_for(request.user)
    table = CampaignTable(
        rows,
        league=campaign.season.league,
        can_open=lambda coach_id: is_organiser or (me is not None and me.pk == coach_id),
    )
    RequestConfig(request, paginate=False).configure(table)
    context = {
        "campaign": campaign,
        "league": campaign.season.league,
        "season": campaign.season,
        "table": table,
        "race": [(label, race[value][0], race[value][1]) for value, label in _TITLES],
        "fixed": [(label, names) for (value, label), names in zip(_TITLES, selectors.fixed_titles(campaign).values())]
        if campaign.is_over
        else None,
        "is_organiser": is_organiser,
    }
    return render(request, "campaigns/campaign_table.html", context)


_TITLES = [
    ("league_champion", "League Champion"),
    ("master_strategos", "Master Strategos"),
    ("master_of_shadows", "Master of Shadows"),
]


def campaign_json(request: HttpRequest, slug: str) -> JsonResponse:
    return JsonResponse(selectors.campaign_feed(_campaign(slug)))


# A coach's campaign page ------------------------------------------------------------------


@login_required
def coach_page(request: HttpRequest, slug: str, coach_id: int) -> HttpResponse:
    campaign = _campaign(slug)
    cc, is_owner, is_organiser = _viewable_coach(request, campaign, coach_id)
    return _render_coach_page(request, campaign, cc, is_owner=is_owner, is_organiser=is_organiser)


def _render_coach_page(
    request: HttpRequest,
    campaign: Campaign,
    cc: CampaignCoach,
    *,
    is_owner: bool,
    is_organiser: bool,
    bound: dict | None = None,
    status: int = 200,
) -> HttpResponse:
    bound = bound or {}
    table = services.moment_table()
    row = next(r for r in selectors.campaign_rows(campaign, table) if r.cc_id == cc.pk)
    phase = services.phase_for(cc, campaign_over=campaign.is_over)
    unlocks = list(cc.unlocks.select_related("picked__card").order_by("threshold"))
    reached = {m.threshold for m in moments_reached(row.cp, table)}
    for u in unlocks:
        u.is_reached = u.threshold in reached
        u.picked_card = getattr(u, "picked", None)
    owned = list(cc.owned_cards.filter(gone_at__isnull=True).select_related("card"))
    base = list(PlotCard.objects.filter(kind__in=[PlotCard.Kind.CORE, PlotCard.Kind.COMMON]).order_by("kind", "order"))
    decks = list(
        cc.decks.select_related("fixture__round", "fixture__home__coach", "fixture__away__coach").prefetch_related("cards")
    )
    offers = list(
        CardOffer.objects.filter(Q(proposer=cc) | Q(recipient=cc)).select_related(
            "proposer__entry__coach", "recipient__entry__coach", "wanted__card", "offered__card"
        )
    )
    loans = list(
        Loan.objects.filter(Q(borrower=cc) | Q(lender=cc)).select_related(
            "borrower__entry__coach", "lender__entry__coach", "fixture__round", "fixture__result"
        )
    )
    sponsorships = list(cc.sponsorships.select_related("sponsorship", "fixture__round", "fixture__result"))
    cp_entries = list(CampaignPointEntry.objects.filter(coach=cc).select_related("created_by"))
    favour_entries = list(FavourEntry.objects.filter(coach=cc).select_related("created_by"))

    start_unlock = next((u for u in unlocks if u.threshold == 0), None)
    pending = [
        u for u in unlocks if u.threshold > 0 and u.picked_card is None and u.confirmed_at and u.is_reached
    ]
    forms_ = {}
    if is_owner:
        if start_unlock is not None and start_unlock.picked_card is None:
            forms_["start"] = bound.get("start") or forms.StartingPickForm(coach=cc)
        for u in pending:
            key = f"pick-{u.pk}"
            u.form = bound.get(key) or forms.PickForm(options=services.pick_options(cc, u.unlocks), prefix=key)
        if phase.is_open:
            forms_["sponsorship"] = bound.get("sponsorship") or forms.SponsorshipForm()
            forms_["loan"] = bound.get("loan") or forms.LoanForm(coach=cc)
            forms_["offer"] = bound.get("offer") or forms.OfferForm(coach=cc)
    if is_organiser:
        forms_["adjust"] = bound.get("adjust") or forms.AdjustForm()
    # A refusal whose form is not on the page any more (a starting pick already
    # made, a phase that closed) is shown at the top instead.
    shown = set(map(id, forms_.values())) | {id(getattr(u, "form", None)) for u in pending}
    errors = list(bound.get("errors", []))
    for key, form in bound.items():
        if hasattr(form, "non_field_errors") and id(form) not in shown:
            errors.extend(form.non_field_errors())
    context = {
        "campaign": campaign,
        "league": campaign.season.league,
        "season": campaign.season,
        "cc": cc,
        "row": row,
        "phase": phase,
        "unlocks": unlocks,
        "pending": pending,
        "to_confirm": [u for u in unlocks if u.confirmed_at is None and u.is_reached],
        "base_pool": base,
        "owned": owned,
        "decks": decks,
        "offers": offers,
        "loans": loans,
        "sponsorships": sponsorships,
        "cp_entries": cp_entries,
        "favour_entries": favour_entries,
        "forms": forms_,
        "errors": errors,
        "is_owner": is_owner,
        "is_organiser": is_organiser,
    }
    return render(request, "campaigns/coach_page.html", context, status=status)


def _coach_action(
    request: HttpRequest,
    slug: str,
    form_key: str,
    build_form: Callable[[CampaignCoach], object] | None,
    act: Callable[[CampaignCoach, object], str],
    *,
    organiser_for: int | None = None,
) -> HttpResponse:
    """Run one coach-page action: the acting coach (or, with ``organiser_for``, the
    Longshanks acting on that coach), a bound form, the service. Refusals re-render
    the page with the message on that form and status 400."""
    campaign = _campaign(slug)
    if organiser_for is not None:
        if not _is_organiser(request, campaign):
            raise PermissionDenied("Only the Longshanks of this league can do this.")
        cc = _coach_in(campaign, organiser_for)
        is_owner, is_organiser = cc.entry.coach.user_id == request.user.pk, True
    else:
        cc = _me(request, campaign)
        is_owner, is_organiser = True, _is_organiser(request, campaign)
    form = build_form(cc) if build_form else None
    if form is not None and not form.is_valid():
        return _render_coach_page(
            request, campaign, cc, is_owner=is_owner, is_organiser=is_organiser, bound={form_key: form}, status=400
        )
    try:
        done = act(cc, form)
    except (ValidationError, PermissionDenied) as exc:
        if isinstance(exc, PermissionDenied):
            raise
        bound: dict = {"errors": [_refused(exc)]}
        if form is not None:
            form.add_error(None, exc)
            bound = {form_key: form}
        return _render_coach_page(
            request, campaign, cc, is_owner=is_owner, is_organiser=is_organiser, bound=bound, status=400
        )
    messages.success(request, done)
    return redirect(reverse("campaigns:coach_page", args=[slug, cc.entry.coach_id]))


@login_required
@require_POST
def start_pick(request: HttpRequest, slug: str) -> HttpResponse:
    def act(cc, form):
        owned = services.choose_starting_card(
            coach=cc, card=form.cleaned_data["card"], guild=form.cleaned_data.get("guild"), by=request.user
        )
        return f"{owned.card} is your starting card (GB-14)."

    return _coach_action(request, slug, "start", lambda cc: forms.StartingPickForm(request.POST, coach=cc), act)


@login_required
@require_POST
def pick(request: HttpRequest, slug: str, unlock_id: int) -> HttpResponse:
    campaign = _campaign(slug)
    me = _me(request, campaign)
    unlock = get_object_or_404(MomentUnlock, pk=unlock_id, coach=me)
    key = f"pick-{unlock.pk}"

    def act(cc, form):
        owned = services.pick_card(unlock=unlock, card=form.cleaned_data["card"], by=request.user)
        return f"{owned.card} added to your pool ({unlock.name})."

    return _coach_action(
        request, slug, key,
        lambda cc: forms.PickForm(request.POST, options=services.pick_options(cc, unlock.unlocks), prefix=key), act,
    )


@login_required
@require_POST
def buy_sponsorship(request: HttpRequest, slug: str) -> HttpResponse:
    def act(cc, form):
        purchase = services.buy_sponsorship(coach=cc, sponsorship=form.cleaned_data["sponsorship"], by=request.user)
        return f"Sponsorship {purchase.sponsorship} bought for {purchase.fixture.round}."

    return _coach_action(request, slug, "sponsorship", lambda cc: forms.SponsorshipForm(request.POST), act)


@login_required
@require_POST
def buy_advancement(request: HttpRequest, slug: str) -> HttpResponse:
    def act(cc, form):
        services.buy_advancement(coach=cc, by=request.user)
        return "Campaign Advancement bought: +5 CP (GB-24)."

    return _coach_action(request, slug, "advancement", None, act)


@login_required
@require_POST
def request_loan(request: HttpRequest, slug: str) -> HttpResponse:
    def act(cc, form):
        loan = services.request_loan(
            borrower=cc, lender=form.cleaned_data["lender"], model_name=form.cleaned_data["model_name"],
            model_type=form.cleaned_data["model_type"], by=request.user,
        )
        return f"Loan of {loan.model_name} requested from {loan.lender}."

    return _coach_action(request, slug, "loan", lambda cc: forms.LoanForm(request.POST, coach=cc), act)


@login_required
@require_POST
def make_offer(request: HttpRequest, slug: str) -> HttpResponse:
    def act(cc, form):
        data = form.cleaned_data
        if data["kind"] == CardOffer.Kind.PURCHASE:
            offer = services.offer_purchase(buyer=cc, wanted=data["wanted"], favours=data["favours"], by=request.user)
        else:
            offer = services.offer_swap(proposer=cc, wanted=data["wanted"], offered=data["offered"], by=request.user)
        return f"Offer sent to {offer.recipient}."

    return _coach_action(request, slug, "offer", lambda cc: forms.OfferForm(request.POST, coach=cc), act)


def _answer_deal(request, slug, queryset, pk, *, section, withdraw, answer, done) -> HttpResponse:
    """Accept, refuse or withdraw a pending loan request or card offer that the
    logged-in coach is party to (GB-22, GB-23); ``done(action, deal)`` words the
    success message."""
    me = _me(request, _campaign(slug))
    deal = get_object_or_404(queryset(me), pk=pk)
    action = request.POST.get("action")
    if action not in {"accept", "refuse", "withdraw"}:
        return HttpResponse("Unknown action.", status=400)

    def act(cc, form):
        if action == "withdraw":
            withdraw(deal)
        else:
            answer(deal, action == "accept")
        return done(action, deal)

    return _coach_action(request, slug, section, None, act)


_PAST = {"accept": "accepted", "refuse": "refused", "withdraw": "withdrawn"}


@login_required
@require_POST
def answer_loan(request: HttpRequest, slug: str, loan_id: int) -> HttpResponse:
    return _answer_deal(
        request, slug, lambda me: Loan.objects.filter(Q(borrower=me) | Q(lender=me)), loan_id,
        section="loans",
        withdraw=lambda loan: services.withdraw_loan(loan=loan, by=request.user),
        answer=lambda loan, accept: services.answer_loan(loan=loan, accept=accept, by=request.user),
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
        withdraw=lambda offer: services.withdraw_offer(offer=offer, by=request.user),
        answer=lambda offer, accept: services.answer_offer(offer=offer, accept=accept, by=request.user),
        done=lambda action, offer: f"Offer {_PAST[action]}.",
    )


@login_required
@require_POST
def confirm_unlock(request: HttpRequest, slug: str, unlock_id: int) -> HttpResponse:
    campaign = _campaign(slug)
    if not _is_organiser(request, campaign):
        raise PermissionDenied("Only the Longshanks confirms Moments (GB-13).")
    unlock = get_object_or_404(MomentUnlock.objects.select_related("coach__entry"), pk=unlock_id, coach__campaign=campaign)

    def act(cc, form):
        services.confirm_unlock(unlock=unlock, by=request.user)
        return f"{unlock.name} confirmed for {cc}."

    return _coach_action(request, slug, "confirm", None, act, organiser_for=unlock.coach.entry.coach_id)


@login_required
@require_POST
def adjust(request: HttpRequest, slug: str, coach_id: int) -> HttpResponse:
    def act(cc, form):
        data = form.cleaned_data
        services.adjust(coach=cc, ledger=data["ledger"], amount=data["amount"], reason=data["reason"], by=request.user)
        return f"Adjustment recorded for {cc}."

    return _coach_action(request, slug, "adjust", lambda cc: forms.AdjustForm(request.POST), act, organiser_for=coach_id)


@login_required
@require_POST
def declare_final_day(request: HttpRequest, slug: str) -> HttpResponse:
    campaign = _campaign(slug)
    if not _is_organiser(request, campaign):
        raise PermissionDenied("Only the Longshanks declares the Final Day (GB-26).")
    try:
        services.declare_final_day(campaign=campaign, by=request.user)
    except ValidationError as exc:
        messages.error(request, _refused(exc))
        return redirect(reverse("campaigns:campaign_table", args=[slug]))
    messages.success(request, "Final Day declared: the titles are fixed (GB-26).")
    return redirect(reverse("campaigns:campaign_table", args=[slug]))


# A fixture's campaign page (decks, sponsorships, loans, achieved cards) -------------------


def _fixture_in(campaign: Campaign, fixture_id: int) -> Fixture:
    return get_object_or_404(
        Fixture.objects.with_related().filter(round__season=campaign.season, away__isnull=False), pk=fixture_id
    )


def _fixture_viewer(request: HttpRequest, campaign: Campaign, fixture: Fixture) -> tuple[str | None, bool]:
    coach = coach_for(request.user)
    side = fixture.side_of(coach)
    is_organiser = _is_organiser(request, campaign)
    if side is None and not is_organiser:
        raise PermissionDenied("This is not your fixture.")
    return side, is_organiser


@login_required
def fixture_page(request: HttpRequest, slug: str, fixture_id: int) -> HttpResponse:
    campaign = _campaign(slug)
    fixture = _fixture_in(campaign, fixture_id)
    side, is_organiser = _fixture_viewer(request, campaign, fixture)
    return _render_fixture_page(request, campaign, fixture, side, is_organiser)


def _render_fixture_page(request, campaign, fixture, side, is_organiser, bound=None, status=200) -> HttpResponse:
    bound = bound or {}
    coaches = {
        cc.entry_id: cc
        for cc in CampaignCoach.objects.filter(entry_id__in=[fixture.home_id, fixture.away_id]).select_related("entry__coach")
    }
    decks = {d.coach_id: d for d in Deck.objects.filter(fixture=fixture).prefetch_related("cards")}
    achieved: dict[int, list] = {}
    for a in Achievement.objects.filter(fixture=fixture).select_related("card"):
        achieved.setdefault(a.coach_id, []).append(a.card)
    sponsorships: dict[int, list] = {}
    for s in SponsorshipPurchase.objects.filter(fixture=fixture).select_related("sponsorship"):
        sponsorships.setdefault(s.coach_id, []).append(s.sponsorship)
    loans = list(
        Loan.objects.filter(fixture=fixture, status=Status.ACCEPTED).select_related(
            "borrower__entry__coach", "lender__entry__coach"
        )
    )
    visible = services.deck_visible_to_opponent(fixture)
    result = fixture.result_or_none
    sides = []
    for this_side in ("home", "away"):
        entry_id = fixture.home_id if this_side == "home" else fixture.away_id
        cc = coaches[entry_id]
        own = this_side == side
        deck = decks.get(cc.pk)
        block = {
            "side": this_side,
            "cc": cc,
            "own": own,
            "deck": deck,
            "deck_cards": list(deck.cards.all()) if deck else [],
            "show_deck": own or is_organiser or visible,
            "achieved": achieved.get(cc.pk, []),
            "sponsorships": sponsorships.get(cc.pk, []),
        }
        open_for_achievements = result is None or not result.is_approved
        if own and open_for_achievements and result is None:
            last = deck or Deck.objects.filter(coach=cc).order_by("-fixture__round__number").first()
            initial = [c.pk for c in last.cards.all()] if last else []
            block["deck_form"] = bound.get(f"deck-{this_side}") or forms.DeckForm(
                pool_ids=services.pool_card_ids(cc), initial={"cards": initial}, prefix=f"deck-{this_side}"
            )
        if (own or is_organiser) and open_for_achievements and deck is not None:
            block["achieved_form"] = bound.get(f"achieved-{this_side}") or forms.AchievementsForm(
                deck_ids=[c.pk for c in deck.cards.all()],
                initial={"cards": [c.pk for c in achieved.get(cc.pk, [])]},
                prefix=f"achieved-{this_side}",
            )
        sides.append(block)
    context = {
        "campaign": campaign,
        "league": campaign.season.league,
        "fixture": fixture,
        "result": result,
        "sides": sides,
        "loans": loans,
        "decks_visible": visible,
        "is_organiser": is_organiser,
    }
    return render(request, "campaigns/fixture_page.html", context, status=status)


def _fixture_action(request, slug, fixture_id, what: str) -> HttpResponse:
    campaign = _campaign(slug)
    fixture = _fixture_in(campaign, fixture_id)
    side, is_organiser = _fixture_viewer(request, campaign, fixture)
    target_side = request.POST.get("side") or side
    if target_side not in ("home", "away") or (target_side != side and not is_organiser):
        raise PermissionDenied("You can only act for your own side of the fixture.")
    cc = CampaignCoach.objects.select_related("entry__coach", "campaign__season__league").get(
        entry_id=fixture.home_id if target_side == "home" else fixture.away_id
    )
    key = f"{what}-{target_side}"
    if what == "deck":
        form = forms.DeckForm(request.POST, pool_ids=services.pool_card_ids(cc), prefix=key)
    else:
        deck = Deck.objects.filter(coach=cc, fixture=fixture).first()
        form = forms.AchievementsForm(
            request.POST, deck_ids=[c.pk for c in deck.cards.all()] if deck else [], prefix=key
        )
    if form.is_valid():
        try:
            if what == "deck":
                services.register_deck(coach=cc, fixture=fixture, cards=form.cleaned_data["cards"], by=request.user)
                messages.success(request, "Deck registered (GB-16).")
            else:
                services.record_achievements(
                    coach=cc, fixture=fixture, cards=form.cleaned_data["cards"], by=request.user
                )
                messages.success(request, "Achieved cards recorded (GB-17).")
            return redirect(reverse("campaigns:fixture_page", args=[slug, fixture.pk]))
        except ValidationError as exc:
            form.add_error(None, exc)
    return _render_fixture_page(request, campaign, fixture, side, is_organiser, bound={key: form}, status=400)


@login_required
@require_POST
def register_deck(request: HttpRequest, slug: str, fixture_id: int) -> HttpResponse:
    return _fixture_action(request, slug, fixture_id, "deck")


@login_required
@require_POST
def record_achievements(request: HttpRequest, slug: str, fixture_id: int) -> HttpResponse:
    return _fixture_action(request, slug, fixture_id, "achieved")
