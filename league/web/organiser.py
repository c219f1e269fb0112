"""The organiser's dashboard: a page of the site (not the admin) per league with
what waits on them, one-click approval of results both coaches agreed on, adding a
friendly (DB-5a), and the coaches locked out of logging in, with a button to let
each in again."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe

from league import selectors
from league.web import checklist
from league.web import dashboard
from league.caching import pages
from league.accounts import lockout
from league.people import join_requests
from league.services import seasons as season_services
from league.services import results as services
from league.web.forms import FriendlyForm
from league.models import Coach
from league.permissions import get_league_for_organiser
from league.rules import rules_class
from league.web.feeds import side_name


def _organiser_viewer(request: HttpRequest, seen, slug: str) -> str | None:
    """The dashboard is the same for every organiser of the league, staff or not;
    a 404, a 403 or a league with no season yet is built as usual."""
    seasons = seen.rows
    if not seasons or not (request.user.is_superuser or seasons[0][4]):
        return None
    return f"staff:{int(request.user.is_staff)}"


@login_required
@pages.kept_page(pages.league_seasons, _organiser_viewer, skip=lambda request, slug: bool(request.GET))
def organiser_dashboard(request: HttpRequest, slug: str) -> HttpResponse:
    """The dashboard: the season checklist, then disputes, reports
    unconfirmed for three days, confirmed results to approve, overdue matches and
    (from the league's layers) Moments to confirm, for the league's current season:
    the first few of each with their number, the rest a page at a time (``?list=``
    one kind, ``&page=``). A fixed number of queries whatever its size, and none
    for what waits while the season does not change (``dashboard.board``).
    Its plain address is kept whole per version of the league's seasons, day and
    staff or not (league/caching/pages.py), no longer than what it says stays true."""
    league = get_league_for_organiser(request, slug)
    season = selectors.season_for(league)
    listing = request.GET.get("list", "")
    context = {"league": league, "season": season, "stale_days": dashboard.STALE_AFTER.days,
               "join_requests": join_requests.pending_in(league)}

    def body() -> tuple[str, int]:
        counts, first_lines, seconds = dashboard.board(league, season)
        context.update(counts=counts, queue=first_lines)
        if season is not None and listing in dashboard.KINDS:
            context.update(listing=listing, page=dashboard.queue_page(season, listing, request.GET.get("page")))
        return render_to_string("league/_dashboard_body.html", context, request=request), seconds

    # The plain address is the one opened again and again: its body is kept per
    # version of the season; a page of one list (?list=, ?moments=) is computed.
    context["body"] = (
        dashboard.cached_html(request, season, "dashboard-body", body) if season is not None and not request.GET
        else mark_safe(body()[0])
    )
    return render(request, "league/organiser_dashboard.html", context)


def _checklist_action(request: HttpRequest, slug: str, act) -> HttpResponse:
    """A one-click step of the season checklist: ``act(league, season)`` returns
    what to tell the organiser, or raises ValidationError with the reason; back to
    the dashboard either way (a GET too: a reload never shows a 405)."""
    league = get_league_for_organiser(request, slug)
    back = redirect("league:organiser_dashboard", slug=league.slug)
    if request.method != "POST":
        return back
    try:
        done = act(league, selectors.season_for(league))
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, done)
    return back


@login_required
def checklist_fixtures(request: HttpRequest, slug: str) -> HttpResponse:
    """GB-4/GB-5: generate the current season's fixtures."""

    def act(league, season) -> str:
        if season is None:
            raise ValidationError("This league has no season yet.")
        rounds = season_services.generate_fixtures(season=season, by=request.user)
        return f"Fixtures generated for {season.name}: {len(rounds)} round{'s' if len(rounds) != 1 else ''}."

    return _checklist_action(request, slug, act)


@login_required
def checklist_divisions(request: HttpRequest, slug: str) -> HttpResponse:
    """DB-2: draw the current season's entrants into the divisions it asks for
    (as the checklist counts them), by a random draw."""

    def act(league, season) -> str:
        if season is None:
            raise ValidationError("This league has no season yet.")
        state = checklist.season_states([season])[season.pk]
        game = rules_class(league.game_system)
        wanted = game.divisions_wanted([state]).get(season.pk, 0)
        if not wanted:
            raise ValidationError(f"{season.name} asks for no divisions.")
        drawn = season_services.draw_season_divisions(season=season, by=request.user, count=wanted)
        return game.cited("divisions", f"{len(drawn)} divisions drawn for {season.name}: " + "; ".join(
            f"{division.name}: {division.entries.count()}" for division in drawn) + " entrants.")

    return _checklist_action(request, slug, act)


@login_required
def checklist_next_season(request: HttpRequest, slug: str) -> HttpResponse:
    """Open the next season once the current one is over (or a league's first),
    for a game without its own page for it (Dungeon Bowl has one: DB-15)."""

    def act(league, season) -> str:
        if season is not None and rules_class(league.game_system).own_next_season:
            raise ValidationError(f"A {league.rules.name} league opens its next season on its own page.")
        opened = season_services.open_next_season(league=league, by=request.user)
        coaches = opened.entries.count()
        return (f"{opened.name} is open with {coaches} entrant{'s' if coaches != 1 else ''}: add or withdraw "
                "entrants, then generate its fixtures.")

    return _checklist_action(request, slug, act)


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
            fixture = result.fixture
            refused.append(f"{fixture.title}: {side_name(fixture.home, league, with_coach=False)} v "
                           f"{side_name(fixture.away, league, with_coach=False)}: {' '.join(error.messages)}")
        else:
            approved.append(result)
    if approved:
        names = "; ".join(
            f"{side_name(r.fixture.home, league, with_coach=False)} {r.summary} {side_name(r.fixture.away, league, with_coach=False)}"
            for r in approved) if len(approved) <= 3 else ""
        count = f"{len(approved)} result{'s' if len(approved) != 1 else ''}"
        messages.success(request, f"Approved {count}{': ' + names if names else ''}. The standings include them now.")
    for line in refused:
        messages.error(request, line)
    if not approved and not refused:
        messages.info(request, "No confirmed result is waiting for approval.")
    return back


@login_required
def add_friendly(request: HttpRequest, slug: str) -> HttpResponse:
    """DB-5a: the organiser adds a friendly to the season (``?season=``, else the
    current one) between any two of its entries, across divisions too. It is played
    and reported like any match and counts for nothing in the standings. Only
    leagues of a game with friendlies; only their organisers."""
    league = get_league_for_organiser(request, slug)
    if not league.allows_friendlies:
        raise Http404("This game has no friendlies.")
    season = selectors.season_for(league, request.GET.get("season"))
    if season is None:
        raise Http404("This league has no season yet.")
    form = FriendlyForm(request.POST or None, season=season)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            data = form.cleaned_data
            try:
                fixture = season_services.add_friendly(
                    season=season, by=request.user, home=data["home"], away=data["away"], date=data["date"]
                )
            except ValidationError as error:
                for message in error.messages:
                    form.add_error(None, message)
            else:
                messages.success(request, f"Friendly added: {fixture.home} v {fixture.away} on {fixture.date:%d %b %Y}. "
                                          + league.rules.cited("friendlies", "It counts for nothing in the standings."))
                return redirect(fixture.get_absolute_url())
        status = 400
    return render(request, "league/add_friendly.html", {"league": league, "season": season, "form": form},
                  status=status)


@login_required
def organiser_lockouts(request: HttpRequest, slug: str) -> HttpResponse:
    """The league's coaches who cannot log in just now after failed log-ins,
    each with a button that lets them in again (``unlock_coach``)."""
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
    try:
        lifted = lockout.lift_lockouts(league=league, coach=coach, by=request.user)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
        return back
    if lifted:
        messages.success(request, f"{coach} can log in again. They have been told by mail.")
    else:
        messages.info(request, f"{coach} was not locked out.")
    return back
