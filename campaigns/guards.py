"""Locks and permission checks shared by every Big League service.

One lock order (STYLE habit 16, written in league/locks.py): a campaign's coaches
are side rows (step 3), locked in primary-key order: a deal between two coaches
locks both with ``lock_pair``, a workflow step on a match locks the fixture's
coaches with ``lock_fixture_sides`` after the fixture and its result."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied, ValidationError

from campaigns import rules
from league import locks
from campaigns.ledgers.balances import favour_balance, spent_in_phase
from campaigns.models import Campaign, CampaignCoach
from campaigns.dealing.phases import Phase, phase_for


COACH_RELATED = ("campaign__season__league", "entry__coach__user", "guild")
LOCKED_SIDES = "_campaign_coaches_locked"  # on a fixture whose sides this transaction holds


def lock_coach(coach: CampaignCoach) -> CampaignCoach:
    (locked,) = locks.rows_in_order(CampaignCoach.objects.all(), [coach.pk], related=COACH_RELATED)
    return locked


def lock_pair(a: CampaignCoach, b: CampaignCoach) -> tuple[CampaignCoach, CampaignCoach]:
    """Lock two coaches' rows always in the same order, so two deals between the
    same coaches cannot deadlock."""
    locked = {c.pk: c for c in locks.rows_in_order(CampaignCoach.objects.all(), [a.pk, b.pk], related=COACH_RELATED)}
    return locked[a.pk], locked[b.pk]


def lock_fixture_sides(fixture) -> list[CampaignCoach]:
    """The Layer hook (league/locks.py, step 3): the campaign coaches of a fixture's
    two entries, whose ledgers approving or withdrawing its result changes."""
    coaches = list(
        CampaignCoach.objects.select_for_update(of=("self",), no_key=True)
        .select_related(*COACH_RELATED)
        .filter(entry_id__in=[fixture.home_id, fixture.away_id])
        .order_by("pk")
    )  # one query, rows locked lowest primary key first (step 3)
    fixture.__dict__[LOCKED_SIDES] = coaches  # the approval hooks reuse them: no second query
    return coaches


def require_own(coach: CampaignCoach, by) -> None:
    if by is None or not by.is_authenticated or coach.entry.coach.user_id != by.pk:
        raise PermissionDenied("Only the coach themself can do this.")


def require_organiser(campaign: Campaign, by) -> None:
    if not campaign.season.league.is_organised_by(by):
        raise PermissionDenied("Only the organiser of this league can do this.")


def require_running(campaign: Campaign) -> None:
    if campaign.is_over:
        raise ValidationError("The Final Day has been declared: this campaign is over.")


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
