"""The Big League: picking cards (GB-13, GB-14) and the Longshanks confirming a
coach's Moment, from the coach's campaign page."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from campaigns.models import MomentUnlock
from campaigns.moments import forms
from campaigns.moments import services as moments
from campaigns.web.views import _campaign, _coach_action, _is_organiser, _me


@login_required
@require_POST
def start_pick(request: HttpRequest, slug: str) -> HttpResponse:
    def act(cc, form):
        owned = moments.choose_starting_card(
            coach=cc, card=form.cleaned_data["card"], guild=form.cleaned_data.get("guild"), by=request.user
        )
        return f"{owned.card} is your starting card."

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
def confirm_unlock(request: HttpRequest, slug: str, unlock_id: int) -> HttpResponse:
    campaign = _campaign(slug)
    if not _is_organiser(request, campaign):
        raise PermissionDenied("Only the organiser confirms Moments.")
    unlock = get_object_or_404(MomentUnlock.objects.select_related("coach__entry"), pk=unlock_id, coach__campaign__season=campaign.season)

    def act(cc, form):
        moments.confirm_unlock(unlock=unlock, by=request.user)
        return f"{unlock.name} confirmed for {cc}."

    response = _coach_action(request, slug, "confirm", None, act, organiser_for=unlock.coach.entry.coach_id)
    # From the organiser's dashboard: back there, not to the coach's page.
    back = request.POST.get("next", "")
    # An address on this site, never a view name: redirect("0") would look one up
    # and fail after the Moment was confirmed (found by the fuzzing).
    if (response.status_code == 302 and back.startswith("/")
            and url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()})):
        return HttpResponseRedirect(back)
    return response
