"""The pages of people coming into a league and becoming one: the organiser's
Coaches page (adding, inviting, claim links, merging two rows that are one person,
withdrawing an entrant), a join link's page and the organiser's answer to what it
asks, an invitation or claim link taken up, and a merge request answered by the
account it is about. The writes are this package's services (``entrants``,
``joining``, ``join_requests``, ``invitations``, ``merges``).

A refused form re-renders on its own address with status 400: every form here
posts to the page that shows it, so a reload re-sends or re-shows that page and
never meets a 405; a GET of a POST-only address goes back to its page.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse

from league import selectors
from league.permissions import coach_for, get_league_for_organiser
from league.models import Coach, Entry, JoinRequest, League, MergeRequest
from league.outbox.links import site_root
from league.people import entrants as season_entrants
from league.people import invitations, join_requests, joining, merges
from league.people.forms import (
    AcceptInvitationForm, AddCoachForm, ClaimLinkForm, InviteByEmailForm, JoinForm, MergeCoachesForm,
)
from league import confirm as confirmation
from league.forms import refuse


@login_required
def organiser_coaches(request: HttpRequest, slug: str) -> HttpResponse:
    """The organiser's coaches page: who is in the current season, who has an
    account, and for each coach without one how they can claim their place (an
    invitation by email, a claim link to hand over); a form to add a coach and one
    to merge two coach rows of the organiser's leagues that are one person. Every
    form posts here, told apart by ``action``."""
    league = get_league_for_organiser(request, slug)
    season = selectors.season_for(league)
    fixtures_exist = season is not None and season_entrants.has_fixtures(season)
    action = request.POST.get("action", "add") if request.method == "POST" else None
    form = AddCoachForm(request.POST if action == "add" else None, fixtures_exist=fixtures_exist)
    invite_form = InviteByEmailForm(request.POST if action == "invite" else None)
    merge_form = MergeCoachesForm(request.POST if action == "merge" else None, choices=_merge_choices(request.user))
    claim = None  # (coach id, the link) just made
    status = 200
    if action == "add":
        if form.is_valid():
            data = form.cleaned_data
            cancels = _regeneration_cancels(request, season, data)
            if cancels:
                return confirmation.ask(
                    request, title=f"Generate the fixtures of {season.name} again?",
                    consequence=(f"{data['name']} joins {season.name} and its fixtures are generated again. Cancelled, "
                                 f"with every Favour they moved given back (LG-5): {'; '.join(cancels)}."),
                    button=f"Add {data['name']} and generate the fixtures again",
                    back=reverse("league:organiser_coaches", args=[league.slug]),
                )
            try:
                coach = invitations.add_coach(
                    league=league, season=season if data["enter"] else None, by=request.user,
                    name=data["name"], email=data["email"], team=data["team"],
                    when_fixtures_exist=data.get("when_fixtures_exist", ""),
                )
            except ValidationError as error:
                refuse(form, error)
            else:
                _invite(request, coach, league, f"{coach} added; an invitation is on its way to them.")
                return redirect("league:organiser_coaches", slug=league.slug)
        status = 400
    elif action == "invite":
        if invite_form.is_valid():
            try:
                coach = invitations.invite_by_email(
                    coach=Coach(pk=invite_form.cleaned_data["coach"]), league=league,
                    email=invite_form.cleaned_data["email"], by=request.user, request=request,
                )
            except ValidationError as error:
                refuse(invite_form, error)
            else:
                messages.success(request, f"Invitation sent to {coach}.")
                return redirect("league:organiser_coaches", slug=league.slug)
        status = 400
    elif action == "claim_link":
        claim_form = ClaimLinkForm(request.POST)
        try:
            if not claim_form.is_valid():
                raise ValidationError("Choose a coach from the list.")
            coach_id = claim_form.cleaned_data["coach"]
            token = invitations.make_claim_link(coach=Coach(pk=coach_id), league=league, by=request.user)
        except ValidationError as error:
            messages.error(request, " ".join(error.messages))
            status = 400
        else:
            claim = (coach_id, site_root(request) + reverse("claim_place", args=[token]))
    elif action == "merge":
        if merge_form.is_valid():
            response = _merge(request, league, merge_form)
            if response is not None:
                return response
        status = 400
    elif action is not None:
        messages.error(request, "Choose what to do from the page.")
        status = 400
    entries = (
        list(Entry.objects.filter(season=season).select_related("coach").order_by("coach__name")) if season else []
    )
    for entry in entries:
        entry.masked_email = invitations.mask_email(entry.coach.email)
    invite_coach = str(invite_form["coach"].value()) if action == "invite" else None
    return render(
        request, "league/organiser_coaches.html",
        {"league": league, "season": season, "entries": entries, "form": form, "invite_form": invite_form,
         "invite_coach": invite_coach, "merge_form": merge_form, "claim": claim,
         # A refused invitation for a coach the list does not show: its reason goes above the list.
         "invite_unlisted": action == "invite" and all(str(e.coach_id) != invite_coach for e in entries)},
        status=status,
    )


def _merge_choices(user) -> list[tuple[int, str]]:
    """The coaches of the leagues ``user`` organises, each with those leagues, for
    the merge form: one query, whatever the number of leagues."""
    rows = (Entry.objects.filter(season__league__in=League.objects.organised_by(user))
            .values_list("coach_id", "coach__name", "season__league__name").distinct()
            .order_by("coach__name", "coach_id", "season__league__name"))
    named: dict[int, tuple[str, list[str]]] = {}
    for coach_id, name, league in rows:
        leagues = named.setdefault(coach_id, (name, []))[1]
        if league not in leagues:
            leagues.append(league)
    return [(pk, f"{name} ({', '.join(leagues)})") for pk, (name, leagues) in named.items()]


def _merge(request: HttpRequest, league, form) -> HttpResponse | None:
    """Ask first, saying what moves; then merge, or ask the account holder. None
    when refused (the reason is on the form)."""
    keep = Coach.objects.get(pk=form.cleaned_data["keep"])
    absorb = Coach.objects.get(pk=form.cleaned_data["absorb"])
    back = reverse("league:organiser_coaches", args=[league.slug])
    if not confirmation.confirmed(request):
        why = merges.refusal(keep=keep, absorb=absorb, by=request.user)
        if why:
            form.add_error(None, why)
            return None
        return confirmation.ask(
            request, title=f"Merge {absorb.name} into {keep.name}?",
            consequence=merges.describe_merge(keep=keep, absorb=absorb),
            button=f"Merge: {absorb.name} is {keep.name}", back=back,
        )
    try:
        done = merges.ask_merge(keep=keep, absorb=absorb, by=request.user)
    except ValidationError as error:
        refuse(form, error)
        return None
    if isinstance(done, Coach):
        messages.success(request, f"Merged: {absorb.name} is now {done.name}, with every entry and result.")
    else:
        holder = keep if keep.user_id else absorb
        messages.success(request, f"{holder.name} has an account: they are asked to accept the merge on their page.")
    return redirect(back)


def _regeneration_cancels(request: HttpRequest, season, data: dict) -> list[str]:
    """LG-5: what adding a coach by generating the fixtures again would cancel, to
    be confirmed first; nothing to ask once confirmed, or when the fixtures cannot
    be generated again (the addition is then refused with why)."""
    if (season is None or not data["enter"] or data.get("when_fixtures_exist") != season_entrants.REGENERATE
            or confirmation.confirmed(request) or season_entrants.any_result(season)):
        return []
    return season_entrants.regeneration_cancels(season)


@login_required
def invite_coach(request: HttpRequest, slug: str, coach_id: int) -> HttpResponse:
    """(Re)send a coach of the league an invitation. A GET goes back to the page."""
    league = get_league_for_organiser(request, slug)
    back = redirect("league:organiser_coaches", slug=league.slug)
    if request.method != "POST":
        return back
    coach = get_object_or_404(Coach.objects.filter(entries__season__league=league).distinct(), pk=coach_id)
    _invite(request, coach, league, f"Invitation sent to {coach}.")
    return back


def _invite(request: HttpRequest, coach: Coach, league, success: str) -> None:
    """Queue the invitation and say how it went. The mail goes out as a task
    (league/outbox/notifications.py): a mail server that refuses is retried there, never an
    error in this request (the coach is saved either way)."""
    try:
        invitations.send_invitation(coach=coach, league=league, request=request)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, success)


def accept_invitation(request: HttpRequest, token: str) -> HttpResponse:
    """The link in the invitation: set a password (or link the account you are
    logged in with) and become that coach."""
    try:
        coach = invitations.coach_for_token(token)
    except ValidationError as error:
        return render(request, "registration/invitation_invalid.html", {"reason": " ".join(error.messages)}, status=400)
    return _take_place(request, coach, token, invitations.accept_invitation)


def claim_place(request: HttpRequest, token: str) -> HttpResponse:
    """A claim link the organiser handed over: as the invitation, without the mail."""
    try:
        coach = invitations.coach_for_claim(token)
    except ValidationError as error:
        return render(request, "registration/invitation_invalid.html", {"reason": " ".join(error.messages)}, status=400)
    return _take_place(request, coach, token, invitations.accept_claim)


def _take_place(request: HttpRequest, coach: Coach, token: str, accept) -> HttpResponse:
    """Take ``coach``'s place: a new account, the account logged in, or, when that
    account is a coach of another league already, as that coach (the two become
    one: league/people/merges.py ``claim``), said before the button."""
    signed_in = request.user.is_authenticated
    form = None if signed_in else AcceptInvitationForm(request.POST or None)
    status = 200
    if request.method == "POST":
        if form is None or form.is_valid():
            try:
                with transaction.atomic():
                    if signed_in:
                        user = accept(token=token, user=request.user)
                    else:
                        user = accept(token=token, username=form.cleaned_data["username"],
                                      password=form.cleaned_data["password1"])
            except ValidationError as error:
                if form is None:
                    messages.error(request, " ".join(error.messages))
                else:
                    refuse(form, error)
            else:
                if not signed_in:
                    login(request, user, backend="league.backends.CoachBackend")
                messages.success(request, f"Welcome, {coach_for(user) or coach}: your account is linked to your "
                                          "place in the league.")
                return redirect("league:my_fixtures")
        status = 400
    own = coach_for(request.user) if signed_in else None
    return render(request, "registration/accept_invitation.html", {
        "coach": coach, "form": form, "signed_in": signed_in, "own": own,
        # Said before the button: a place that cannot join this record (one season, a name).
        "refused": merges.refusal(keep=own, absorb=coach, by=None) if own is not None else None,
        "own_leagues": list(merges.leagues_of(own).order_by("name")) if own is not None else [],
        "leagues": list(merges.leagues_of(coach).order_by("name")),
    }, status=status)


@login_required
def merge_request(request: HttpRequest, merge_id: int) -> HttpResponse:
    """An organiser's request to join two coach rows, one of them the viewer's: what
    moves, and Accept or Refuse (league/people/merges.py ``answer_merge``).
    Anyone else, and a request answered already, get a 404."""
    asked = get_object_or_404(
        MergeRequest.objects.select_related("keep", "absorb").filter(decided_at__isnull=True)
        .filter(Q(keep__user=request.user) | Q(absorb__user=request.user)), pk=merge_id,
    )
    status = 200
    if request.method == "POST":
        answer = request.POST.get("answer")
        if answer not in ("accept", "refuse"):
            messages.error(request, "Choose Accept or Refuse.")
            status = 400
        else:
            try:
                kept = merges.answer_merge(request=asked, user=request.user, accept=answer == "accept")
            except ValidationError as error:
                messages.error(request, " ".join(error.messages))
                status = 400
            else:
                if kept is None:
                    messages.success(request, "Refused: nothing changed.")
                else:
                    messages.success(request, f"Done: every league's pages now call you {kept.name}, with both records.")
                return redirect("league:my_fixtures")
    mine = asked.keep if asked.keep.user_id == request.user.pk else asked.absorb
    other = asked.absorb if mine.pk == asked.keep_id else asked.keep
    return render(request, "registration/merge_request.html", {
        "asked": asked, "mine": mine, "other": other,
        "description": merges.describe_merge(keep=asked.keep, absorb=asked.absorb, to_holder=True),
        "leagues": list(merges.leagues_of(other).order_by("name")),
    }, status=status)


@login_required
def withdraw_entry(request: HttpRequest, slug: str, entry_id: int) -> HttpResponse:
    """LG-2: an entrant leaves the league's current season, after a confirmation
    page that says what happens to its fixtures. A GET goes back to the Coaches
    page; an entry of another league or season is a 404."""
    league = get_league_for_organiser(request, slug)
    back = reverse("league:organiser_coaches", args=[league.slug])
    if request.method != "POST":
        return redirect(back)
    season = selectors.season_for(league)
    entry = get_object_or_404(Entry.objects.select_related("coach"), pk=entry_id, season=season)
    if not confirmation.confirmed(request):
        if season_entrants.has_fixtures(season):
            consequence = (f"{entry.coach} leaves {season.name}. Their approved results stand; their fixtures without "
                           "an approved result are not played and count for nothing for either side: they stay listed as "
                           "not played, any result not yet approved is dropped, and each opponent is told (LG-2).")
        else:
            consequence = f"{entry.coach} leaves {season.name} before its fixtures are generated."
        cancels = season_entrants.withdrawal_cancels(season=season, entry=entry)
        if cancels:
            consequence += " Cancelled, with every Favour they moved given back (LG-5): " + "; ".join(cancels) + "."
        return confirmation.ask(request, title=f"Withdraw {entry.coach} from {season.name}?", consequence=consequence,
                                button=f"Withdraw {entry.coach}", back=back)
    try:
        removed = season_entrants.withdraw(entry=entry, by=request.user)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, f"{entry.coach} has withdrawn from {season.name}; "
                                  f"{removed} fixture{'s' if removed != 1 else ''} without a result not played (LG-2).")
    return redirect(back)


@login_required
def answer_join_request(request: HttpRequest, slug: str, request_id: int) -> HttpResponse:
    """The organiser's answer to a join link's request, from the dashboard: a
    claim confirmed or refused, a newcomer after the fixtures put in the next
    season, in this one with its fixtures generated again (after a confirmation
    page saying what that cancels, LG-1 and LG-5), or refused. A GET goes back to
    the dashboard; a request of another league is a 404."""
    league = get_league_for_organiser(request, slug)
    back = reverse("league:organiser_dashboard", args=[league.slug])
    if request.method != "POST":
        return redirect(back)
    join_request = get_object_or_404(
        JoinRequest.objects.select_related("season__league", "user", "coach"), pk=request_id, season__league=league)
    decision = request.POST.get("decision", "")
    season = join_request.season
    if (decision == season_entrants.REGENERATE and join_request.is_pending and not confirmation.confirmed(request)
            and not season_entrants.any_result(season)):
        consequence = (f"{join_request.name} joins {season.name} and its whole fixture list is generated again "
                       "with them in: the pairings and dates of every round change, and every coach sees the new "
                       "fixtures.")
        cancels = season_entrants.regeneration_cancels(season)
        if cancels:
            consequence += " Cancelled, with every Favour they moved given back: " + "; ".join(cancels) + "."
        return confirmation.ask(request, title=f"Generate the fixtures of {season.name} again?",
                                consequence=consequence, button=f"Add {join_request.name} and generate the fixtures again",
                                back=back)
    try:
        answered = join_requests.decide(join_request=join_request, by=request.user, decision=decision)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, _answered(answered))
    return redirect(back)


def _answered(join_request: JoinRequest) -> str:
    Outcome = JoinRequest.Outcome
    who = join_request.user.get_username()
    if join_request.outcome == Outcome.ACCEPTED:
        return f"{who} is {join_request.name} now: their account plays as {join_request.coach.name}."
    if join_request.outcome == Outcome.NEXT_SEASON:
        return f"{join_request.name} is in {join_request.placed_in.name}; they have been told."
    if join_request.outcome == Outcome.REGENERATED:
        return (f"{join_request.name} is in {join_request.season.name}, whose fixtures are generated again; "
                "they have been told.")
    return "Request refused; they have been told."


def join(request: HttpRequest, token: str) -> HttpResponse:
    """A join link: the league and season it enters, said before anyone signs up.
    Before the fixtures a logged-in person joins with one button; once they exist
    (LG-1) the button sends a request that waits for the organiser. The season's
    coaches without an account are offered as "I am one of these" (a claim the
    organiser confirms). Anyone else is offered sign-up or log-in, coming back here."""
    try:
        link = joining.read_token(token)
    except joining.LinkRefused as error:
        return render(request, "league/join.html", {"reason": " ".join(error.messages)}, status=410)
    except ValidationError as error:
        return render(request, "league/join.html", {"reason": " ".join(error.messages)}, status=400)
    season, league = link.season, link.season.league
    started = season_entrants.has_fixtures(season)
    context = {
        "link": link, "season": season, "league": league, "next": request.path,
        "started": joining.started(season) if started else "",
    }
    if not request.user.is_authenticated:
        # A working join link lets its people sign up, OPEN_SIGNUP or not.
        return _join_page(request, {**context, "signup_open": True})
    coach = coach_for(request.user)
    context["coach"] = coach
    form = None if coach is not None else JoinForm(
        (request.POST or None) if request.POST.get("action") != "claim" else None,
        initial={"name": request.user.get_username()})
    if form is not None and league.named_by_team:
        form.fields.pop("team")  # the team is founded on the site once entered
    elif form is not None:
        form.fields["team"].label = league.rules.entry_label
    context["form"] = form
    if request.method != "POST":
        return _join_page(request, context)
    try:
        if request.POST.get("action") == "claim":
            coach_id = request.POST.get("coach", "")
            if not (coach_id.isdigit() and len(coach_id) <= 12):
                raise ValidationError("Choose your name from the list.")
            join_requests.claim(token=token, user=request.user, coach_id=int(coach_id))
            messages.success(request, "Your claim waits for the organiser: we mail you once they confirm it.")
            return redirect(request.path)
        if form is not None and not form.is_valid():
            return _join_page(request, context, status=400)
        data = form.cleaned_data if form is not None else {}
        name, team = data.get("name", ""), data.get("team", "")
        if started:
            join_requests.ask_to_join(token=token, user=request.user, name=name, team=team)
            messages.success(request, "Your request waits for the organiser: we mail you their answer.")
            return redirect(request.path)
        joining.join(token=token, user=request.user, name=name, team=team)
    except joining.LinkRefused as error:
        return render(request, "league/join.html", {"reason": " ".join(error.messages)}, status=410)
    except ValidationError as error:  # said above the page's forms, whichever state it shows now
        context["error"] = " ".join(error.messages)
        return _join_page(request, context, status=400)
    messages.success(request, f"You are in {season.name} of {league.name}.")
    if league.is_organised_by(request.user):  # an organiser who plays goes on setting up
        return redirect("league:season_setup", slug=league.slug)
    return redirect("league:my_fixtures")


def _join_page(request: HttpRequest, context: dict, status: int = 200) -> HttpResponse:
    """The join page with what it shows beside the form: the season's coaches
    without an account, and for a logged-in person whether they are in the season
    already or have a request of it waiting (three queries, whatever the season's size)."""
    season, coach = context["season"], context.get("coach")
    context["unclaimed"] = join_requests.unclaimed(season)
    if request.user.is_authenticated:
        context["entered"] = coach is not None and Entry.objects.filter(season=season, coach=coach).exists()
        context["waiting"] = (
            JoinRequest.objects.filter(season=season, user=request.user, outcome=JoinRequest.Outcome.PENDING)
            .select_related("coach").first()
        )
    return render(request, "league/join.html", context, status=status)
