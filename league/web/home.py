"""The coach's own page, ``/me/``: what waits on them in every league they play in,
and for an organiser what waits for approval."""

from __future__ import annotations


from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone

from league import layers, selectors
from league.caching import pages
from league.models import League, Result
from league.people import merges
from league.permissions import coach_for
from league.people import join_requests


QUEUE_SHOWN = 30  # results waiting on an organiser that their own page lists


def _me_viewer(request: HttpRequest, seen) -> str:
    """/me/ is the viewer's own: kept per account and coach. A merge request waiting
    on them is a new version of their seasons (league/apps.py tracks it); the join
    requests it shows are in ``seen`` (league/caching/versions.py ``coach_versions``)."""
    coach = coach_for(request.user)
    return f"{request.user.pk}|{coach.pk if coach else ''}"


def _me_panels(request: HttpRequest, seen, name: str, page: str) -> str:
    """A layer's panel that is not kept, only when the viewer has a season or a
    league of its game (``Layer.coach_leagues``)."""
    coach = coach_for(request.user)
    layer = layers.named(name)
    if coach is None or not layer.game_systems & {game for _, _, game in seen.rows}:
        return ""
    return layer.panels[page]({"coach": coach, "user": request.user, "request": request})


@login_required
@pages.kept_page(pages.coach_seasons, _me_viewer, skip=lambda request: request.user.is_superuser, panels=_me_panels)
def my_fixtures(request: HttpRequest) -> HttpResponse:
    """What waits on me: results to confirm, matches to report, what is coming up;
    for an organiser, the results waiting for approval. Kept per viewer, day and
    version of every season it reads (league/caching/pages.py): one query for those
    versions, then a layer's panel that is not kept (league/layers.py) only when the
    viewer has a season or a league of its game. A superuser, who sees every
    league's queue, is served as built."""
    coach = coach_for(request.user)
    to_confirm, to_report, upcoming, awaiting_opponent, recent = [], [], [], [], []
    leagues: dict[int, League] = {}
    fixtures = selectors.coach_fixtures(coach) if coach is not None else []
    if coach is not None:
        for fixture in fixtures:
            leagues.setdefault(fixture.round.season.league_id, fixture.round.season.league)
            if fixture.is_cancelled:  # LG-2: nothing waits on anyone for it
                continue
            if fixture.is_bye:
                upcoming.append(fixture)
                continue
            result = fixture.result_or_none
            side = fixture.side_of(coach)
            if result is None:
                (to_report if fixture.date <= timezone.localdate() else upcoming).append(fixture)
            elif result.status == Result.Status.REPORTED and result.confirming_side == side:
                to_confirm.append(fixture)
            elif result.is_approved:
                recent.append(fixture)
            else:
                awaiting_opponent.append(fixture)
    # The first ones only, so the page stays small: the organiser's dashboard has them all, grouped.
    # Any organiser, staff or not: one who started a league on the site is not staff.
    organiser_queue = list(selectors.results_needing_organiser(request.user)[:QUEUE_SHOWN + 1])
    return render(
        request,
        "league/my_fixtures.html",
        {
            "coach": coach,
            "to_confirm": to_confirm,
            "to_report": to_report,
            "upcoming": upcoming,
            "awaiting": awaiting_opponent,
            "recent": recent[-10:][::-1],
            "organiser_queue": organiser_queue[:QUEUE_SHOWN],
            "queue_more": len(organiser_queue) > QUEUE_SHOWN,
            "fixtures": fixtures,  # for the layers' panels (what waits in a campaign)
            "leagues": sorted(leagues.values(), key=lambda league: league.name),
            "waiting_requests": join_requests.pending_for(request.user),
            "merge_requests": list(merges.open_requests_for(request.user)),
        },
    )
