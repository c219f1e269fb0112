"""DreadBall pages: a coach entered in a season registers their team (DR-5) on
the site; the organiser may do it for any coach of the season. Thin: the form
cleans, ``services.register_team`` decides."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse

from league import selectors
from league.dreadball import services
from league.dreadball.forms import RegisterTeamForm
from league.dreadball.models import DreadBallTeam
from league.models import Entry, League

GAME_SYSTEM = "dreadball"


@login_required
def register_team(request: HttpRequest, slug: str) -> HttpResponse:
    """DR-5: name the team and pick its published team (it starts with that team's
    roster). The coach's own entry in the league's current season; the organiser
    chooses the coach. Anyone else: 403."""
    league = get_object_or_404(League, slug=slug)
    if league.game_system != GAME_SYSTEM:
        raise Http404(f"{league} is not a DreadBall league.")
    season = selectors.season_for(league)
    if season is None:
        raise Http404(f"{league} has no season yet.")
    organiser = league.is_organised_by(request.user)
    own = (Entry.objects.filter(season=season, coach__user=request.user, withdrawn_at__isnull=True)
           .select_related("coach").first())
    if own is None and not organiser:
        raise PermissionDenied("Only a coach entered in the season, or the organiser, registers a team.")
    as_organiser = organiser and own is None or organiser and "entry" in request.POST
    form = RegisterTeamForm(request.POST if request.method == "POST" else None, season=season, organiser=as_organiser)
    existing = DreadBallTeam.objects.filter(entry=own).select_related("team_type").first() if own else None
    if existing is not None and request.method != "POST":
        form.initial.update(name=existing.name, team_type=existing.team_type_id)
    elif own is not None and own.team and request.method != "POST":
        form.initial.update(name=own.team)  # the name the organiser's invitation gave the team
    if request.method == "POST" and form.is_valid():
        entry = form.cleaned_data.get("entry") or own
        try:
            team = services.register_team(entry=entry, name=form.cleaned_data["name"],
                                          team_type=form.cleaned_data["team_type"], by=request.user)
        except ValidationError as error:
            form.add_error(None, error)  # a refusal naming a field (DR-5's published team) shows at it
        else:
            messages.success(request, f"{team.name} plays the {team.team_type.name}.")
            return redirect(reverse("league:coach_detail", args=[league.slug, entry.coach_id]))
    return render(request, "dreadball/register_team.html", {
        "league": league, "season": season, "form": form, "existing": existing, "own": own,
    }, status=400 if request.method == "POST" and form.errors else 200)
