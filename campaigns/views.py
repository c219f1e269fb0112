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
from django.db import transaction
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST
from django_tables2 import RequestConfig

from campaigns import dealing, decks, forms, ledgers, moments, rules, selectors, setup, titles
from campaigns.models import Campaign, CampaignCoach, CardOffer, Deck, Loan, MomentUnlock, Status, Title
from campaigns.tables import CampaignTable
from league.models import Fixture, League, Season
from league.permissions import coach_for

# Lookups and permissions --------------------------------------------------------


def _campaign(slug: str) -> Campaign:
    """The league's current season as a campaign (404 for other games or no season).
    Unsaved while its rows are not written yet: pages show it as new, and an action
    writes the rows first (``_written``), so a GET never writes (STYLE habit 14)."""
    league = get_object_or_404(League, slug=slug, game_system="guildball")
    season = Season.objects.filter(league=league).select_related("league").first()
    if season is None:
        raise Http404("This league has no season yet.")
    return selectors.campaign_of(season)


def _coach_in(campaign: Campaign, coach_id: int) -> CampaignCoach:
    """The coach's row (unsaved if not written yet); 404 when not in the campaign."""
    found = selectors.find_coach(campaign, coach_id)
    if found is None:
        raise Http404("That coach is not in this campaign.")
    return found[0]


def _written(cc: CampaignCoach) -> CampaignCoach:
    """The coach's saved row for an action: the season's campaign rows are written
    first if it started without them (an import, an entry added later). Call inside
    the action's transaction, so a refused action writes nothing."""
    if cc.pk is not None:
        return cc
    campaign = setup.ensure_campaign(cc.campaign.season)
    saved = CampaignCoach.objects.select_related("entry__coach", "guild").get(entry_id=cc.entry_id)
    saved.campaign = campaign
    return saved


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


def _may_view(request: HttpRequest, campaign: Campaign, cc: CampaignCoach) -> tuple[bool, bool]:
    """A coach's page is for that coach and the Longshanks: (is_owner, is_organiser)."""
    is_owner = cc.entry.coach.user_id == request.user.pk
    is_organiser = _is_organiser(request, campaign)
    if not (is_owner or is_organiser):
        raise PermissionDenied("A coach's campaign page is for that coach and the Longshanks.")
    return is_owner, is_organiser


def _joining_of(campaign: Campaign, cc: CampaignCoach):
    """What an unsaved coach starts with, for re-showing their page."""
    return selectors.find_coach(campaign, cc.entry.coach_id)[1] if cc.pk is None else None


def _refused(exc: Exception) -> str:
    return " ".join(exc.messages) if isinstance(exc, ValidationError) else str(exc)


# Public pages ------------------------------------------------------------------------


def campaign_table(request: HttpRequest, slug: str) -> HttpResponse:
    """Campaign table (public): LP, CP, Moments, Favours and the title race."""
    campaign = _campaign(slug)
    rows = selectors.campaign_rows(campaign)
    race = selectors.title_race(rows)
    fixed = selectors.fixed_titles(campaign) if campaign.is_over else None
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
        "race": [(label, *race[value]) for value, label in Title.Name.choices],
        "fixed": [(label, fixed[value]) for value, label in Title.Name.choices] if fixed is not None else None,
        "is_organiser": is_organiser,
    }
    return render(request, "campaigns/campaign_table.html", context)


def campaign_json(request: HttpRequest, slug: str) -> JsonResponse:
    return JsonResponse(selectors.campaign_feed(_campaign(slug)))


# A coach's campaign page ------------------------------------------------------------------


@login_required
def coach_page(request: HttpRequest, slug: str, coach_id: int) -> HttpResponse:
    campaign = _campaign(slug)
    found = selectors.find_coach(campaign, coach_id)
    if found is None:
        raise Http404("That coach is not in this campaign.")
    cc, joining = found
    is_owner, is_organiser = _may_view(request, campaign, cc)
    return _render_coach_page(request, campaign, cc, is_owner=is_owner, is_organiser=is_organiser, joining=joining)


