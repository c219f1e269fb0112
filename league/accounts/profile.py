"""A coach's own account: what the tables call them and the address the site
writes to (the profile page, league/accounts/views.py)."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction

from league.accounts import email_change
from league.models import Coach
from league.selectors import name_clash

MAX_NAME = Coach._meta.get_field("name").max_length


@transaction.atomic
def update_profile(*, user, name: str | None, email: str, password: str = "") -> str | None:
    """A coach changes what the tables call them; anyone changes their address:
    that takes the account's password, no other account may use the
    address, and a new address is only proposed: returns it, for the caller to send
    its confirmation link (league/accounts/email_change.py) after this commits. Removing the
    address takes the password and nothing more. A name differs from the other
    entrants' of the coach's seasons, whatever the case, width or invisible
    characters (league/text/plaintext.py ``name_key``). Returns None when the address is unchanged."""
    email = email.strip()
    coach = Coach.objects.select_for_update().filter(user=user).first()
    if coach is not None and name is not None:
        name = name.strip()[:MAX_NAME]
        if not name:
            raise ValidationError("Your display name cannot be empty.")
        clash = name_clash(coach=coach, name=name)  # only the coach's own seasons matter
        if clash:
            raise ValidationError(clash)
        coach.name = name
        coach.save(update_fields=["name"])
    current = user.email or (coach.email if coach is not None else "")
    if email.lower() == current.strip().lower():
        if email and not user.email and not email_change.address_taken(email, user=user):
            user.email = email  # the address the organiser invited them at
            user.save(update_fields=["email"])
        return None
    if not user.check_password(password):
        raise ValidationError("Enter your password to change your email address.")
    if email_change.address_taken(email, user=user):
        raise ValidationError("Another account uses this address; choose another.")
    if email:
        return email
    user.email = ""
    user.save(update_fields=["email"])
    if coach is not None:
        coach.email = ""
        coach.save(update_fields=["email"])
    return None
