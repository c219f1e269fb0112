"""The coach's profile across every league (``/coaches/<id>/``) and head-to-head
between two coaches (``/coaches/<id>/vs/<other_id>/``). Public: a coach's name,
their leagues and results are on every league page already; no email is read."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from league.caching import pages
from league.models import Coach
from league.profiles import selectors
from league.records.titles import titles_won


def _coach(coach_id: int) -> Coach:
    # Only what the pages show: never the email or the account.
    return get_object_or_404(Coach.objects.only("pk", "name"), pk=coach_id)


@pages.coaches_page(lambda coach_id: [coach_id])
def coach_profile(request: HttpRequest, coach_id: int) -> HttpResponse:
    """Every league, season and team of the coach, their results a page at a time,
    the titles each game says they won, their record per game and against the
    coaches they met most."""
    coach = _coach(coach_id)
    page = Paginator(selectors.results([coach.pk]), selectors.RESULTS_PER_PAGE).get_page(request.GET.get("page"))
    return render(request, "profiles/coach_profile.html", {
        "coach": coach,
        "entries": selectors.entries(coach),
        "page": page,
        "lines": [_line(fixture, coach.pk) for fixture in page.object_list],
        "totals": selectors.totals_per_game(coach),
        "opponents": selectors.frequent_opponents(coach),
        "titles": titles_won(coach.pk),
    })


@pages.coaches_page(lambda coach_id, other_id: [coach_id, other_id])
def head_to_head(request: HttpRequest, coach_id: int, other_id: int) -> HttpResponse:
    """Every meeting of two coaches, in any league and season, and the record of
    the first against the second per game."""
    if coach_id == other_id:
        raise Http404("A coach does not meet themselves.")
    coach, other = _coach(coach_id), _coach(other_id)
    page = Paginator(selectors.meetings(coach, other), selectors.RESULTS_PER_PAGE).get_page(request.GET.get("page"))
    return render(request, "profiles/head_to_head.html", {
        "coach": coach,
        "other": other,
        "page": page,
        "lines": [_line(fixture, coach.pk) for fixture in page.object_list],
        "totals": selectors.pair_totals(coach, other),
    })


def _line(fixture, coach_id: int) -> dict:
    """One result as a profile lists it, from ``coach_id``'s side."""
    result = fixture.result
    mine, theirs = ("home", "away") if fixture.home.coach_id == coach_id else ("away", "home")
    if result.outcome == result.Outcome.ABANDONED:
        outcome = "Abandoned"
    elif result.outcome == result.Outcome.DRAW:
        outcome = "D"
    else:
        outcome = "W" if result.outcome == mine else "L"
    entry, opponent = fixture.entry_for(mine), fixture.entry_for(theirs)
    score = (f"{getattr(result, f'{mine}_score')}–{getattr(result, f'{theirs}_score')}"
             if result.home_score is not None and result.away_score is not None else "")
    return {"fixture": fixture, "outcome": outcome, "score": score, "summary": result.summary,
            "team": entry.team, "opponent": opponent, "season": fixture.round.season,
            "league": fixture.round.season.league}
