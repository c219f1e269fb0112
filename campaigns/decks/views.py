"""The Big League: a fixture's campaign page, registering a deck and recording
the plot cards achieved (GB-16, GB-17)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST

from campaigns.decks import forms
from campaigns.decks import services as decks
from campaigns import selectors
from campaigns.models import Campaign, Deck
from campaigns.web.views import _campaign, _is_organiser, _written
from league.caching import pages
from league.web.idempotency import idempotent
from league.models import Fixture
from league.permissions import coach_for



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
    # Kept per version of the season, day (decks face up from match day,
    # GB-16) and kind of viewer (their side, the organiser), never across viewers
    # who may see different things; the forms are built per request.
    page = pages.fragment(
        campaign.season, f"campaign-fixture:{fixture.pk}:{side or '-'}:{int(is_organiser)}:{timezone.localdate():%Y-%m-%d}",
        lambda: selectors.fixture_page(campaign, fixture, side, is_organiser),
    )
    for block in page["sides"]:
        this_side, cc, deck = block["side"], block["cc"], block["deck"]
        if block["deck_open"]:
            block["deck_form"] = bound.get(f"deck-{this_side}") or forms.DeckForm(
                pool_ids=decks.pool_card_ids(cc), prefill=selectors.deck_prefill(cc, deck), prefix=f"deck-{this_side}",
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
        "season": campaign.season,
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
        deck = Deck.objects.filter(coach_id=cc.pk, fixture=fixture).prefetch_related("cards").first() if cc.pk else None
        form = forms.DeckForm(
            request.POST, pool_ids=decks.pool_card_ids(cc), prefill=selectors.deck_prefill(cc, deck), prefix=key
        )
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
                    done = "Deck registered."
                else:
                    decks.record_achievements(
                        coach=_written(cc), fixture=fixture, cards=form.cleaned_data["cards"], by=request.user
                    )
                    done = "Achieved cards recorded."
            messages.success(request, done)
            return redirect(reverse("campaigns:fixture_page", args=[slug, fixture.pk]))
        except ValidationError as exc:
            form.add_error(None, exc)
    return _render_fixture_page(request, campaign, fixture, side, is_organiser, bound={key: form}, status=400)


@login_required
@require_POST
@idempotent
def register_deck(request: HttpRequest, slug: str, fixture_id: int) -> HttpResponse:
    return _fixture_action(request, slug, fixture_id, "deck")


@login_required
@require_POST
@idempotent
def record_achievements(request: HttpRequest, slug: str, fixture_id: int) -> HttpResponse:
    return _fixture_action(request, slug, fixture_id, "achieved")