"""The organiser's dashboard: a page of the site (not the admin) per league with
what waits on them, and one-click approval of results both coaches agreed on."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from league import dashboard, selectors, services
from league.permissions import get_league_for_organiser


@login_required
def organiser_dashboard(request: HttpRequest, slug: str) -> HttpResponse:
    """Disputes, reports unconfirmed for three days, confirmed results to approve,
    overdue matches and (from the league's layers) Moments to confirm, for the
    league's current season. A fixed number of queries whatever its size."""
    league = get_league_for_organiser(request, slug)
    season = selectors.season_for(league)
    found = dashboard.queue(season) if season is not None else dashboard.Queue()
    return render(
        request,
        "league/organiser_dashboard.html",
        {"league": league, "season": season, "queue": found, "stale_days": dashboard.STALE_AFTER.days},
    )


@login_required
def approve_from_dashboard(request: HttpRequest, slug: str) -> HttpResponse:
    """Approve one confirmed result (``result``) or every confirmed one (``all``).
    Only CONFIRMED results: one a coach has not agreed to is approved from its
    fixture page, where the organiser can give a reason. A GET goes back to the
    dashboard (a reload never shows a 405)."""
    league = get_league_for_organiser(request, slug)
    back = redirect("league:organiser_dashboard", slug=league.slug)
    if request.method != "POST":
        return back
    season = selectors.season_for(league)
    confirmed = dashboard.confirmed_results(season) if season is not None else []
    if "all" in request.POST:
        chosen = confirmed
    else:
        wanted = request.POST.get("result", "")
        chosen = [r for r in confirmed if str(r.pk) == wanted]
        if not chosen:
            messages.error(request, "That result is no longer waiting for approval: it was approved, reopened or disputed.")
            return back
    approved, refused = [], []
    for result in chosen:
        try:
            services.approve_result(result=result, by=request.user)
        except ValidationError as error:
            refused.append(f"{result.fixture}: {' '.join(error.messages)}")
        else:
            approved.append(result)
    if approved:
        names = "; ".join(f"{r.fixture.home} {r.summary} {r.fixture.away}" for r in approved) if len(approved) <= 3 else ""
        count = f"{len(approved)} result{'s' if len(approved) != 1 else ''}"
        messages.success(request, f"Approved {count}{': ' + names if names else ''}. The standings include them now.")
    for line in refused:
        messages.error(request, line)
    if not approved and not refused:
        messages.info(request, "No confirmed result is waiting for approval.")
    return back

