"""The organiser's page of a DreadBall league's published teams (DR-5): every
league's, read-only, and the league's own, which the organiser adds and whose
rosters they enter. Each form posts here with its ``action``; a done write goes
back to the page, a refused one shows it again with the reason (400). The writes
are ``league.dreadball.published``'s."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db.models import Prefetch
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse

from league.permissions import get_league_for_organiser
from league.forms import refuse
from league.dreadball import published
from league.dreadball.models import PublishedPlayer, TeamType

ACTIONS = ("add_team", "edit_team", "add_line", "remove_line")


class TeamTypeForm(forms.ModelForm):
    class Meta:
        model = TeamType
        fields = ["name", "race", "notes"]
        widgets = {"notes": forms.Textarea(attrs={"rows": 2})}


class RosterLineForm(forms.ModelForm):
    class Meta:
        model = PublishedPlayer
        fields = list(published.LINE_FIELDS)


def _posted_id(request: HttpRequest, name: str) -> int | None:
    value = request.POST.get(name, "")
    return int(value) if value.isdigit() and len(value) <= 12 else None


@login_required
def published_teams(request: HttpRequest, slug: str) -> HttpResponse:
    league = get_league_for_organiser(request, slug)
    if league.game_system != published.GAME_SYSTEM:
        raise Http404(f"{league} is not a DreadBall league.")
    teams = list(published.offered_to(league).order_by("name").prefetch_related(
        Prefetch("roster", queryset=PublishedPlayer.objects.order_by("order", "id"))))
    own = {team.pk: team for team in teams if team.league_id == league.pk}
    action = request.POST.get("action") if request.method == "POST" else None
    chosen = own.get(_posted_id(request, "team")) if action in ("edit_team", "add_line") else None
    add_team = TeamTypeForm(request.POST if action == "add_team" else None, prefix="new",
                            instance=TeamType(league=league))
    for team in own.values():
        posted = request.POST if chosen is team else None
        team.edit_form = TeamTypeForm(posted if action == "edit_team" else None, prefix=f"team{team.pk}",
                                      instance=team)
        team.line_form = RosterLineForm(posted if action == "add_line" else None, prefix=f"line{team.pk}",
                                        instance=PublishedPlayer(team_type=team))
    status = 200
    if request.method == "POST":
        done = _act(request, league, action, chosen, add_team)
        if done is not None:
            return done
        status = 400
    return render(request, "dreadball/published_teams.html", {
        "league": league, "shared": [team for team in teams if team.league_id is None], "own": list(own.values()),
        "add_team": add_team,
    }, status=status)


def _act(request: HttpRequest, league, action: str | None, chosen: TeamType | None, add_team) -> HttpResponse | None:
    back = redirect(reverse("dreadball:published_teams", args=[league.slug]))
    if action not in ACTIONS or (action in ("edit_team", "add_line") and chosen is None):
        messages.error(request, "Choose what to change with one of the page's buttons.")
        return None
    by = request.user
    if action == "remove_line":
        try:
            line = published.remove_roster_line(league=league, by=by, line_id=_posted_id(request, "line") or 0)
        except ValidationError as error:
            messages.error(request, " ".join(error.messages))
            return None
        messages.success(request, f"{line.name} is off the {line.team_type.name}'s roster.")
        return back
    form = {"add_team": add_team, "edit_team": getattr(chosen, "edit_form", None),
            "add_line": getattr(chosen, "line_form", None)}[action]
    if not form.is_valid():
        return None
    try:
        if action == "add_team":
            team = published.save_team_type(league=league, by=by, values=form.cleaned_data)
            messages.success(request, f"The {team.name} is a published team of {league.name}: enter its roster.")
        elif action == "edit_team":
            team = published.save_team_type(league=league, by=by, values=form.cleaned_data, team_type=chosen)
            messages.success(request, f"The {team.name} is saved.")
        else:
            line = published.add_roster_line(league=league, by=by, team_type=chosen, values=form.cleaned_data)
            messages.success(request, f"{line.name} is on the {chosen.name}'s roster.")
    except ValidationError as error:
        refuse(form, error)
        return None
    return back
