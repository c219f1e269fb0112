"""Starting a league without the admin: signing up, verifying the
address, the new-league flow, the season's set-up page (entrants, join links,
fixtures). The join link's own page is people's (league/people/views.py).

A refused form re-renders on its own address with status 400; too many sign-ups
or new leagues within the hour answer 429 with the reason.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import Resolver404, resolve, reverse

from league import selectors
from league.services import founding
from league.people import invitations
from league.people import joining
from league.accounts import signup
from league.throttle import within_limit
from league.accounts.forms import LEAGUES_PER_ACCOUNT, SIGNUPS_PER_ADDRESS, SIGNUPS_PER_CLIENT, SignupForm
from league.accounts.lockout import client_ip
from league.models import Entry, JoinLink, Season
from league.permissions import get_league_for_organiser, may_create_league
from league.rules import GAMES, rules_class
from league.services.seasons import draw_season_divisions, generate_fixtures
from league.forms import refuse
from league.people.forms import AddCoachForm, JoinLinkForm, PasteNamesForm
from league.web.setup_forms import GenerateForm, NewLeagueForm

BACKEND = "league.backends.CoachBackend"


def _too_many(request: HttpRequest, reason: str) -> HttpResponse:
    return render(request, "registration/too_many.html", {"reason": reason}, status=429)


def _refuse(form, error: ValidationError) -> None:
    """A service's refusal on the form: on the field it names when the form has it."""
    refuse(form, error)


def _join_token_of(next_url: str) -> str | None:
    """The join link's token when ``next_url`` is a join page, else None."""
    try:
        match = resolve(next_url.split("?")[0])
    except Resolver404:
        return None
    return match.kwargs.get("token") if match.view_name == "league:join" else None


def _join_link_of(next_url: str) -> JoinLink | None:
    """The working join link ``next_url`` leads to, if any."""
    token = _join_token_of(next_url)
    if not token:
        return None
    try:
        return joining.read_token(token)
    except ValidationError:
        return None


def signup_page(request: HttpRequest) -> HttpResponse:
    """Anyone signs up; the account works once the link mailed to the address is
    opened. The answer is the same whether the address has an account or not."""
    next_url = signup.safe_next(request, request.POST.get("next") or request.GET.get("next"))
    join_link = _join_link_of(next_url)
    # OPEN_SIGNUP, or a join link that still works: a club's own server lets the
    # people it gives a link to sign up.
    if not (settings.OPEN_SIGNUP or join_link is not None):
        return render(request, "registration/signup_closed.html", status=403)
    if request.user.is_authenticated:
        return redirect(next_url or reverse("league:my_fixtures"))
    form = SignupForm(request.POST or None)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            data = form.cleaned_data
            # Through a working join link the link's own limit counts, not the network
            # address: a club's launch night signs everyone up on one shop's Wi-Fi.
            if join_link is not None:
                if not within_limit("signup-join-link", str(join_link.pk), join_link.signups_per_hour):
                    return _too_many(request, "Many accounts were signed up through this join link within the hour; "
                                              "ask the organiser to make another.")
            elif not within_limit("signup-client", str(client_ip(request)), SIGNUPS_PER_CLIENT):
                return _too_many(request, "Several accounts were signed up from your network within the hour.")
            if not within_limit("signup-address", data["email"].strip().casefold(), SIGNUPS_PER_ADDRESS):
                return _too_many(request, f"Several sign-ups named {data['email']} within the hour.")
            try:
                signup.sign_up(
                    username=data["username"], email=data["email"], password=data["password1"],
                    next_url=next_url, request=request,
                )
            except ValidationError as error:
                _refuse(form, error)
            else:
                return render(request, "registration/signup_sent.html", {"email": data["email"]})
        status = 400
    return render(request, "registration/signup.html", {"form": form, "next": next_url}, status=status)


def verify_email(request: HttpRequest, token: str) -> HttpResponse:
    """The link in the sign-up mail: a page with one button (a GET writes nothing,
    so a mail scanner opening the link verifies nothing); the POST activates the
    account, logs in and goes on to ``next`` (a join link) or the new-league page."""
    next_url = signup.safe_next(request, request.GET.get("next"))
    try:
        account = signup.read_token(token)
    except ValidationError as error:
        return render(request, "registration/verify_email.html", {"reason": " ".join(error.messages)}, status=400)
    if request.method == "POST":
        try:
            user = signup.verify(token=token)
        except ValidationError as error:
            return render(request, "registration/verify_email.html", {"reason": " ".join(error.messages)}, status=400)
        login(request, user, backend=BACKEND)
        messages.success(request, f"Welcome, {user.get_username()}: your address is verified.")
        if next_url:
            return redirect(next_url)
        return redirect(reverse("league:new_league") if may_create_league(user) else reverse("league:my_fixtures"))
    return render(request, "registration/verify_email.html", {"account": account, "next": next_url})


