"""Changing an account's email address: it takes the account's
password, and the new address is used only once its owner opens a link sent to
it; two accounts never share an address.

The link (league/signing.py, ``EMAIL_CHANGE``) is bound to the account's
state, its address and its password hash: it works once, and not after the
password or the address changed since.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import transaction
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.urls import reverse

from league import signing
from league.outbox import notifications
from league.outbox.links import site_root
from league.models import Coach


def address_taken(email: str, *, user) -> bool:
    """Another account already uses ``email`` (whatever its case)."""
    return bool(email) and get_user_model().objects.filter(email__iexact=email).exclude(pk=user.pk).exists()


def _state(user) -> str:
    return f"{user.pk}:{user.email.strip().lower()}:{user.password}"


def make_token(user, email: str) -> str:
    return signing.EMAIL_CHANGE.make(ids={"u": user.pk, "e": email}, state=_state(user))


def read_token(token: str):
    """(user, new address) for a token; signing.LinkError with a reason a person
    understands when it is expired, used, replaced or not a token at all."""
    data = signing.EMAIL_CHANGE.read(token)
    user = get_user_model().objects.filter(pk=data.get("u")).first()
    if user is None:
        raise signing.EMAIL_CHANGE.refused(signing.USED)
    signing.EMAIL_CHANGE.check(data, _state(user))
    return user, str(data.get("e", ""))


def send_confirmation(*, user, email: str, request: HttpRequest | None) -> None:
    """Email the new address a link that makes it the account's."""
    context = {
        "user": user,
        "email": email,
        "link": site_root(request) + reverse("confirm_email", args=[make_token(user, email)]),
        "days": signing.EMAIL_CHANGE.max_age.days,
    }
    notifications.queue_account_mail(
        kind="email_change", to=email,
        subject=render_to_string("registration/email_change_subject.txt", context),
        text=render_to_string("registration/email_change_email.txt", context),
    )


@transaction.atomic
def confirm(*, token: str):
    """The link's owner confirms: the account's address (and its coach's) becomes
    the new one. Returns the user."""
    user, email = read_token(token)
    user = get_user_model().objects.select_for_update().get(pk=user.pk)
    read_token(token)  # again under the lock: two tabs cannot both use it
    if address_taken(email, user=user):
        raise ValidationError("Another account uses this address now; choose another on your profile.")
    user.email = email
    user.save(update_fields=["email"])
    for coach in Coach.objects.filter(user=user):
        coach.email = email
        coach.save(update_fields=["email"])
    return user
