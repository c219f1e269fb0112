"""The Big League: the Longshanks' adjustment of a coach's CP or Favours (GB-1,
GB-11), from the coach's campaign page."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_POST

from campaigns.ledgers import forms
from campaigns.ledgers import services as ledgers
from campaigns.web.views import _coach_action


@login_required
@require_POST
def adjust(request: HttpRequest, slug: str, coach_id: int) -> HttpResponse:
    def act(cc, form):
        data = form.cleaned_data
        ledgers.adjust(coach=cc, ledger=data["ledger"], amount=data["amount"], reason=data["reason"], by=request.user)
        return f"Adjustment recorded for {cc}."

    return _coach_action(request, slug, "adjust", lambda cc: forms.AdjustForm(request.POST), act, organiser_for=coach_id)
