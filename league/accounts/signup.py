"""Signing up on the site: anyone chooses a username, an address and
a password; the account stays inactive until its owner opens the link mailed to
the address, so nothing can be created, joined or logged in to before then.

Built on what the site already has rather than django-allauth, which would replace
the tested log-in, password-reset and invitation flows: a signed link
(league/signing.py), mail as tasks (league/outbox/notifications.py), the throttles of
league/accounts/forms.py, django-axes on the log-in.

The page never tells whether an address already has an account: it answers the
same either way, and mails the address's owner instead (a reminder to log in or
reset the password). An account that never opened its link does not hold its
address against its owner: a new sign-up with that address replaces it (the old
link stops working), so nobody can claim someone else's address in advance.
"""

from __future__ import annotations

from urllib.parse import urlencode

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import transaction
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme

from league import signing
from league.outbox import notifications
from league.outbox.links import site_root


def _state(user) -> str:
    """What a link is bound to: the account, its address, its password and whether it
    is active yet, so it works once and not after any of them changed."""
    return f"{user.pk}:{user.email.strip().lower()}:{user.password}:{user.is_active}"


def make_token(user) -> str:
    return signing.SIGNUP.make(ids={"u": user.pk}, state=_state(user))


def read_token(token: str):
    """The inactive account a link verifies; signing.LinkError with a reason a person
    understands when it is expired, used or not a link at all."""
    data = signing.SIGNUP.read(token)
    user = get_user_model().objects.filter(pk=data.get("u")).first()
    if user is None:
        raise signing.SIGNUP.refused(signing.USED)
    signing.SIGNUP.check(data, _state(user))
    return user


def safe_next(request: HttpRequest, value: str | None) -> str:
    """``next`` when it is an address on this site, else empty."""
    if value and url_has_allowed_host_and_scheme(value, allowed_hosts={request.get_host()}, require_https=request.is_secure()):
        return value
    return ""


@transaction.atomic
def sign_up(*, username: str, email: str, password: str, next_url: str, request: HttpRequest | None) -> None:
    """A new inactive account and the mail with its link; or, when an active account
    already uses ``email``, a mail to its owner and nothing else (the caller shows
    the same page either way). Raises ValidationError for a username taken or a
    password too weak (nothing about the address).

    Every sign-up runs the same checks in the same order and hashes the password,
    whoever holds the address: the answer (the form's error, or "Check your email")
    and the time it takes are the same, so neither tells whether the address has
    an account."""
    User = get_user_model()
    username = User.normalize_username(username.strip())
    email = email.strip()
    User.username_validator(username)
    holders = set(User.objects.select_for_update().filter(email__iexact=email).values_list("pk", flat=True))
    pending = set(
        User.objects.filter(
            pk__in=holders, is_active=False, last_login__isnull=True, coach__isnull=True,
            organised_leagues__isnull=True,
        ).values_list("pk", flat=True)
    )
    user = User(username=username, email=email, is_active=False)
    user.set_password(password)  # hashed whatever follows, so every answer takes as long
    # Pending sign-ups of this address never count against the username: they give
    # the address (and their username) up to this one.
    if User.objects.filter(username__iexact=username).exclude(pk__in=pending).exists():
        raise ValidationError("That username is taken; choose another.")
    validate_password(password, user)
    if holders - pending:  # an account in use (or one the superuser turned off) keeps its address
        context = {"email": email, "login": site_root(request) + reverse("login"),
                   "reset": site_root(request) + reverse("password_reset")}
        notifications.queue_account_mail(
            kind="signup_exists", to=email, subject=render_to_string("registration/signup_exists_subject.txt", context),
            text=render_to_string("registration/signup_exists_email.txt", context),
        )
        return
    User.objects.filter(pk__in=pending).delete()
    user.save()
    link = site_root(request) + reverse("verify_email", args=[make_token(user)])
    if next_url:
        link += "?" + _query(next_url)
    context = {"user": user, "link": link, "days": signing.SIGNUP.max_age.days}
    notifications.queue_account_mail(
        kind="signup", to=email, subject=render_to_string("registration/signup_subject.txt", context),
        text=render_to_string("registration/signup_email.txt", context),
    )


def _query(next_url: str) -> str:
    return urlencode({"next": next_url})


@transaction.atomic
def verify(*, token: str):
    """The link's owner confirms: the account becomes active. Returns the user."""
    user = read_token(token)
    user = get_user_model().objects.select_for_update().get(pk=user.pk)
    read_token(token)  # again under the lock: two tabs cannot both use it
    user.is_active = True
    user.save(update_fields=["is_active"])
    return user
