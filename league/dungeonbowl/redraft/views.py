"""The off-season pages (DB-15): a team's re-draft, step by step, and the
commissioner's page opening the next season. Anyone may read a re-draft (its
budget is in the team feed too); its coach and the league's commissioner run the
steps; the commissioner alone enters table rolls (DB-16) and goes back a step."""

from __future__ import annotations

import datetime

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse

from league import confirm as confirmation
from league.datebounds import MatchDateField
from league.dungeonbowl.redraft import selectors as redraft_selectors, services as redraft
from league.dungeonbowl.teams import rules as team_rules
from league.dungeonbowl.models import Player, Position, Redraft, RedraftRoll, RedraftStep, Team
from league.dungeonbowl.seasons import season_over
from league.dungeonbowl.units import gp
from league.dungeonbowl.teams.views import dungeonbowl_league
from league.models import League
from league.text.plaintext import PlainTextField

Step = RedraftStep


# Forms -----------------------------------------------------------------------------------


def _dice(text: str, label: str) -> list[int]:
    """ "4 2" -> [4, 2]: D6 rolls typed from the table."""
    try:
        values = [int(part) for part in text.replace(",", " ").split()]
    except ValueError:
        raise forms.ValidationError(f"{label}: type each D6 as a number from 1 to 6, e.g. 4 2.") from None
    if any(not 1 <= v <= 6 for v in values):
        raise forms.ValidationError(f"{label}: a D6 shows 1 to 6.")
    return values


class ScoutingForm(forms.Form):
    """DB-15 step 1: the commissioner may type the table's D6 per player; blank
    boxes are rolled by the app."""

    def __init__(self, *args, players: list[Player], table: bool, **kwargs):
        super().__init__(*args, **kwargs)
        self.players = players
        if table:
            for p in players:
                self.fields[f"roll_{p.pk}"] = forms.IntegerField(
                    label=f"#{p.number} {p.name} ({p.mvp_awards} MVP)", min_value=1, max_value=6, required=False,
                    help_text="The D6 rolled at the table; blank: the app rolls.",
                    error_messages={"min_value": "A D6 shows 1 to 6.", "max_value": "A D6 shows 1 to 6."},
                    widget=forms.NumberInput(attrs={"inputmode": "numeric", "class": "narrow"}),
                )

    def table(self) -> dict[int, int]:
        return {p.pk: self.cleaned_data[f"roll_{p.pk}"] for p in self.players
                if self.cleaned_data.get(f"roll_{p.pk}") is not None}


class RedraftForm(forms.Form):
    """DB-15 step 4: returning players ticked, rookies counted per position, the
    re-rolls kept or bought at the roster price."""

    rerolls = forms.IntegerField(
        label="Team re-rolls", min_value=0, max_value=team_rules.MAX_REROLLS,
        error_messages={"max_value": f"A team drafts 0 to {team_rules.MAX_REROLLS} re-rolls.",
                        "min_value": "Team re-rolls cannot be fewer than 0.", "required": "Enter the team re-rolls (0 if none)."},
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "class": "narrow", "data-stepper": "", "data-counts": "rerolls"}),
    )

    def __init__(self, *args, team: Team, players: list[Player], positions: list[Position], table: bool, **kwargs):
        super().__init__(*args, **kwargs)
        self.team, self.players, self.positions, self.has_table = team, players, positions, table
        self.fields["rerolls"].initial = team.rerolls
        # static/js/forms.js adds up data-cost and counts per data-counts key (the keys of
        # team_rules.check_draft's limits) for the running total.
        self.fields["rerolls"].widget.attrs["data-cost"] = team.college.reroll_cost
        for p in players:
            self.fields[f"rehire_{p.pk}"] = forms.BooleanField(
                label=(f"#{p.number} {p.name} ({p.position.name}, {p.spp} SPP"
                       f"{f', {p.niggling_injuries} Niggling' if p.niggling_injuries else ''}): value {gp(p.value)}"
                       f" + {gp(redraft_selectors.rehire_cost(p) - p.value)} for {p.seasons_played + 1} season(s)"
                       f" = {gp(redraft_selectors.rehire_cost(p))}"),
                required=False, initial=True,
                widget=forms.CheckboxInput(attrs={
                    "data-cost": redraft_selectors.rehire_cost(p), "data-counts": f"players|group:{p.position.group.name}",
                }),
            )
            if table and p.niggling_injuries:
                self.fields[f"niggling_{p.pk}"] = PlainTextField(
                    label=f"#{p.number} {p.name}: {p.niggling_injuries} Niggling Injury D6", required=False, max_length=40,
                    help_text="Rolled at the table, e.g. 4 2; blank: the app rolls.",
                )
        for position in positions:
            self.fields[f"pos_{position.pk}"] = forms.IntegerField(
                label=f"New {position.name} ({gp(position.cost)}; {position.group.name})", min_value=0,
                max_value=team_rules.MAX_PLAYERS, required=False, initial=0,
                error_messages={"max_value": f"A team has at most {team_rules.MAX_PLAYERS} players."},
                widget=forms.NumberInput(attrs={
                    "inputmode": "numeric", "class": "narrow", "min": 0, "max": team_rules.MAX_PLAYERS, "data-stepper": "",
                    "data-cost": position.cost, "data-counts": f"players|group:{position.group.name}",
                }),
            )

    def clean(self):
        data = super().clean()
        self.niggling: dict[int, list[int]] = {}
        for p in self.players:
            text = (data.get(f"niggling_{p.pk}") or "").strip()
            if text and data.get(f"rehire_{p.pk}"):
                try:
                    self.niggling[p.pk] = _dice(text, f"#{p.number} {p.name}")
                except forms.ValidationError as error:
                    self.add_error(f"niggling_{p.pk}", error)
        return data

    def rehire(self) -> list[int]:
        return [p.pk for p in self.players if self.cleaned_data.get(f"rehire_{p.pk}")]

    def rookies(self) -> list[str]:
        return [p.name for p in self.positions for _ in range(self.cleaned_data.get(f"pos_{p.pk}") or 0)]

    def check(self, budget: int) -> team_rules.DraftCheck:
        """The cost, budget left and limits of the re-draft as the form stands (as
        shown: everyone re-hired, no rookies; or what was sent)."""
        data = getattr(self, "cleaned_data", None)
        if data is None:
            returning, rookies, rerolls = self.players, [], self.fields["rerolls"].initial or 0
        else:
            returning = [p for p in self.players if data.get(f"rehire_{p.pk}")]
            rookies, rerolls = self.rookies(), data.get("rerolls") or 0
        return redraft.check_redraft(self.team, returning, rookies, rerolls, budget, self.positions)

    def rehire_fields(self):
        return [self[f"rehire_{p.pk}"] for p in self.players]

    def niggling_fields(self):
        return [self[name] for name in self.fields if name.startswith("niggling_")]

    def position_fields(self):
        return [self[f"pos_{p.pk}"] for p in self.positions]