def _render_coach_page(
    request: HttpRequest,
    campaign: Campaign,
    cc: CampaignCoach,
    *,
    is_owner: bool,
    is_organiser: bool,
    joining=None,
    bound: dict | None = None,
    status: int = 200,
) -> HttpResponse:
    bound = bound or {}
    page = selectors.coach_page(campaign, cc, joining)
    start_unlock, pending, phase = page["start_unlock"], page["pending"], page["phase"]
    forms_ = {}
    if is_owner:
        if start_unlock is not None and start_unlock.picked_card is None:
            forms_["start"] = bound.get("start") or forms.StartingPickForm(coach=cc)
        for u in pending:
            key = f"pick-{u.pk}"
            u.form = bound.get(key) or forms.PickForm(options=moments.pick_options(cc, u.unlocks), prefix=key)
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
        **page,
        "campaign": campaign,
        "league": campaign.season.league,
        "season": campaign.season,
        "cc": cc,
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
            request, campaign, cc, is_owner=is_owner, is_organiser=is_organiser, bound={form_key: form}, status=400,
            joining=_joining_of(campaign, cc),
        )
    try:
        with transaction.atomic():
            done = act(_written(cc), form)
    except ValidationError as exc:
        bound: dict = {"errors": [_refused(exc)]}
        if form is not None:
            form.add_error(None, exc)
            bound = {form_key: form}
        return _render_coach_page(
            request, campaign, cc, is_owner=is_owner, is_organiser=is_organiser, bound=bound, status=400,
            joining=_joining_of(campaign, cc),
        )
    messages.success(request, done)
    return redirect(reverse("campaigns:coach_page", args=[slug, cc.entry.coach_id]))


@login_required
@require_POST
def start_pick(request: HttpRequest, slug: str) -> HttpResponse:
    def act(cc, form):
        owned = moments.choose_starting_card(
            coach=cc, card=form.cleaned_data["card"], guild=form.cleaned_data.get("guild"), by=request.user
        )
        return f"{owned.card} is your starting card (GB-14)."

    return _coach_action(request, slug, "start", lambda cc: forms.StartingPickForm(request.POST, coach=cc), act)


@login_required
@require_POST
def pick(request: HttpRequest, slug: str, unlock_id: int) -> HttpResponse:
    campaign = _campaign(slug)
    me = _me(request, campaign)
    unlock = get_object_or_404(MomentUnlock, pk=unlock_id, coach_id=me.pk)
    key = f"pick-{unlock.pk}"

    def act(cc, form):
        owned = moments.pick_card(unlock=unlock, card=form.cleaned_data["card"], by=request.user)
        return f"{owned.card} added to your pool ({unlock.name})."

    return _coach_action(
        request, slug, key,
        lambda cc: forms.PickForm(request.POST, options=moments.pick_options(cc, unlock.unlocks), prefix=key), act,
    )


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


@login_required
@require_POST
def confirm_unlock(request: HttpRequest, slug: str, unlock_id: int) -> HttpResponse:
    campaign = _campaign(slug)
    if not _is_organiser(request, campaign):
        raise PermissionDenied("Only the Longshanks confirms Moments (GB-13).")
    unlock = get_object_or_404(MomentUnlock.objects.select_related("coach__entry"), pk=unlock_id, coach__campaign__season=campaign.season)

    def act(cc, form):
        moments.confirm_unlock(unlock=unlock, by=request.user)
        return f"{unlock.name} confirmed for {cc}."

    response = _coach_action(request, slug, "confirm", None, act, organiser_for=unlock.coach.entry.coach_id)
    # From the organiser's dashboard: back there, not to the coach's page.
    back = request.POST.get("next", "")
    # An address on this site, never a view name: redirect("0") would look one up
    # and fail after the Moment was confirmed (issue 12, found by the fuzzing).
    if (response.status_code == 302 and back.startswith("/")
            and url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()})):
        return HttpResponseRedirect(back)
    return response


