"""The organiser's page of a Dungeon Bowl league's Colleges of Magic (DB-6,
DB-7): every league's, read-only, and the league's own, which the organiser adds
and gives a roster (lines with their limits, positions). Each form posts here
with its ``action``; a done write goes back to the page, a refused one shows it
again with the reason (400). The writes are
``league.dungeonbowl.teams.league_colleges``'s."""

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
from league.dungeonbowl.teams import league_colleges
from league.dungeonbowl.models import College, Position, PositionGroup
from league.dungeonbowl.models.teams import GAME_SYSTEM
from league.text.plaintext import PlainTextField

ACTIONS = ("add_college", "edit_college", "add_group", "add_position", "remove_position")


class CollegeForm(forms.ModelForm):
    class Meta:
        model = College
        fields = list(league_colleges.COLLEGE_FIELDS)
        labels = {"reroll_cost": "Re-roll cost (gp)", "wizard": "College Wizard", "wizard_cost": "Wizard's cost (gp)"}
        help_texts = {"reroll_cost": "Per team re-roll when drafting; double when bought later."}


class GroupForm(forms.ModelForm):
    class Meta:
        model = PositionGroup
        fields = ["name", "max_count"]
        labels = {"name": "Line", "max_count": "At most"}
        help_texts = {"name": 'The roster\'s line, e.g. "Linemen" or "Special".',
                      "max_count": "The most players of this line's positions a team may have, between them."}


class PositionForm(forms.ModelForm):
    skill_names = PlainTextField(label="Skills", required=False, max_length=500,
                                  help_text="Separated by commas, e.g. Block, Thick Skull.")

    class Meta:
        model = Position
        fields = ["group", *league_colleges.POSITION_FIELDS]
        labels = {"group": "Line"}

    def __init__(self, *args, college: College, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["group"].queryset = college.groups.all()

    def clean_skill_names(self) -> list[str]:
        return [" ".join(name.split()) for name in self.cleaned_data["skill_names"].split(",") if name.strip()]


def _posted_id(request: HttpRequest, name: str) -> int | None:
    value = request.POST.get(name, "")
    return int(value) if value.isdigit() and len(value) <= 12 else None


@login_required
def colleges_page(request: HttpRequest, slug: str) -> HttpResponse:
    league = get_league_for_organiser(request, slug)
    if league.game_system != GAME_SYSTEM:
        raise Http404(f"{league} is not a Dungeon Bowl league.")
    colleges = list(College.for_league(league.pk).order_by("name").prefetch_related(
        Prefetch("groups", queryset=PositionGroup.objects.order_by("order", "id")),
        Prefetch("positions", queryset=Position.objects.select_related("group").order_by("group__order", "order", "id")),
    ))
    own = {college.pk: college for college in colleges if college.league_id == league.pk}
    action = request.POST.get("action") if request.method == "POST" else None
    chosen = own.get(_posted_id(request, "college")) if action in ("edit_college", "add_group", "add_position") else None
    add_college = CollegeForm(request.POST if action == "add_college" else None, prefix="new",
                              instance=College(league=league))
    for college in own.values():
        posted = request.POST if college is chosen else None
        college.edit_form = CollegeForm(posted if action == "edit_college" else None, prefix=f"college{college.pk}",
                                        instance=college)
        college.group_form = GroupForm(posted if action == "add_group" else None, prefix=f"group{college.pk}",
                                       instance=PositionGroup(college=college))
        college.position_form = PositionForm(posted if action == "add_position" else None, college=college,
                                             prefix=f"position{college.pk}", instance=Position(college=college))
    status = 200
    if request.method == "POST":
        done = _act(request, league, action, chosen, add_college)
        if done is not None:
            return done
        status = 400
    return render(request, "dungeonbowl/league_colleges.html", {
        "league": league, "own": list(own.values()), "shared": [c for c in colleges if c.league_id is None],
        "add_college": add_college,
    }, status=status)


def _act(request: HttpRequest, league, action: str | None, chosen: College | None, add_college) -> HttpResponse | None:
    back = redirect(reverse("dungeonbowl:league_colleges", args=[league.slug]))
    if action not in ACTIONS or (action in ("edit_college", "add_group", "add_position") and chosen is None):
        messages.error(request, "Choose what to change with one of the page's buttons.")
        return None
    by = request.user
    if action == "remove_position":
        try:
            position = league_colleges.remove_position(league=league, by=by,
                                                       position_id=_posted_id(request, "position") or 0)
        except ValidationError as error:
            messages.error(request, " ".join(error.messages))
            return None
        messages.success(request, f"{position.name} is off {position.college.name}'s roster.")
        return back
    form = {"add_college": add_college, "edit_college": getattr(chosen, "edit_form", None),
            "add_group": getattr(chosen, "group_form", None),
            "add_position": getattr(chosen, "position_form", None)}[action]
    if not form.is_valid():
        return None
    data = form.cleaned_data
    try:
        if action == "add_college":
            college = league_colleges.save_college(league=league, by=by, values=data)
            messages.success(request, f"{college.name} is a college of {league.name}: give it its roster.")
        elif action == "edit_college":
            college = league_colleges.save_college(league=league, by=by, values=data, college=chosen)
            messages.success(request, f"{college.name} is saved.")
        elif action == "add_group":
            group = league_colleges.add_group(league=league, by=by, college=chosen, name=data["name"],
                                              max_count=data["max_count"])
            messages.success(request, f"{chosen.name} has a line {group} now.")
        else:
            position = league_colleges.add_position(league=league, by=by, college=chosen, group=data["group"],
                                                    values=data, skills=data["skill_names"])
            messages.success(request, f"{position.name} is on {chosen.name}'s roster.")
    except ValidationError as error:
        refuse(form, error)
        return None
    return back
