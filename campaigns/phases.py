"""Where a coach stands between League Matches: the Wheeling & Dealing phase
(GB-19, GB-20) and what they do next (GB-25)."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q
from django.utils import timezone

from campaigns.models import CampaignCoach, Deck
from league.models import Fixture, Result


@dataclass
class Phase:
    """Where a coach is between League Matches (GB-19, GB-20, GB-25).

    ``number`` is how many of their League Matches have an approved result: the
    Wheeling & Dealing phase after match N is phase N (phase 0 comes before the
    first match, so carried-over Favours can be used in it).
    """

    number: int
    is_open: bool
    closed_because: str
    next_fixture: Fixture | None
    step: str  # GB-25: what the coach does next


def phase_for(coach: CampaignCoach, *, campaign_over: bool | None = None) -> Phase:
    fixtures = list(
        Fixture.objects.matches()
        .filter(Q(home_id=coach.entry_id) | Q(away_id=coach.entry_id))
        .select_related("round", "result", "home__coach", "away__coach")
        .order_by("round__number", "date", "id")
    )
    if campaign_over is None:
        campaign_over = coach.campaign.is_over
    played = [f for f in fixtures if f.result_or_none is not None and f.result.is_approved]
    upcoming = [f for f in fixtures if f not in played]
    nxt = upcoming[0] if upcoming else None
    if campaign_over:
        return Phase(len(played), False, "the Longshanks has declared the Final Day (GB-26)", nxt, "Final Day")
    if nxt is not None and nxt.result_or_none is not None:
        result = nxt.result
        return Phase(
            len(played),
            False,
            f"your match in {nxt.round} has been reported; Wheeling & Dealing reopens when its result is approved (GB-20)",
            nxt,
            "confirm the result" if result.status == Result.Status.REPORTED else "wait for the Longshanks' approval",
        )
    if nxt is None:
        step = "Wheeling & Dealing (no League Match left)"
    elif coach.pk is None or not Deck.objects.filter(coach=coach, fixture=nxt).exists():
        step = "Wheeling & Dealing, then build your deck"
    elif timezone.localdate() >= nxt.date:
        step = "play your match and report it"
    else:
        step = "Wheeling & Dealing; your deck is registered"
    return Phase(len(played), True, "", nxt, step)
