"""Logging in with Discord, beside the site's own accounts, through python-social-auth
(social-auth-core's Discord backend, social-auth-app-django's storage and actions).

Chosen over django-allauth because it adds one authentication backend and a pipeline
and leaves the site's accounts as they are: the sign-up with its verified address
(league/accounts/signup.py), the log-in django-axes guards, the password reset and
the invitations. allauth would replace those flows with its own.

Off unless the server sets DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET (``enabled``):
then no page shows the button and the three addresses answer 404.

- A new person: "Log in with Discord" on the log-in page, "Authorize" on Discord,
  and they are back with an active account, logged in. Its username is their
  Discord username, made unique here; its address is Discord's only when Discord
  says it is verified (``create_account``).
- An account already logged in links its Discord account from its profile, and
  unlinks it there; an account without a password cannot unlink its only way in.
- Discord's address is never used to pick an existing account: an address of
  someone's account on the site refuses the sign-up with a message telling them to
  log in and link Discord on their profile (anyone could otherwise add an address
  to a Discord account and log in as its owner here).

Every step that writes (the account, the link, the unlink) runs in one transaction
(``DiscordBackend.run_pipeline``); nothing of Discord's tokens is kept.
"""

from __future__ import annotations

import re
import secrets
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import REDIRECT_FIELD_NAME, get_user_model, login
from django.db import transaction
from django.db.models.functions import Lower
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.utils.cache import add_never_cache_headers
from django.views.decorators.http import require_GET
from social_core import exceptions as social
from social_core.actions import do_auth, do_complete, do_disconnect
from social_core.backends.discord import DiscordOAuth2
from social_django.utils import load_backend, load_strategy

from league.text import plaintext

# The log-in the session keeps: the site's own backend, which reads the account
# and its coach with the session (league/backends.py, league/sessions.py).
SESSION_BACKEND = "league.backends.CoachBackend"
USERNAME_MAX = 150


def enabled() -> bool:
    return bool(settings.DISCORD_CLIENT_ID and settings.DISCORD_CLIENT_SECRET)


def authorize_origin() -> str:
    """Where the browser is sent to authorize: a form posting to the log-in with
    Discord is redirected there, so the pages with the button allow it as a form
    target (Content-Security-Policy ``form-action``)."""
    parts = urlsplit(settings.DISCORD_API_URL)
    return f"{parts.scheme}://{parts.netloc}"


def allow_authorize_redirect(response: HttpResponse) -> HttpResponse:
    if enabled():
        response._csp_update = {"form-action": [authorize_origin()]}
    return response


def context(request: HttpRequest) -> dict:
    """Template context: whether the Discord button is shown."""
    return {"discord_login": enabled()}


class DiscordBackend(DiscordOAuth2):
    """social-auth-core's Discord backend with its addresses and application read from
    the site's settings (DISCORD_API_URL, so a test can point it at a stand-in server),
    and its pipeline run in one transaction."""

    DEFAULT_SCOPE = ["identify", "email"]

    def get_key_and_secret(self) -> tuple[str, str]:
        return settings.DISCORD_CLIENT_ID, settings.DISCORD_CLIENT_SECRET

    def authorization_url(self) -> str:
        return settings.DISCORD_API_URL.rstrip("/") + "/oauth2/authorize"

    def access_token_url(self) -> str:
        return settings.DISCORD_API_URL.rstrip("/") + "/oauth2/token"

    def user_data(self, access_token: str, *args, **kwargs):
        return self.get_json(
            settings.DISCORD_API_URL.rstrip("/") + "/users/@me", headers={"Authorization": f"Bearer {access_token}"}
        )

    def get_user_details(self, response) -> dict:
        """Only an address Discord has verified is taken as the person's."""
        email = response.get("email") or ""
        return {"username": response.get("username") or "", "email": email if response.get("verified") else ""}

    def run_pipeline(self, *args, **kwargs):
        with transaction.atomic():
            return super().run_pipeline(*args, **kwargs)


# The pipeline (settings.SOCIAL_AUTH_PIPELINE) ------------------------------------


class AddressHeld(social.AuthAssociationError):
    def __str__(self) -> str:
        return ("An account here already uses the email address of that Discord account. Log in with your "
                "password, then link Discord on your profile.")


def unique_username(wanted: str) -> str:
    """``wanted`` cleaned to what a username here may hold, and made unique
    (case-insensitively, as the sign-up checks): the name, then the name with 2 to 9,
    then with a random suffix. One query."""
    base = re.sub(r"[^\w.@+-]", "", wanted)[: USERNAME_MAX - 10] or "discord"
    candidates = [base, *(f"{base}{n}" for n in range(2, 10))]
    taken = set(
        get_user_model().objects.annotate(lower=Lower("username"))
        .filter(lower__in=[c.lower() for c in candidates]).values_list("lower", flat=True)
    )
    for candidate in candidates:
        if candidate.lower() not in taken:
            return candidate
    return f"{base}-{secrets.token_hex(4)}"


