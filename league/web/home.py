"""The coach's own page, ``/me/``: what waits on them in every league they play in,
and for an organiser what waits for approval."""

from __future__ import annotations

import functools
import hashlib

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone

from league import layers, selectors
from league.caching import kept_pages
from league.caching import versions
from league.models import League, Result
from league.accounts.permissions import coach_for


QUEUE_SHOWN = 30  # results waiting on an organiser that their own page lists


@login_required
def my_fixtures(request: HttpRequest) -> HttpResponse:
    """What waits on me: results to confirm, matches to report, what is coming up;
    for an organiser, the results waiting for approval. Kept per viewer, day and
    version of every season it reads (league/caching/kept_pages.py): one query for those
    versions, then a layer's panel that is not kept (league/layers.py) only when the
    viewer has a season or a league of its game (``Layer.coach_leagues``). A superuser, who sees every league's queue, is
    served as built."""
    build = functools.partial(_my_fixtures, request)
    if not kept_pages.keepable(request) or request.user.is_superuser:
        return build()
    coach = coach_for(request.user)
    seasons = versions.coach_versions(request.user.pk, coach.pk if coach is not None else None)
    games = {game for _, _, game in seasons}
    signature = ",".join(f"{pk}:{version}" for pk, version, _ in seasons if pk is not None)
    raw = f"{request.get_host()}|{request.user.pk}|{coach.pk if coach else ''}|{timezone.localdate():%Y-%m-%d}|{signature}"

    def panels(name: str, page: str) -> str:
        layer = layers.named(name)
        if coach is None or not layer.game_systems & games:
            return ""
        return layer.panels[page]({"coach": coach, "user": request.user, "request": request})

    return kept_pages.serve(request, f"kept:me:{hashlib.sha256(raw.encode()).hexdigest()}", build, panels=panels)


def _my_fixtures(request: HttpRequest) -> HttpResponse:
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
        },
    )