class GoBackForm(forms.Form):
    to = forms.TypedChoiceField(
        label="Take the re-draft back to", coerce=int,
        choices=[(s.value, f"{s.value}. {s.label}") for s in (Step.SCOUTING, Step.RECOVERY, Step.FUNDS, Step.DRAFT)],
        error_messages={"invalid_choice": "Choose a step from 1 to 4."},
    )


class NextSeasonForm(forms.Form):
    DIVISIONS = [(redraft.KEEP, "Keep last season's divisions (new teams join the smallest)"), ("0", "No divisions"),
                 ("2", "Draw 2 divisions"), ("3", "Draw 3 divisions"), ("4", "Draw 4 divisions")]

    name = PlainTextField(max_length=100, error_messages={"required": "Name the new season."})
    # ISO-formatted, so the date picker shows the initial date (a British
    # "03/12/2026" left it empty).
    start_date = MatchDateField(error_messages={"required": "When does the season start?", "invalid": "Enter a date."})
    divisions = forms.ChoiceField(choices=DIVISIONS, initial=redraft.KEEP,
                                  error_messages={"invalid_choice": "Keep, none, or draw 2 to 4 divisions."})

    def division_choice(self) -> str | int:
        value = self.cleaned_data["divisions"]
        return value if value == redraft.KEEP else int(value)


# Views -----------------------------------------------------------------------------------


def _team(league: League, team_slug: str) -> Team:
    team = get_object_or_404(Team.objects.select_related("coach", "college"), league=league, slug=team_slug)
    team.league = league
    return team


def redraft_page(request: HttpRequest, slug: str, team_slug: str) -> HttpResponse:
    """DB-15, step by step. A POST takes the step its ``action`` names."""
    league = dungeonbowl_league(slug)
    team = _team(league, team_slug)
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        return _act(request, league, team)
    return _render(request, league, team)


def _render(request: HttpRequest, league: League, team: Team, *, bound: forms.Form | None = None) -> HttpResponse:
    """The page; ``bound`` is a refused step's form, shown again with its errors
    (status 400, as every refused form of the site)."""
    organiser = league.is_organised_by(request.user)
    may_run = organiser or (request.user.is_authenticated and team.coach.user_id == request.user.pk)
    sheet = redraft_selectors.redraft_sheet(team)
    context = {"league": league, "team": team, "sheet": sheet, "organiser": organiser, "may_run": may_run}
    if may_run and sheet.season is not None:
        if sheet.step == Step.SCOUTING:
            context["scouting_form"] = (bound if isinstance(bound, ScoutingForm)
                                        else ScoutingForm(players=sheet.mvp_players, table=organiser))
        elif sheet.step == Step.DRAFT:
            context["draft_form"] = (bound if isinstance(bound, RedraftForm)
                                     else _draft_form(None, team, sheet.players, organiser))
            context["budget"] = sheet.redraft.budget
            context["check"] = context["draft_form"].check(sheet.redraft.budget)
        if organiser and sheet.redraft is not None:
            context["back_form"] = GoBackForm()
    return render(request, "dungeonbowl/redraft.html", context, status=200 if bound is None else 400)