def create_account(strategy, details, backend, user=None, *args, **kwargs):
    """A new person's account: active (Discord vouches for them), no password, the
    Discord username made unique, and Discord's verified address unless an account
    here holds it (then ``AddressHeld``)."""
    if user is not None:
        return None
    User = get_user_model()
    email = details.get("email", "").strip()
    if email and User.objects.filter(email__iexact=email).exists():
        raise AddressHeld(backend)
    account = User(username=unique_username(details.get("username", "")), email=email, is_active=True)
    account.set_unusable_password()
    account.save()
    strategy.session_set("discord_new", True)  # the welcome, after the log-in
    return {"is_new": True, "user": account}


def remember_name(backend, user, response, social=None, *args, **kwargs):
    """The Discord username shown on the profile beside "Unlink" (no token is kept)."""
    if social is not None:
        social.extra_data = {"username": plaintext.cleaned(str(response.get("username") or ""))[:100]}
        social.save(update_fields=["extra_data"])


# The views -------------------------------------------------------------------------


def _backend(request: HttpRequest) -> DiscordBackend:
    if not enabled():
        raise Http404("Logging in with Discord is off on this site.")
    request.social_strategy = load_strategy(request)
    return load_backend(request.social_strategy, DiscordBackend.name, redirect_uri=reverse("discord_complete"))


def begin(request: HttpRequest) -> HttpResponse:
    """The button on the log-in page and the profile (a POST to those pages, so no
    other site can start it): off to Discord to authorize, with a fresh ``state``
    kept in the session. The log-in page's ``next`` is kept for the way back."""
    backend = _backend(request)
    return add_never_cache_headers_to(do_auth(backend, redirect_name=REDIRECT_FIELD_NAME, user=request.user))


def add_never_cache_headers_to(response: HttpResponse) -> HttpResponse:
    add_never_cache_headers(response)
    return response


def _log_in(backend, user, social_user) -> None:
    login(backend.strategy.request, user, backend=SESSION_BACKEND)


REFUSALS: list[tuple[type[Exception], str]] = [
    (social.AuthCanceled, "You did not authorize the site on Discord, so nothing changed."),
    # A state missing, changed, used twice or too old: not this browser's log-in.
    (social.AuthSessionError, "That Discord log-in could not be checked (expired, or started elsewhere): try again."),
    (social.AuthInputError, "That Discord log-in could not be checked (expired, or started elsewhere): try again."),
    (social.AuthAssociationError, "That Discord account is already linked to another account here."),
    (social.AuthPolicyError, "Logging in with that Discord account is not allowed here."),
    (social.AuthProviderError, "Discord did not answer: try again in a moment."),
]


@never_cache
@require_GET
def complete(request: HttpRequest) -> HttpResponse:
    """Where Discord sends the browser back: the state checked, the account found,
    made or linked, and the person logged in. A refusal, a cancelled authorization or
    Discord unreachable: a message on the log-in page (or the profile), never a 500."""
    backend = _backend(request)
    request.session.pop("discord_new", None)  # left by a sign-up that was rolled back
    was_logged_in = request.user.is_authenticated
    back = "profile" if was_logged_in else "login"
    try:
        response = do_complete(backend, _log_in, user=request.user, redirect_name=REDIRECT_FIELD_NAME, request=request)
    except AddressHeld as refusal:
        messages.error(request, str(refusal))
        return redirect(back)
    except social.SocialAuthBaseException as refusal:
        text = next((m for kind, m in REFUSALS if isinstance(refusal, kind)),
                    "Discord did not confirm who you are: try again.")
        messages.error(request, text)
        return redirect(back)
    except OSError:  # requests' errors: Discord did not answer
        messages.error(request, "Discord did not answer: try again in a moment.")
        return redirect(back)
    if not request.user.is_authenticated:  # the account it names was turned off
        messages.error(request, "The account linked to that Discord account is turned off, so it cannot log in.")
    elif was_logged_in:
        messages.success(request, "Discord is linked: you can log in with it from now on.")
    elif request.session.pop("discord_new", False):
        messages.success(request, f"Welcome, {request.user.username}: your account is made.")
    return response


def disconnect(request: HttpRequest) -> HttpResponse:
    """Unlink Discord (the profile's button, logged in). An account with no password
    keeps its only way in: refused with a message."""
    backend = _backend(request)
    try:
        do_disconnect(backend, request.user, redirect_name=REDIRECT_FIELD_NAME)
    except social.AuthPolicyError:
        messages.error(request, "Set a password before unlinking Discord: it is your only way to log in.")
    else:
        messages.success(request, "Discord is unlinked.")
    return redirect("profile")


def linked_name(user) -> str | None:
    """The Discord username linked to ``user``, or None (one query)."""
    social_row = user.social_auth.filter(provider=DiscordBackend.name).values_list("extra_data", flat=True).first()
    if social_row is None:
        return None
    return (social_row or {}).get("username") or "linked"