@login_required
def new_league(request: HttpRequest) -> HttpResponse:
    """Choose the game (one link each), then one form: the league's name,
    the game's settings with the rulebook's defaults (its GameRules says which), the
    first season. The creator becomes its organiser."""
    if not may_create_league(request.user):
        raise PermissionDenied(
            "Your account cannot create leagues on this site: ask its administrator for the right to."
        )
    game = request.POST.get("game") or request.GET.get("game")
    if not game:
        games = [(system, cls.name) for system, cls in GAMES.items()]
        return render(request, "league/new_league.html", {"games": games})
    if game not in GAMES:
        return render(request, "league/new_league.html", {"games": [], "unknown": True}, status=400)
    rules = rules_class(game)
    settings_class = rules.settings_form_class()
    posted = request.POST if request.method == "POST" else None
    form = NewLeagueForm(posted, game=rules)
    game_form = settings_class(posted, prefix="settings") if settings_class else None
    status = 200
    if posted is not None:
        if form.is_valid() and (game_form is None or game_form.is_valid()):
            if not within_limit("new-league", str(request.user.pk), LEAGUES_PER_ACCOUNT):
                return _too_many(request, f"You created {LEAGUES_PER_ACCOUNT} leagues within the hour.")
            data = form.cleaned_data
            try:
                league = founding.create_league(
                    by=request.user, name=data["name"], game_system=game,
                    settings=game_form.cleaned_data if game_form else {}, season_name=data["season_name"],
                    start_date=data["start_date"], cadence_days=data["cadence_days"],
                    double_round_robin=data["double_round_robin"],
                )
            except ValidationError as error:
                _refuse(form, error)
            else:
                messages.success(request, f"{league.name} is ready: now add who plays in it.")
                return redirect("league:season_setup", slug=league.slug)
        status = 400
    return render(
        request, "league/new_league.html",
        {"game": game, "game_name": rules.name, "form": form, "game_form": game_form}, status=status,
    )


ACTIONS = ("paste", "invite", "link", "revoke", "fixtures")


@login_required
def season_setup(request: HttpRequest, slug: str) -> HttpResponse:
    """The organiser's set-up of the current season: who is in it (and who has an
    account), adding them by pasted names, by email or by join links, and one click
    for the fixtures. Each form posts here with its ``action``."""
    league = get_league_for_organiser(request, slug)
    season = selectors.season_for(league)
    action = request.POST.get("action") if request.method == "POST" else None
    forms = {
        "paste": PasteNamesForm(request.POST if action == "paste" else None),
        "invite": AddCoachForm(request.POST if action == "invite" else None, initial={"enter": True}),
        "link": JoinLinkForm(request.POST if action == "link" else None, prefix="link"),
        "fixtures": GenerateForm(request.POST if action == "fixtures" else None, game=rules_class(league.game_system)),
    }
    forms["invite"].fields.pop("enter")
    status = 200
    if request.method == "POST":
        done = _setup_action(request, league, season, action, forms) if season is not None else None
        if done is not None:
            return done
        status = 400
    return render(request, "league/season_setup.html", _setup_context(request, league, season, forms), status=status)


def _setup_context(request, league, season, forms) -> dict:
    entries, links, has_fixtures = [], [], False
    if season is not None:
        entries = list(Entry.objects.filter(season=season).select_related("coach", "division").order_by("coach__name"))
        links = list(JoinLink.objects.filter(season=season))
        for link in links:
            link.url = request.build_absolute_uri(reverse("league:join", args=[joining.make_token(link)]))
            link.refused = link.refusal()
        has_fixtures = season.rounds.exists()
    for entry in entries:
        entry.masked_email = invitations.mask_email(entry.coach.email)
    return {
        "league": league, "season": season, "entries": entries, "links": links, "has_fixtures": has_fixtures,
        "forms": forms, "min_entries": league.rules.min_entries,
    }


def _setup_action(request, league, season: Season, action: str | None, forms) -> HttpResponse | None:
    """Do what the organiser posted; a redirect when it is done, None to show the
    page again with the form's errors (400)."""
    back = redirect("league:season_setup", slug=league.slug)
    if action not in ACTIONS:
        messages.error(request, "Choose what to do with one of the buttons.")
        return None
    if action == "revoke":
        link_id = request.POST.get("link", "")
        if not (link_id.isdigit() and len(link_id) <= 12):
            messages.error(request, "Choose a join link to withdraw from the list.")
            return None
        link = get_object_or_404(JoinLink, season=season, pk=int(link_id))
        joining.revoke_link(link=link, by=request.user)
        messages.success(request, "Join link withdrawn: it works no more.")
        return back
    form = forms[action]
    if not form.is_valid():
        return None
    data = form.cleaned_data
    try:
        if action == "paste":
            added, returning = joining.add_pasted(season=season, by=request.user, text=data["names"])
            _say_pasted(request, added, returning)
        elif action == "invite":
            with transaction.atomic():
                coach = invitations.add_coach(
                    league=league, season=season, by=request.user, name=data["name"], email=data["email"],
                    team=data["team"],
                )
                invitations.send_invitation(coach=coach, league=league, request=request)
            messages.success(request, f"{coach} added; an invitation is on its way to them.")
        elif action == "link":
            joining.create_link(season=season, by=request.user, max_uses=data["max_uses"], closes_on=data["closes_on"],
                                signups_per_hour=data["signups_per_hour"])
            messages.success(request, "Join link made: copy it from the list and share it.")
        else:
            _generate(season, request.user, data["divisions"])
            messages.success(request, f"Fixtures generated for {season.name}.")
    except ValidationError as error:
        _refuse(form, error)
        return None
    return back


@transaction.atomic
def _generate(season: Season, by, divisions: int) -> None:
    """Divisions drawn (DB-2) when asked, then the round robin (GB-4): both or neither."""
    if divisions:
        draw_season_divisions(season=season, by=by, count=divisions)
    generate_fixtures(season=season, by=by)


def _say_pasted(request, added, returning) -> None:
    if added:
        messages.success(request, f"Entered {len(added)}: {', '.join(str(coach) for coach in added)}.")
    if returning:
        messages.success(request, f"Entered again, as the coaches who played here before: "
                                  f"{', '.join(str(coach) for coach in returning)}.")
