"""What a coach's ledgers add up to: balances are sums of lines, never stored
(STYLE habit 5). A line that was reversed, or that reverses another, is not
"active": the pair cancels out in the sums but stays in the history."""

from __future__ import annotations

from django.db.models import Sum

from campaigns.models import CampaignCoach, CampaignPointLine, FavourLine


def cp_total(coach: CampaignCoach) -> int:
    return CampaignPointLine.objects.filter(coach=coach).aggregate(total=Sum("amount"))["total"] or 0


def favour_balance(coach: CampaignCoach) -> int:
    return FavourLine.objects.filter(coach=coach).aggregate(total=Sum("amount"))["total"] or 0


def spent_in_phase(coach: CampaignCoach, phase: int) -> int:
    """GB-19: what the coach has spent in this Wheeling & Dealing phase."""
    return -(FavourLine.objects.filter(coach=coach, phase=phase).aggregate(total=Sum("amount"))["total"] or 0)


def active_lines(model):
    return model.objects.filter(reverses__isnull=True, reversed_by__isnull=True)
