"""An account's own pages: logging in (Discord too), the profile (name, address,
password, notifications) and confirming a new address. Password reset is Django's
own views (league/urls.py) with the site's templates; adding, inviting and merging
coaches are people's pages (league/people/views.py).

A refused form re-renders on its own address with status 400: every form here
posts to the page that shows it, so a reload re-sends or re-shows that page and
never meets a 405; a GET of a POST-only address goes back to its page.
"""

from __future__ import annotations


from django.contrib import messages
from django.contrib.auth import update_session_auth_hash
from django.contrib.auth.forms import SetPasswordForm
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse

from league.accounts import discord
from league.accounts import email_change
from league.accounts.profile import update_profile
from league.outbox import notifications
from league.throttle import within_limit
from league.accounts.forms import CONFIRMATIONS_PER_ADDRESS, NotificationsForm, ProfileForm
from league.permissions import coach_for
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
                proposed = update_profile(
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
