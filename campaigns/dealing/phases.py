"""Where a coach stands between League Matches: the Wheeling & Dealing phase
(GB-19, GB-20) and what they do next (GB-25)."""

from __future__ import annotations

import datetime
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from django.db.models import Q
from django.utils import timezone

from campaigns.models import CampaignCoach, Deck
from league.models import Fixture, Result


_AS_OF: ContextVar[datetime.date | None] = ContextVar("campaign_as_of", default=None)


def today() -> datetime.date:
    """The day the phase rules read: today, or the day a replay of past weeks is at."""
    return _AS_OF.get() or timezone.localdate()


@contextmanager
def as_of(day: datetime.date) -> Iterator[None]:
    """Replay a past week (the demo loads weeks already played): the phases are
    worked out as on ``day``."""
    token = _AS_OF.set(day)
    try:
        yield
    finally:
        _AS_OF.reset(token)


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


def next_match(fixtures: list[Fixture]) -> Fixture | None:
    """GB-20 Decision: the coach's next League Match is their first fixture by date
    (a rearranged fixture counts at its new date) without an approved result,
    one a withdrawal cancelled aside (LG-2: it is never played).
    ``fixtures`` are the coach's League Matches with their results loaded."""
    ordered = sorted(fixtures, key=lambda f: (f.date, f.round.number, f.pk))
    return next((f for f in ordered if not _approved(f) and not f.is_cancelled), None)


def _approved(fixture: Fixture) -> bool:
    result = fixture.result_or_none
    return result is not None and result.is_approved


def phase_for(coach: CampaignCoach, *, campaign_over: bool | None = None) -> Phase:
    """GB-20 Decision: the phase opens when the coach's previous match by date is
    approved, and closes when the next match's day starts or it is reported,
    whichever comes first."""
    fixtures = list(
        Fixture.objects.matches()
        .filter(Q(home_id=coach.entry_id) | Q(away_id=coach.entry_id))
        .select_related("round", "result", "home__coach", "away__coach")
    )
    if campaign_over is None:
        campaign_over = coach.campaign.is_over
    return _phase(
        fixtures, campaign_over,
        lambda nxt: coach.pk is not None and Deck.objects.filter(coach=coach, fixture=nxt).exists(),
    )


def phases_for(coaches: list[CampaignCoach], *, campaign_over: bool) -> dict[int, Phase]:
    """``phase_for`` for several coaches of one campaign in two queries (their
    fixtures and their decks), by campaign coach id: the other side of each deal a
    coach's page lists."""
    by_entry = {cc.entry_id: cc for cc in coaches}
    fixtures: dict[int, list[Fixture]] = {entry_id: [] for entry_id in by_entry}
    for f in (
        Fixture.objects.matches()
        .filter(Q(home_id__in=by_entry) | Q(away_id__in=by_entry))
        .select_related("round", "result", "home__coach", "away__coach")
    ):
        for entry_id in (f.home_id, f.away_id):
            if entry_id in fixtures:
                fixtures[entry_id].append(f)
    decks = set(
        Deck.objects.filter(coach_id__in=[cc.pk for cc in coaches if cc.pk]).values_list("coach_id", "fixture_id")
    )
    return {
        cc.pk: _phase(fixtures[cc.entry_id], campaign_over, lambda nxt, cc=cc: (cc.pk, nxt.pk) in decks)
        for cc in coaches
    }


def _phase(fixtures: list[Fixture], campaign_over: bool, has_deck) -> Phase:
    """The phase from the coach's League Matches (results loaded); ``has_deck(nxt)``
    says whether their deck for the next one is registered."""
    played = sum(1 for f in fixtures if _approved(f))
    nxt = next_match(fixtures)
    if campaign_over:
        return Phase(played, False, "the organiser has declared the Final Day", nxt, "Final Day")
    if nxt is not None and nxt.result_or_none is not None:
        result = nxt.result
        return Phase(
            played,
            False,
            f"your match in {nxt.round} has been reported; Wheeling & Dealing reopens when its result is approved",
            nxt,
            "confirm the result" if result.status == Result.Status.REPORTED else "wait for the organiser's approval",
        )
    if nxt is not None and today() >= nxt.date:
        return Phase(
            played,
            False,
            f"your match in {nxt.round} is due ({nxt.date:%d %b %Y}); Wheeling & Dealing reopens when its result "
            f"is approved",
            nxt,
            "play your match and report it",
        )
    if nxt is None:
        step = "Wheeling & Dealing (no League Match left)"
    elif not has_deck(nxt):
        step = "Wheeling & Dealing, then build your deck"
    else:
        step = "Wheeling & Dealing; your deck is registered"
    return Phase(played, True, "", nxt, step)
