"""Dungeon Bowl's team pages: the team page and feed, the league's dice log, the draft
form, founding, accepting, locking and entering a team, and who is ready. Thin: forms
clean, services decide, selectors read. The team page carries the spending forms,
which post to ``league.dungeonbowl.spending.views``."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from league import selectors as engine_selectors
from league.dungeonbowl.teams import entrants, rules as team_rules, selectors, services
from league.dungeonbowl.redraft import selectors as redraft_selectors
from league.dungeonbowl.teams.forms import DraftForm, EntryForm, NewTeamForm
from league.dungeonbowl.spending.forms import AdvanceForm, FireForm, HireForm, JourneymanForm
from league.dungeonbowl.models import GAME_SYSTEM, College, DiceRoll, Team, TeamSeason
from league.models import League
from league.permissions import coach_for
from league.text.words import possessive


def dungeonbowl_league(slug: str) -> League:
    """The league at ``slug``, a 404 unless it plays Dungeon Bowl: what every Dungeon
    Bowl page reads first (the spending and re-draft pages too)."""
    league = get_object_or_404(League, slug=slug)
    if league.game_system != GAME_SYSTEM:
        raise Http404(f"{league} is not a Dungeon Bowl league.")
    return league


def team_detail(request: HttpRequest, slug: str, team_slug: str) -> HttpResponse:
    return team_page(request, dungeonbowl_league(slug), team_slug)


def team_page(request: HttpRequest, league: League, team_slug: str, *, journeyman_form: forms.Form | None = None,
               status: int = 200) -> HttpResponse:
    """The team page; a refused Journeyman hire shows it again with its form's reasons."""
    sheet = selectors.team_sheet(league, team_slug)
    team = sheet.team
    # DB-15: the re-draft is the off-season's, so its link shows once the season is over.
    context = {"league": league, "sheet": sheet, "team": team,
               "off_season": redraft_selectors.off_season(team) is not None}
    if request.user.is_authenticated and (team.coach.user_id == request.user.pk or league.is_organised_by(request.user)):
        context.update(hire_form=HireForm(team=team), fire_form=FireForm(team=team), advance_form=AdvanceForm(team=team),
                       reroll_cost=2 * team.college.reroll_cost, squad_full=len(sheet.players) >= team_rules.MAX_PLAYERS,
                       journeyman_form=journeyman_form or JourneymanForm(team=team))
    return render(request, "dungeonbowl/team_detail.html", context, status=status)


def team_json(request: HttpRequest, slug: str, team_slug: str) -> JsonResponse:
    league = dungeonbowl_league(slug)
    sheet = selectors.team_sheet(league, team_slug)
    data = selectors.team_json(sheet)
    feed = redraft_selectors.redraft_feed(sheet.team)
    if feed is not None:  # DB-15: only during the off-season
        data["redraft"] = feed
    return JsonResponse(data)


def dice_log(request: HttpRequest, slug: str) -> HttpResponse:
    """DB-16: every roll of the league, newest first, with who rolled and why."""
    league = dungeonbowl_league(slug)
    rolls = DiceRoll.objects.filter(league=league).select_related("team", "entered_by").order_by("-created_at", "-id")
    return render(request, "dungeonbowl/dice_log.html", {"league": league, "rolls": rolls[:500]})


