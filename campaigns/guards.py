"""Locks and permission checks shared by every Big League service.

One lock order (STYLE habit 16): a deal between two coaches locks both
``CampaignCoach`` rows in primary-key order (``lock_pair``)."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied, ValidationError

from campaigns import rules
from campaigns.balances import favour_balance, spent_in_phase
from campaigns.models import Campaign, CampaignCoach
from campaigns.phases import Phase, phase_for


def lock_coach(coach: CampaignCoach) -> CampaignCoach:
    return (
        CampaignCoach.objects.select_for_update(of=("self",))
        .select_related("campaign__season__league", "entry__coach__user", "guild")
        .get(pk=coach.pk)
    )


def lock_pair(a: CampaignCoach, b: CampaignCoach) -> tuple[CampaignCoach, CampaignCoach]:
    """Lock two coaches' rows always in the same order, so two deals between the
    same coaches cannot deadlock."""
    first, second = sorted([a, b], key=lambda c: c.pk)
    locked = {first.pk: lock_coach(first), second.pk: lock_coach(second)}
    return locked[a.pk], locked[b.pk]


def require_own(coach: CampaignCoach, by) -> None:
    if by is None or not by.is_authenticated or coach.entry.coach.user_id != by.pk:
        raise PermissionDenied("Only the coach themself can do this.")


def require_organiser(campaign: Campaign, by) -> None:
    if not campaign.season.league.is_organised_by(by):
        raise PermissionDenied("Only the Longshanks of this league can do this (GB-1).")


def require_running(campaign: Campaign) -> None:
    if campaign.is_over:
        raise ValidationError("The Final Day has been declared: this campaign is over (GB-26).")


def require_open_phase(coach: CampaignCoach) -> Phase:
    phase = phase_for(coach)
    if not phase.is_open:
        raise ValidationError(f"Wheeling & Dealing is closed: {phase.closed_because}.")
    return phase


def require_spend(coach: CampaignCoach, phase: Phase, cost: int, what: str) -> None:
    refusal = rules.check_spend(
        balance=favour_balance(coach), spent_in_phase=spent_in_phase(coach, phase.number), cost=cost, what=what
    )
    if refusal:
        raise ValidationError(refusal)


def same_campaign(a: CampaignCoach, b: CampaignCoach) -> None:
    if a.campaign_id != b.campaign_id:
        raise ValidationError("Both coaches must be in the same campaign.")
    if a.pk == b.pk:
        raise ValidationError("You cannot deal with yourself.")
