"""Accounts without a superuser: the organiser adds and invites coaches, a coach
accepts an invitation and edits their profile. Password reset is Django's own
views (league/urls.py) with the site's templates.

A refused form re-renders on its own address with status 400: every form here
posts to the page that shows it, so a reload re-sends or re-shows that page and
never meets a 405; a GET of a POST-only address goes back to its page.
"""

from __future__ import annotations


from django.contrib import messages
from django.contrib.auth import login, update_session_auth_hash
from django.contrib.auth.forms import SetPasswordForm
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse

from league import selectors
from league.accounts import discord
from league.accounts import email_change
from league.accounts import invitations
from league.outbox import notifications
from league.services import entrants as season_entrants
from league.services import people
from league.throttle import within_limit
from league.accounts.forms import (
    CONFIRMATIONS_PER_ADDRESS, AcceptInvitationForm, AddCoachForm, ClaimLinkForm, InviteByEmailForm, MergeCoachesForm,
    NotificationsForm, ProfileForm,
)
from league.models import Coach, Entry, League, MergeRequest
from league.outbox.links import site_root
from league.permissions import coach_for, get_league_for_organiser
from league import confirm as confirmation
from league.forms import refuse



class LoginView(auth_views.LoginView):
    """Django's log-in, whose page may also send the browser to Discord to log in
    (league/accounts/discord.py)."""

    def post(self, request, *args, **kwargs):
        if request.POST.get("action") == "discord":
            return discord.begin(request)
        return super().post(request, *args, **kwargs)

    def render_to_response(self, context, **kwargs):
        return discord.allow_authorize_redirect(super().render_to_response(context, **kwargs))


def _refuse(form, error: ValidationError) -> None:
    """A service's refusal on the form: on the field it names when the form has it."""
    refuse(form, error)


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
                _refuse(form, error)
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
                _refuse(invite_form, error)
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
        why = people.refusal(keep=keep, absorb=absorb, by=request.user)
        if why:
            form.add_error(None, why)
            return None
        return confirmation.ask(
            request, title=f"Merge {absorb.name} into {keep.name}?",
            consequence=people.describe_merge(keep=keep, absorb=absorb),
            button=f"Merge: {absorb.name} is {keep.name}", back=back,
        )
    try:
        done = people.ask_merge(keep=keep, absorb=absorb, by=request.user)
    except ValidationError as error:
        _refuse(form, error)
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
    one: league/services/people.py ``claim``), said before the button."""
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
                    _refuse(form, error)
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
        "refused": people.refusal(keep=own, absorb=coach, by=None) if own is not None else None,
        "own_leagues": list(people.leagues_of(own).order_by("name")) if own is not None else [],
        "leagues": list(people.leagues_of(coach).order_by("name")),
    }, status=status)


def _confirm_address(request: HttpRequest, email: str) -> None:
    """Send the link that makes ``email`` the account's address, at
    most CONFIRMATIONS_PER_ADDRESS an hour to one address."""
    if not within_limit("confirm-address", email.casefold(), CONFIRMATIONS_PER_ADDRESS):
        messages.error(request, f"Several links went to {email} within the hour; try again later.")
        return
    email_change.send_confirmation(user=request.user, email=email, request=request)  # queued, as every mail
    messages.success(request, f"Profile saved. A link is on its way to {email}: your address changes when you open it.")


def confirm_email(request: HttpRequest, token: str) -> HttpResponse:
    """The link sent to a new address: a page that asks, and a POST that makes it
    the account's address (a GET writes nothing)."""
    try:
        account, email = email_change.read_token(token)
    except ValidationError as error:
        return render(request, "registration/email_change_confirm.html", {"reason": " ".join(error.messages)}, status=400)
    if request.method == "POST":
        try:
            email_change.confirm(token=token)
        except ValidationError as error:
            return render(
                request, "registration/email_change_confirm.html", {"reason": " ".join(error.messages)}, status=400
            )
        messages.success(request, f"Your email address is now {email}.")
        return redirect(reverse("profile") if request.user.is_authenticated else reverse("login"))
    return render(request, "registration/email_change_confirm.html", {"account": account, "email": email})


@login_required
def profile(request: HttpRequest) -> HttpResponse:
    """A coach's display name and email address; anyone's own email address and
    which notifications they get by email (two forms, each posting here with its
    own button)."""
    coach = coach_for(request.user)
    kinds = notifications.kinds()
    initial = {"email": request.user.email or (coach.email if coach else "")}
    if coach is not None:
        initial["name"] = coach.name
    off = notifications.turned_off(request.user)
    posted = request.POST or None  # a POST without data is refused (400), never an empty save
    which = request.POST.get("form") if posted else None
    form = ProfileForm(posted if which != "notifications" else None, initial=initial, has_coach=coach is not None)
    prefs = NotificationsForm(
        posted if which == "notifications" else None, kinds=kinds,
        initial={"on": [kind.key for kind in kinds if kind.key not in off]},
    )
    # An account made by logging in with Discord has no password until it sets one
    # here: it needs one to change its address or to unlink Discord.
    set_password = None
    if not request.user.has_usable_password():
        set_password = SetPasswordForm(request.user, posted if which == "set_password" else None)
    status = 200
    if request.method == "POST" and posted is None:
        status = 400
    elif which == "set_password":
        if set_password is not None and set_password.is_valid():
            set_password.save()
            update_session_auth_hash(request, request.user)  # this session stays logged in
            messages.success(request, "Password set: you can log in with it too.")
            return redirect(reverse("profile"))
        if set_password is None:
            messages.error(request, "Your account has a password already: change it below.")
        status = 400
    elif which == "discord_link":
        return discord.begin(request)
    elif which == "discord_unlink":
        return discord.disconnect(request)
    elif which == "notifications":
        if prefs.is_valid():
            notifications.set_preferences(user=request.user, on=prefs.cleaned_data["on"])
            messages.success(request, "Notification settings saved.")
            return redirect(reverse("profile"))
        status = 400
    elif posted is not None:
        if form.is_valid():
            data = form.cleaned_data
            try:
                proposed = invitations.update_profile(
                    user=request.user, name=data.get("name"), email=data["email"], password=data["password"]
                )
            except ValidationError as error:
                _refuse(form, error)
            else:
                if proposed:
                    _confirm_address(request, proposed)
                else:
                    messages.success(request, "Profile saved.")
                return redirect(reverse("profile"))
        status = 400
    response = render(
        request, "registration/profile.html",
        {"form": form, "prefs": prefs, "coach": coach, "set_password": set_password,
         "discord_name": discord.linked_name(request.user) if discord.enabled() else None},
        status=status,
    )
    return discord.allow_authorize_redirect(response)


@login_required
def merge_request(request: HttpRequest, merge_id: int) -> HttpResponse:
    """An organiser's request to join two coach rows, one of them the viewer's: what
    moves, and Accept or Refuse (league/services/people.py ``answer_merge``).
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
                kept = people.answer_merge(request=asked, user=request.user, accept=answer == "accept")
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
        "description": people.describe_merge(keep=asked.keep, absorb=asked.absorb, to_holder=True),
        "leagues": list(people.leagues_of(other).order_by("name")),
    }, status=status)