@login_required
def draft(request: HttpRequest, slug: str) -> HttpResponse:
    """DB-6: a coach drafts a team from a college; "Check" shows the running cost,
    the budget left and every limit, "Submit" drafts it. The commissioner sees the
    submitted drafts and locks them."""
    league = dungeonbowl_league(slug)
    coach = coach_for(request.user)
    organiser = league.is_organised_by(request.user)
    if coach is None and not organiser:
        raise PermissionDenied("Only a coach with an account drafts a team.")
    offered = College.for_league(league.pk)
    college = get_object_or_404(offered, slug=request.GET.get("college")) if request.GET.get("college") else None
    colleges = list(offered.order_by("name"))
    college = college or colleges[0]
    existing = (
        Team.objects.filter(league=league, coach=coach).exclude(redrafts__step=0).select_related("college").first()
        if coach else None
    )  # a retired team (not re-drafted, DB-15) leaves its coach free to draft a new one
    if existing is not None:
        college = existing.college
    budget = league.rules.settings.draft_budget
    form = DraftForm(request.POST or None, college=college, existing=existing,
                     initial={} if existing else {"name": selectors.entered_team_name(league, coach)})
    check = None
    if request.method == "POST" and coach is not None and form.is_valid():
        check = team_rules.check_draft(college.roster(), form.picks(), form.cleaned_data["rerolls"], budget)
        if "submit" in request.POST and check.ok:
            try:
                team = services.submit_draft(
                    team=existing, league=league if existing is None else None, coach=coach if existing is None else None,
                    name=form.cleaned_data["name"], college=college if existing is None else None,
                    picks=form.picks(), rerolls=form.cleaned_data["rerolls"], budget=budget, by=request.user,
                )
            except ValidationError as error:
                for message in error.messages:
                    form.add_error(None, message)
            else:
                waits = "" if team.accepted else " It waits for the organiser to accept the team into the league."
                messages.success(request, f"Draft submitted: {team.name}. The organiser locks it before the season.{waits}")
                return redirect(reverse("dungeonbowl:team_detail", args=[league.slug, team.slug]))
        elif "submit" in request.POST:
            for refusal in check.refusals:
                form.add_error(None, refusal)
    elif request.method == "POST" and coach is None:
        raise PermissionDenied("The organiser locks drafts; a coach drafts a team.")
    if check is None:
        check = team_rules.check_draft(college.roster(), form.initial_picks(), form.initial_rerolls(), budget)
    submitted = (
        list(Team.objects.filter(league=league, draft_submitted_at__isnull=False).select_related("coach", "college"))
        if organiser else []
    )
    unaccepted = (
        list(Team.objects.filter(league=league, accepted_at__isnull=True).select_related("coach", "college"))
        if organiser else []
    )
    entered = _entered(league, submitted) if organiser else {}
    for team in submitted:
        team.entered_in = entered.get(team.pk, "")
    return render(request, "dungeonbowl/draft.html", {
        "league": league, "form": form, "check": check, "college": college, "colleges": colleges,
        "existing": existing, "budget": budget, "organiser": organiser, "submitted": submitted, "coach": coach,
        "unaccepted": unaccepted,
        "entry_form": EntryForm(league=league) if organiser else None,
    }, status=_refused_status(request, form))


def _refused_status(request: HttpRequest, form: forms.Form) -> int:
    """400 for a POST whose form is shown again with errors (as every refused
    form of the site), 200 otherwise ("Check" of a valid draft included)."""
    return 400 if request.method == "POST" and form.errors else 200


def _entered(league: League, teams: list[Team]) -> dict[int, str]:
    """team pk -> the seasons it is entered in, for the commissioner's list (one query)."""
    out: dict[int, list[str]] = {}
    for team_id, season, division in TeamSeason.objects.filter(team__in=teams).values_list(
        "team_id", "entry__season__name", "entry__division__name"
    ).order_by("entry__season__start_date"):
        out.setdefault(team_id, []).append(f"{season} ({division})" if division else season)
    return {team_id: ", ".join(names) for team_id, names in out.items()}


@login_required
def create_team(request: HttpRequest, slug: str) -> HttpResponse:
    """DB-1: a coach founds their team (name and college); the draft form drafts it."""
    league = dungeonbowl_league(slug)
    coach = coach_for(request.user)
    if coach is None:
        raise PermissionDenied("Only a coach with an account creates a team.")
    form = NewTeamForm(request.POST or None, league=league,
                       initial={"name": selectors.entered_team_name(league, coach)})
    if request.method == "POST" and form.is_valid():
        try:
            team = services.create_team(league=league, coach=coach, name=form.cleaned_data["name"],
                                        college=form.cleaned_data["college"], by=request.user)
        except ValidationError as error:
            for message in error.messages:
                form.add_error(None, message)
        else:
            if team.accepted:
                messages.success(request, f"{team.name} is founded. Now draft its players.")
            else:
                messages.success(request, f"{team.name} is founded and waits for the organiser to accept it into "
                                          "the league. Draft its players meanwhile.")
            return redirect(reverse("dungeonbowl:draft", args=[league.slug]))
    return render(request, "dungeonbowl/new_team.html", {"league": league, "form": form},
                  status=_refused_status(request, form))


@login_required
@require_POST
def enter_team(request: HttpRequest, slug: str) -> HttpResponse:
    """The commissioner enters a drafted team in a season (and its division)."""
    league = dungeonbowl_league(slug)
    if not league.is_organised_by(request.user):
        raise PermissionDenied("Only the league's organiser enters teams in a season.")
    form = EntryForm(request.POST, league=league)
    try:
        data = valid_data(form)
        services.enter_team(team=data["team"], season=data["season"], division=data["division"], by=request.user)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        where = f" ({data['division'].name})" if data["division"] else ""
        messages.success(request, f"{data['team']} is entered in {data['season'].name}{where}.")
    return redirect(reverse("dungeonbowl:draft", args=[league.slug]))


