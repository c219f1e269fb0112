"""The Big League: the Longshanks declaring the Final Day (GB-26) from the campaign
table, asked first: it cannot be undone."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.views.decorators.http import require_POST

from campaigns import setup
from campaigns.finalday import services as titles
from campaigns.web.views import CONFIRMED, Ask, _campaign, _is_organiser, _refused, confirmation


@login_required
@require_POST
def declare_final_day(request: HttpRequest, slug: str) -> HttpResponse:
    campaign = _campaign(slug)
    if not _is_organiser(request, campaign):
        raise PermissionDenied("Only the organiser declares the Final Day.")
    refusal = titles.final_day_refusal(campaign)
    if refusal:
        messages.error(request, refusal)
        return redirect(reverse("campaigns:campaign_table", args=[slug]))
    if request.POST.get(CONFIRMED) != "yes":  # asked first: it cannot be undone
        ask = Ask(
            "Declare the Final Day?",
            "The three titles are fixed as the table stands and every coach without one gets 5 Favours in their "
            "next campaign in this league. Wheeling & Dealing ends. It cannot be undone.",
            "Yes, declare the Final Day",
        )
        return confirmation(request, campaign.season.league, campaign.season, ask,
                            back=reverse("campaigns:campaign_table", args=[slug]))
    try:
        with transaction.atomic():
            titles.declare_final_day(campaign=setup.ensure_campaign(campaign.season), by=request.user)
    except ValidationError as exc:
        messages.error(request, _refused(exc))
        return redirect(reverse("campaigns:campaign_table", args=[slug]))
    messages.success(request, "Final Day declared: the titles are fixed.")
    return redirect(reverse("campaigns:campaign_table", args=[slug]))
