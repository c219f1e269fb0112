"""Changing an account's email address: it takes the account's
password, and the new address is used only once its owner opens a link sent to
it; two accounts never share an address.

The link carries a signed token (``django.core.signing``, its own salt), valid for
``MAX_AGE``, bound as the invitations' are to the account's state (its address
and its password hash): it works once, and not after the password or the address
changed since.
"""

from __future__ import annotations

import datetime

from django.contrib.auth import get_user_model
from django.core import signing
from django.core.exceptions import ValidationError
from django.db import transaction
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.crypto import constant_time_compare, salted_hmac

from league.outbox import notifications
from league.outbox.links import site_root
from league.models import Coach

SALT = "league.accounts.email_change"
MAX_AGE = datetime.timedelta(days=3)


def address_taken(email: str, *, user) -> bool:
    """Another account already uses ``email`` (whatever its case)."""
    return bool(email) and get_user_model().objects.filter(email__iexact=email).exclude(pk=user.pk).exists()


def _state(user) -> str:
    return salted_hmac(SALT, f"{user.pk}:{user.email.strip().lower()}:{user.password}").hexdigest()[:20]


def make_token(user, email: str) -> str:
    return signing.dumps({"u": user.pk, "e": email, "s": _state(user)}, salt=SALT, compress=True)


def read_token(token: str):
    """(user, new address) for a token; ValidationError with a reason a person
    understands when it is expired, used, replaced or not a token at all."""
    try:
        data = signing.loads(token, salt=SALT, max_age=MAX_AGE)
    except signing.SignatureExpired:
        raise ValidationError("This link has expired. Change your address on your profile again.") from None
    except signing.BadSignature:
        raise ValidationError("This link is not valid: check that you copied all of it.") from None
    user = get_user_model().objects.filter(pk=data.get("u")).first() if isinstance(data, dict) else None
    if user is None or not constant_time_compare(str(data.get("s", "")), _state(user)):
        raise ValidationError("This link has been used, or your account changed since it was sent.")
    return user, str(data.get("e", ""))


def send_confirmation(*, user, email: str, request: HttpRequest | None) -> None:
    """Email the new address a link that makes it the account's."""
    context = {
        "user": user,
        "email": email,
        "link": site_root(request) + reverse("confirm_email", args=[make_token(user, email)]),
        "days": MAX_AGE.days,
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