@login_required
@require_POST
def lock_draft(request: HttpRequest, slug: str, team_slug: str) -> HttpResponse:
    league = dungeonbowl_league(slug)
    team = get_object_or_404(Team, league=league, slug=team_slug)
    try:
        services.lock_draft(team=team, by=request.user)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, f"{possessive(team)} draft is locked.")
    return redirect(reverse("dungeonbowl:draft", args=[league.slug]))


def _commissioner_acts(request: HttpRequest, slug: str, team_slug: str, act) -> HttpResponse:
    """A commissioner's one-click step on a team, back to the draft page with the
    outcome; a refusal is an error message and writes nothing."""
    league = dungeonbowl_league(slug)
    team = get_object_or_404(Team, league=league, slug=team_slug)
    try:
        messages.success(request, act(team))
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    return redirect(reverse("dungeonbowl:draft", args=[league.slug]))


@login_required
@require_POST
def accept_team(request: HttpRequest, slug: str, team_slug: str) -> HttpResponse:
    """DB-1: the commissioner accepts a newcomer's team into the league."""
    def act(team: Team) -> str:
        services.accept_team(team=team, by=request.user)
        return f"{team} is accepted into the league."
    return _commissioner_acts(request, slug, team_slug, act)


@login_required
@require_POST
def refuse_team(request: HttpRequest, slug: str, team_slug: str) -> HttpResponse:
    """DB-1: the commissioner refuses a newcomer's team; it goes with its draft, so
    the form's box must be ticked to confirm (a destructive step is never one click)."""
    def act(team: Team) -> str:
        if not team.league.is_organised_by(request.user):
            raise PermissionDenied("Only the league's organiser refuses a team.")
        if request.POST.get("confirm") != "yes":
            raise ValidationError(f"Tick the box to confirm that {team} is to be removed.")
        return f"{services.refuse_team(team=team, by=request.user)} is refused and removed."
    return _commissioner_acts(request, slug, team_slug, act)


def valid_data(form: forms.Form) -> dict:
    """A posted form's cleaned data, or its errors as one ``ValidationError`` that a
    one-click step shows as its message."""
    if not form.is_valid():
        raise ValidationError([m for errors in form.errors.values() for m in errors])
    return form.cleaned_data


# Who is ready ------------------------------------------------------------------------


def _organised(request: HttpRequest, slug: str) -> League:
    league = dungeonbowl_league(slug)
    if not league.is_organised_by(request.user):
        raise PermissionDenied("Only the league's organiser sees who is ready.")
    return league


@login_required
def entrants_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The commissioner's view of the current season's coaches and teams: who has
    founded, drafted, submitted, been locked and entered (DB-1, DB-6), with the two
    one-click steps and why one cannot be done yet. Five queries."""
    league = _organised(request, slug)
    season = engine_selectors.season_for(league)
    rows = entrants.readiness(league, season)
    tally = entrants.counts(rows)
    lock_refusal = "" if tally[entrants.State.SUBMITTED] else "No submitted draft waits to be locked."
    if season is None:
        enter_refusal = "The league has no season yet."
    elif tally[entrants.State.LOCKED]:
        enter_refusal = ""
    elif tally[entrants.State.SUBMITTED] or tally[entrants.State.DRAFTING]:
        enter_refusal = "Drafts are still open: a team is entered once its draft is submitted and locked."
    else:
        enter_refusal = "No locked team waits to be entered."
    return render(request, "dungeonbowl/entrants.html", {
        "league": league, "season": season, "rows": rows, "tally": tally, "State": entrants.State,
        "lock_refusal": lock_refusal, "enter_refusal": enter_refusal,
        "new_team_url": reverse("dungeonbowl:create_team", args=[league.slug]),
    })


@login_required
@require_POST
def lock_drafts(request: HttpRequest, slug: str) -> HttpResponse:
    """DB-1: lock every submitted draft at once; a team whose coach is entered in
    the current season takes that place."""
    league = _organised(request, slug)
    season = engine_selectors.season_for(league)
    try:
        locked, entered = entrants.lock_submitted_drafts(league=league, season=season, by=request.user)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, f"Locked: {', '.join(team.name for team in locked)}.")
        if entered:
            messages.success(request, f"In their coaches' places in {season.name}: "
                                      f"{', '.join(team.name for team in entered)}.")
    return redirect(entrants.page_url(league))


@login_required
@require_POST
def enter_ready(request: HttpRequest, slug: str) -> HttpResponse:
    """Enter every locked team in the current season (in its coach's entry when
    the coach was entered first)."""
    league = _organised(request, slug)
    try:
        entered, refused = entrants.enter_ready_teams(league=league, season=engine_selectors.season_for(league),
                                                      by=request.user)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        if entered:
            messages.success(request, f"Entered: {', '.join(team.name for team in entered)}.")
        for line in refused:
            messages.error(request, line)
    return redirect(entrants.page_url(league))
