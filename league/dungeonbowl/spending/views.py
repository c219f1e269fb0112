"""The pages of a Dungeon Bowl team's spending after a game (DB-11, DB-12): buying a
re-roll, hiring and firing, hiring a Journeyman who played, an advancement. Each
posts from the team page and goes back to it; the team's coach or the commissioner
spends, a destructive step is asked first. Thin: forms clean, services decide."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.views.decorators.http import require_POST

from league import confirm as confirmation
from league.dungeonbowl.spending import services as spending
from league.dungeonbowl.spending.forms import AdvanceForm, FireForm, HireForm, JourneymanForm
from league.dungeonbowl.teams import player_rules
from league.dungeonbowl.teams.views import dungeonbowl_league, team_page, valid_data
from league.dungeonbowl.models import Position, Team
from league.dungeonbowl.units import gp
from league.models import Result
from league.text.words import possessive


def _spend(request: HttpRequest, slug: str, team_slug: str, act, ask=None) -> HttpResponse:
    """Run ``act(team)`` for the team's coach or the commissioner. ``ask(team)``, for
    a destructive step, returns the confirmation page until it is confirmed
    (it cannot be undone); a refusal from either is an error message."""
    league = dungeonbowl_league(slug)
    team = get_object_or_404(Team.objects.select_related("coach", "college"), league=league, slug=team_slug)
    if team.coach.user_id != request.user.pk and not league.is_organised_by(request.user):
        raise PermissionDenied("Only the team's coach or the league's organiser spends its Treasury.")
    back = reverse("dungeonbowl:team_detail", args=[league.slug, team.slug])
    try:
        if ask is not None and not confirmation.confirmed(request):
            return ask(team, back)
        messages.success(request, act(team))
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    return redirect(back)


@login_required
@require_POST
def buy_reroll(request: HttpRequest, slug: str, team_slug: str) -> HttpResponse:
    def act(team: Team) -> str:
        team = spending.buy_reroll(team=team, by=request.user)
        return f"Team re-roll bought: {team.rerolls} now."
    return _spend(request, slug, team_slug, act)


@login_required
@require_POST
def hire_player(request: HttpRequest, slug: str, team_slug: str) -> HttpResponse:
    def act(team: Team) -> str:
        data = valid_data(HireForm(request.POST, team=team))
        player = spending.hire_player(team=team, position=data["position"], name=data["name"], by=request.user)
        return f"Hired {player} ({player.position})."
    return _spend(request, slug, team_slug, act)


@login_required
@require_POST
def fire_player(request: HttpRequest, slug: str, team_slug: str) -> HttpResponse:
    def act(team: Team) -> str:
        player = spending.fire_player(player=valid_data(FireForm(request.POST, team=team))["player"], by=request.user)
        return f"{player} has left the draft list."

    def ask(team: Team, back: str) -> HttpResponse:
        player = valid_data(FireForm(request.POST, team=team))["player"]
        return confirmation.ask(
            request, title=f"Fire #{player.number} {player.name}?", back=back, button=f"Fire {player.name}",
            consequence=(f"#{player.number} {player.name} ({player.position}, value {gp(player.value)}, "
                         f"{player.spp} SPP) leaves {possessive(team.name)} draft list for good, and no gold "
                         "comes back."),
        )
    return _spend(request, slug, team_slug, act, ask)


def _ask_journeyman(request: HttpRequest, team: Team, game: Result, position: Position, name: str,
                    back: str) -> HttpResponse:
    return confirmation.ask(
        request, title=f"Hire {name} permanently?", back=back, button=f"Hire {name} for {gp(position.cost)}",
        consequence=(f"{name}, a Journeyman who played in {game.fixture}, joins {possessive(team.name)} draft list "
                     f"for good as a {position.name}: {gp(position.cost)} from the Treasury, which holds "
                     f"{gp(team.treasury())}. Gold spent does not come back."),
    )


@login_required
@require_POST
def hire_journeyman(request: HttpRequest, slug: str, team_slug: str) -> HttpResponse:
    """DB-12: the team's coach (or the commissioner) hires a Journeyman who played,
    permanently, at the roster price from the Treasury, while the team has fewer than
    16 players. Asked first (it cannot be undone); a bad choice or a refusal shows the
    team page again with the reason (400) and writes nothing."""
    league = dungeonbowl_league(slug)
    team = get_object_or_404(Team.objects.select_related("coach", "college"), league=league, slug=team_slug)
    if team.coach.user_id != request.user.pk and not league.is_organised_by(request.user):
        raise PermissionDenied("Only the team's coach or the league's organiser spends its Treasury.")
    form = JourneymanForm(request.POST, team=team)
    if form.is_valid():
        data = form.cleaned_data
        game, position = data["game"], data["position"]
        back = reverse("dungeonbowl:team_detail", args=[league.slug, team.slug])
        try:
            if not confirmation.confirmed(request):
                # The service's own checks first, so the page never asks for what it would refuse.
                spending.check_journeyman(team=team, result=game, position=position)
                return _ask_journeyman(request, team, game, position, data["name"] or position.name, back)
            player = spending.hire_journeyman(team=team, result=game, position=position, name=data["name"],
                                              by=request.user)
        except ValidationError as error:
            for message in error.messages:
                form.add_error(None, message)
        else:
            messages.success(request, f"#{player.number} {player.name} ({position.name}) joins {team.name} "
                                      f"permanently for {gp(position.cost)}.")
            return redirect(back)
    return team_page(request, league, team.slug, journeyman_form=form, status=400)


@login_required
@require_POST
def advance_player(request: HttpRequest, slug: str, team_slug: str) -> HttpResponse:
    def act(team: Team) -> str:
        data = valid_data(AdvanceForm(request.POST, team=team))
        line = spending.advance_player(
            player=data["player"], kind=data["kind"], category=data["category"],
            skill=data["skill"].name if data["skill"] else "",
            characteristic=data["characteristic"], table_dice=data["table_dice"], by=request.user,
        )
        gained = line.skill or f"+1 {line.characteristic.upper()}"
        rolled = ""
        if line.kind in player_rules.RANDOM_ADVANCEMENTS:
            rolled = (f" Rolled {'at the table' if data['skill'] else 'by the site'}: every roll is in the "
                      "league's dice log.")
        return (f"{data['player']} takes advancement {line.number}: {gained} for {line.spp_cost} SPP; "
                f"value +{line.value_increase:,} gp.{rolled}")
    return _spend(request, slug, team_slug, act)