@login_required
@require_POST
def adjust(request: HttpRequest, slug: str, coach_id: int) -> HttpResponse:
    def act(cc, form):
        data = form.cleaned_data
        ledgers.adjust(coach=cc, ledger=data["ledger"], amount=data["amount"], reason=data["reason"], by=request.user)
        return f"Adjustment recorded for {cc}."

    return _coach_action(request, slug, "adjust", lambda cc: forms.AdjustForm(request.POST), act, organiser_for=coach_id)


@login_required
@require_POST
def declare_final_day(request: HttpRequest, slug: str) -> HttpResponse:
    campaign = _campaign(slug)
    if not _is_organiser(request, campaign):
        raise PermissionDenied("Only the Longshanks declares the Final Day (GB-26).")
    try:
        with transaction.atomic():
            titles.declare_final_day(campaign=setup.ensure_campaign(campaign.season), by=request.user)
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
    page = selectors.fixture_page(campaign, fixture, side, is_organiser)
    for block in page["sides"]:
        this_side, cc, deck = block["side"], block["cc"], block["deck"]
        if block["deck_open"]:
            block["deck_form"] = bound.get(f"deck-{this_side}") or forms.DeckForm(
                pool_ids=decks.pool_card_ids(cc),
                initial={"cards": selectors.last_deck_cards(cc, deck)},
                prefix=f"deck-{this_side}",
            )
        if block["achievements_open"]:
            block["achieved_form"] = bound.get(f"achieved-{this_side}") or forms.AchievementsForm(
                deck_ids=[c.pk for c in block["deck_cards"]],
                initial={"cards": [c.pk for c in block["achieved"]]},
                prefix=f"achieved-{this_side}",
            )
    # A refusal whose form the page no longer offers (no achievements before the
    # report) is shown at the top instead.
    shown = {id(block.get(key)) for block in page["sides"] for key in ("deck_form", "achieved_form")}
    errors = [e for form in bound.values() if id(form) not in shown for e in form.non_field_errors()]
    context = {
        **page,
        "campaign": campaign,
        "league": campaign.season.league,
        "fixture": fixture,
        "is_organiser": is_organiser,
        "errors": errors,
    }
    return render(request, "campaigns/fixture_page.html", context, status=status)


def _fixture_action(request, slug, fixture_id, what: str) -> HttpResponse:
    campaign = _campaign(slug)
    fixture = _fixture_in(campaign, fixture_id)
    side, is_organiser = _fixture_viewer(request, campaign, fixture)
    target_side = request.POST.get("side") or side
    if target_side not in ("home", "away") or (target_side != side and not is_organiser):
        raise PermissionDenied("You can only act for your own side of the fixture.")
    cc = selectors.fixture_coaches(campaign, fixture)[target_side]
    key = f"{what}-{target_side}"
    if what == "deck":
        form = forms.DeckForm(request.POST, pool_ids=decks.pool_card_ids(cc), prefix=key)
    else:
        deck = Deck.objects.filter(coach_id=cc.pk, fixture=fixture).first() if cc.pk else None
        form = forms.AchievementsForm(
            request.POST, deck_ids=[c.pk for c in deck.cards.all()] if deck else [], prefix=key
        )
    if form.is_valid():
        try:
            with transaction.atomic():
                if what == "deck":
                    decks.register_deck(coach=_written(cc), fixture=fixture, cards=form.cleaned_data["cards"], by=request.user)
                    done = "Deck registered (GB-16)."
                else:
                    decks.record_achievements(
                        coach=_written(cc), fixture=fixture, cards=form.cleaned_data["cards"], by=request.user
                    )
                    done = "Achieved cards recorded (GB-17)."
            messages.success(request, done)
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
