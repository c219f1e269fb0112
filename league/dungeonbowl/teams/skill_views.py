"""The organiser's page of a Dungeon Bowl league's skill list (DB-11): every
league's skills, read-only, and the league's own, which the organiser adds and
changes. A done write goes back to the page; a refused one shows it again with
the reason (400). The writes are ``league.dungeonbowl.teams.league_skills``'s."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse

from league.permissions import get_league_for_organiser
from league.forms import refuse
from league.dungeonbowl.teams import league_skills
from league.dungeonbowl.models import Skill
from league.dungeonbowl.models.teams import GAME_SYSTEM


class SkillForm(forms.ModelForm):
    class Meta:
        model = Skill
        fields = ["name", "category"]


@login_required
def skills_page(request: HttpRequest, slug: str) -> HttpResponse:
    league = get_league_for_organiser(request, slug)
    if league.game_system != GAME_SYSTEM:
        raise Http404(f"{league} is not a Dungeon Bowl league.")
    skills = list(Skill.for_league(league.pk).order_by("name"))
    own = {skill.pk: skill for skill in skills if skill.league_id == league.pk}
    posted = request.POST.get("skill", "") if request.method == "POST" else ""
    chosen = own.get(int(posted)) if posted.isdigit() and len(posted) <= 12 else None
    add = SkillForm(request.POST if request.method == "POST" and not posted else None, prefix="new",
                    instance=Skill(league=league))
    for skill in own.values():
        skill.form = SkillForm(request.POST if skill is chosen else None, prefix=f"skill{skill.pk}", instance=skill)
    status = 200
    if request.method == "POST":
        form = chosen.form if chosen is not None else add
        if posted and chosen is None:
            messages.error(request, "Choose one of the league's own skills to change.")
        elif form.is_valid():
            try:
                saved = league_skills.save_skill(league=league, by=request.user, skill=chosen,
                                                 name=form.cleaned_data["name"], category=form.cleaned_data["category"])
            except ValidationError as error:
                refuse(form, error)
            else:
                messages.success(request, f"{saved.label} is on {league.name}'s skill list.")
                return redirect(reverse("dungeonbowl:league_skills", args=[league.slug]))
        status = 400
    return render(request, "dungeonbowl/league_skills.html", {
        "league": league, "own": list(own.values()), "shared": [s for s in skills if s.league_id is None], "add": add,
    }, status=status)
