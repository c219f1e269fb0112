"""The play-off pages (DB-5b, DB-14, DB-16): the commissioner's page that settles
ties and starts the play-offs, and the public ``playoffs.json``. Thin: forms clean,
``league.dungeonbowl.playoffs.services`` decides."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from league import selectors
from league.dungeonbowl.playoffs import rules as playoff_rules, services as playoffs
from league.dungeonbowl.models import GAME_SYSTEM
from league.models import League
from league.permissions import get_league_for_organiser
from league.text.plaintext import PlainTextField
from league.standings.season import standings_for

MAX_TIED = 16  # a division holds at most this many teams level on everything


class TieForm(forms.Form):
    """One tie at a qualifying place: the order, best first, with the reason; or a
    D6 per team (empty: the app rolls)."""

    teams = PlainTextField(multiline=True, widget=forms.HiddenInput)
    reason = PlainTextField(max_length=300, required=False, label="Reason",
                             widget=forms.TextInput(attrs={"size": 24}))
    dice = PlainTextField(max_length=60, required=False, label="Dice rolled at the table (optional)",
                           help_text="A D6 per team in the order listed, e.g. 5 2. Empty: the app rolls.")

    def __init__(self, *args, tied: tuple[str, ...], **kwargs):
        super().__init__(*args, **kwargs)
        self.tied = tied
        self.fields["teams"].initial = "\n".join(tied)
        choices = [("", "—"), *((name, name) for name in tied)]
        for place in range(1, len(tied) + 1):
            self.fields[f"place_{place}"] = forms.ChoiceField(
                label=f"{_ordinal(place)} of the tie", choices=choices, required=False,
                error_messages={"invalid_choice": "Choose one of the tied teams."},
            )

    def places(self) -> list[forms.BoundField]:
        return [self[f"place_{place}"] for place in range(1, len(self.tied) + 1)]

    def order(self) -> list[str]:
        return [self.cleaned_data.get(f"place_{place}") or "" for place in range(1, len(self.tied) + 1)]

    def clean_dice(self) -> list[int] | None:
        text = self.cleaned_data.get("dice") or ""
        if not text.strip():
            return None
        parts = text.replace(",", " ").split()
        if len(parts) != len(self.tied) or not all(p.isdigit() and 1 <= int(p) <= 6 for p in parts):
            raise forms.ValidationError(f"Enter {len(self.tied)} numbers from 1 to 6, one per team in the order listed.")
        return [int(p) for p in parts]


def _ordinal(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


def _dungeonbowl_league_for_organiser(request: HttpRequest, slug: str) -> League:
    league = get_league_for_organiser(request, slug)
    if league.game_system != GAME_SYSTEM:
        raise Http404(f"{league} is not a Dungeon Bowl league.")
    return league


@login_required
def playoffs_page(request: HttpRequest, slug: str, forms_by_tie: dict | None = None, status: int = 200) -> HttpResponse:
    """The commissioner's play-offs page (DB-5b): whether the regular season is
    complete, the seeding from the final standings or the ties at qualifying places
    to settle (by a reason or a logged roll), the ties settled so far, and the
    button that creates the semi-finals."""
    league = _dungeonbowl_league_for_organiser(request, slug)
    season = selectors.season_for(league, request.GET.get("season"))
    context = {"league": league, "season": season, "is_organiser": True}
    if season is not None:
        rows = standings_for(season)
        state = playoffs.playoff_state(season, rows)
        forms_by_tie = forms_by_tie or {}
        ties = []
        if state.seeding is not None:
            for tie in state.seeding.ties:
                key = tuple(sorted(tie.teams))
                ties.append((tie, forms_by_tie.get(key) or TieForm(tied=tie.teams)))
        context.update(state=state, ties=ties, bracket=playoffs.bracket(season) if state.started else [],
                       format=playoff_rules.format_for(len({row.division for row in rows})))
    return render(request, "dungeonbowl/playoffs.html", context, status=status)


@login_required
@require_POST
def settle_tie(request: HttpRequest, slug: str) -> HttpResponse:
    """DB-5b, DB-16: settle one tie by the order given with a reason, or by a roll."""
    league = _dungeonbowl_league_for_organiser(request, slug)
    season = selectors.season_for(league, request.GET.get("season"))
    if season is None:
        return redirect(reverse("dungeonbowl:playoffs", args=[league.slug]))
    tied = tuple(name for name in request.POST.get("teams", "").splitlines() if name.strip())[:MAX_TIED]
    form = TieForm(request.POST, tied=tied)
    if len(tied) < 2:
        messages.error(request, "That tie is no longer open: look at the page again.")
        return redirect(reverse("dungeonbowl:playoffs", args=[league.slug]))
    if form.is_valid():
        roll = "roll" in request.POST
        try:
            tie = playoffs.settle_tie(
                season=season, by=request.user, teams=list(tied), order=None if roll else form.order(),
                reason=form.cleaned_data["reason"], roll=roll, dice=form.cleaned_data["dice"],
            )
        except ValidationError as error:
            for message in error.messages:
                form.add_error(None, message)
        else:
            how = "by a roll" if tie.how == tie.How.ROLL else "by your decision"
            messages.success(request, f"Tie settled {how}: {', '.join(tie.teams)}.")
            return redirect(reverse("dungeonbowl:playoffs", args=[league.slug]))
    request.method = "GET"
    return playoffs_page(request, slug, forms_by_tie={tuple(sorted(tied)): form}, status=400)


@login_required
@require_POST
def start_playoffs(request: HttpRequest, slug: str) -> HttpResponse:
    """DB-5b: create the two semi-finals."""
    league = _dungeonbowl_league_for_organiser(request, slug)
    season = selectors.season_for(league, request.GET.get("season"))
    back = redirect(reverse("dungeonbowl:playoffs", args=[league.slug]))
    if season is None:
        return back
    try:
        games = playoffs.start_playoffs(season=season, by=request.user)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
        return back
    pairs = "; ".join(f"{g.fixture.home.team} v {g.fixture.away.team}" for g in games)
    messages.success(request, f"The play-offs have started: {pairs}. The coaches report them like any game.")
    return back


def playoffs_json(request: HttpRequest, slug: str) -> JsonResponse:
    """``GET /leagues/<slug>/playoffs.json[?season=<name>]``: the season's play-off
    fixtures with their stage, teams, result and winner (DB-5b). One query for the
    games, whatever the league's size."""
    league = get_object_or_404(League, slug=slug)
    if league.game_system != GAME_SYSTEM:
        return JsonResponse({"error": f"{league} is not a Dungeon Bowl league: it has no play-offs."}, status=404)
    season = selectors.season_for(league, request.GET.get("season"))
    if season is None:
        return JsonResponse({"error": f"{league} has no season yet."}, status=404)
    fixtures = []
    for game in playoffs.bracket(season):
        result = game.result
        fixtures.append({
            "id": game.fixture.pk,
            "stage": game.stage,
            "home": game.home,
            "away": game.away,
            "result": None if result is None else {
                "home_score": result.home_score, "away_score": result.away_score,
                "summary": result.summary, "status": result.status,
            },
            "winner": game.winner,
        })
    return JsonResponse({"league": league.slug, "season": season.name, "fixtures": fixtures})
