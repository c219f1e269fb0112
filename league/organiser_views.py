"""The organiser's dashboard: a page of the site (not the admin) per league with
what waits on them, and one-click approval of results both coaches agreed on; and
the coaches locked out of logging in, with a button to let each in again."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render

from league import dashboard, lockout, selectors, services
from league.models import Coach
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



@login_required
def organiser_lockouts(request: HttpRequest, slug: str) -> HttpResponse:
    """The league's coaches who cannot log in just now after failed log-ins (issue
    19.2), each with a button that lets them in again (``unlock_coach``)."""
    league = get_league_for_organiser(request, slug)
    return render(
        request, "league/organiser_lockouts.html",
        {"league": league, "lockouts": lockout.lockouts_in(league), "limit": settings.AXES_FAILURE_LIMIT,
         "minutes": int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)},
    )


@login_required
def unlock_coach(request: HttpRequest, slug: str, coach_id: int) -> HttpResponse:
    """Lift the login lock of one of the league's coaches. A GET goes back to the
    page; a coach of another league is a 404."""
    league = get_league_for_organiser(request, slug)
    back = redirect("league:organiser_lockouts", slug=league.slug)
    if request.method != "POST":
        return back
    coach = get_object_or_404(
        Coach.objects.filter(entries__season__league=league).select_related("user").distinct(), pk=coach_id
    )
    if lockout.lift_lockouts(league=league, coach=coach, by=request.user):
        messages.success(request, f"{coach} can log in again.")
    else:
        messages.info(request, f"{coach} was not locked out.")
    return back