def _draft_form(data, team: Team, players: list[Player], table: bool) -> RedraftForm:
    positions = list(Position.objects.filter(college_id=team.college_id).select_related("group")
                     .order_by("group__order", "order", "id"))
    return RedraftForm(data, team=team, players=players, positions=positions, table=table)


def _act(request: HttpRequest, league: League, team: Team) -> HttpResponse:
    organiser = league.is_organised_by(request.user)
    if not organiser and team.coach.user_id != request.user.pk:
        raise PermissionDenied("Only the team's coach or the league's organiser re-drafts it.")
    action, by = request.POST.get("action"), request.user
    here = reverse("dungeonbowl:redraft", args=[league.slug, team.slug])
    try:
        if action == "scout":
            players = list(team.players.on_draft_list().filter(mvp_awards__gt=0).order_by("number"))
            form = ScoutingForm(request.POST, players=players, table=organiser)
            if not form.is_valid():
                return _render(request, league, team, bound=form)
            done = redraft.scout(team=team, by=by, table=form.table())
            gone = done.rolls.filter(current=True, purpose=RedraftRoll.Purpose.SCOUTING, effect=True).count()
            message = f"Scouting rolled for {len(players)} player(s); {gone} left for a Blood Bowl team."
        elif action == "recover":
            redraft.recover(team=team, by=by)
            message = "R&R: every player who would have missed the next game has recovered."
        elif action == "funds":
            done = redraft.raise_funds(team=team, by=by)
            message = f"Re-Draft Budget: {gp(done.budget)}. The Treasury is emptied."
        elif action == "draft":
            players = list(team.players.on_draft_list().select_related("position__group").order_by("number"))
            form = _draft_form(request.POST, team, players, organiser)
            if not form.is_valid():
                return _render(request, league, team, bound=form)
            done = redraft.redraft_team(team=team, by=by, rehire=form.rehire(), rookies=form.rookies(),
                                        rerolls=form.cleaned_data["rerolls"], niggling=form.niggling)
            message = f"{team.name} is re-drafted; {gp(done.opened.amount)} opens the Treasury."
        elif action == "retire":
            if not confirmation.confirmed(request):  # asked first, nothing written yet: it cannot be undone
                return confirmation.ask(
                    request, title=f"Retire {team.name}?", back=here, button=f"Retire {team.name}",
                    consequence=(f"{team.name} is not re-drafted: it retires with its history and leaves the league's "
                                 "next season; its coach may draft a new team. Only the organiser can take a "
                                 "re-draft back."),
                )
            redraft.retire_team(team=team, by=by)
            message = f"{team.name} retires with its history; its coach may draft a new team."
        elif action == "back":
            form = GoBackForm(request.POST)
            _valid(form)
            done = redraft.go_back(team=team, to=form.cleaned_data["to"], by=by)
            message = f"The re-draft is back at step {done.step}: {done.get_step_display()}."
        else:
            raise ValidationError("Choose a step to take.")
    except ValidationError as error:
        # Only a scouting or draft form is shown again: a POST naming no step (or
        # another) while the team waits on nothing had no form to show (a 500,
        # found by the role matrix).
        if action in ("scout", "draft") and _waits_on(team) == {"scout": Step.SCOUTING, "draft": Step.DRAFT}[action]:
            # the form again, with what was typed and every reason
            for message in error.messages:
                form.add_error(None, message)
            return _render(request, league, team, bound=form)
        messages.error(request, " ".join(error.messages))
        return redirect(here)
    messages.success(request, message)
    return redirect(here)


def _waits_on(team: Team) -> int | None:
    """The step the team's re-draft waits on, None outside an off-season."""
    season = redraft_selectors.off_season(team)
    if season is None:
        return None
    step = Redraft.objects.filter(team=team, season=season).values_list("step", flat=True).first()
    return Step.SCOUTING if step is None else step


def _valid(form: forms.Form) -> dict:
    if not form.is_valid():
        raise ValidationError([f"{form.fields[name].label}: {m}" if name in form.fields and form.fields[name].label
                               else m for name, errors in form.errors.items() for m in errors])
    return form.cleaned_data


@login_required
def next_season_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The commissioner opens the next season (DB-3) once the last one is over."""
    league = dungeonbowl_league(slug)
    if not league.is_organised_by(request.user):
        raise PermissionDenied("Only the league's organiser opens the next season.")
    plan = redraft_selectors.next_season(league)
    form = NextSeasonForm(request.POST or None, initial={"start_date": datetime.date.today()})
    status = 200
    if request.method == "POST" and form.is_valid():
        try:
            season = redraft.open_next_season(league=league, by=request.user, name=form.cleaned_data["name"],
                                              start_date=form.cleaned_data["start_date"],
                                              divisions=form.division_choice())
        except ValidationError as error:
            for message in error.messages:
                form.add_error(None, message)
        else:
            messages.success(request, f"{season.name} is open: {len(plan.ready)} teams, fixtures generated.")
            return redirect(league.get_absolute_url())
    if request.method == "POST":
        status = 400
    over = plan.season is not None and season_over(plan.season)
    return render(request, "dungeonbowl/next_season.html",
                  {"league": league, "plan": plan, "form": form, "over": over}, status=status)
