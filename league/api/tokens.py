"""Making, finding and revoking personal API tokens.

A token reads ``lgt_<prefix>_<secret>``: the prefix (12 hex digits) is kept in
clear to find the row, the secret (32 random bytes) only inside the SHA-256 of
the whole token. A high-entropy secret needs no slow hash: nobody can guess one,
so a fast digest compared in constant time is enough, and it costs nothing per
request. The whole token is in the answer of ``create_token`` and nowhere else.
"""

from __future__ import annotations

import datetime
import hashlib
import hmac
import secrets

from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from league.api.models import ApiToken, Scope

MARK = "lgt"
MAX_ACTIVE = 20  # per user: a bound on what a page lists and a person keeps
NAME_LENGTH = ApiToken._meta.get_field("name").max_length
# How often the "last used" time is written: at most once this often per token, so
# a busy bot does not write its row on every request.
TOUCH_EVERY = datetime.timedelta(minutes=5)


def digest_of(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@transaction.atomic
def create_token(*, user, name: str, scopes: list[str]) -> tuple[ApiToken, str]:
    """A new token of ``user`` with ``scopes`` (Scope values); returns the row and
    the whole token, which is never stored and cannot be shown again."""
    if not user.is_authenticated or not user.is_active:
        raise PermissionDenied("Log in to make an API token.")
    name = (name or "").strip()
    if not name:
        raise ValidationError("Name the token, so you know which one to revoke later.")
    if len(name) > NAME_LENGTH:
        raise ValidationError(f"A token's name has at most {NAME_LENGTH} characters.")
    unknown = set(scopes) - set(Scope.values)
    if unknown:
        raise ValidationError(f"Unknown scope: {', '.join(sorted(unknown))}.")
    if not scopes:
        raise ValidationError("Choose at least one thing the token may do.")
    # The user's row is locked so that two pages sending at once cannot pass the bound together.
    get_user_model().objects.select_for_update().filter(pk=user.pk).first()
    if ApiToken.objects.filter(user=user, revoked_at__isnull=True).count() >= MAX_ACTIVE:
        raise ValidationError(f"You have {MAX_ACTIVE} tokens in use: revoke one you no longer need first.")
    prefix = secrets.token_hex(6)
    whole = f"{MARK}_{prefix}_{secrets.token_urlsafe(32)}"
    token = ApiToken.objects.create(
        user=user, name=name, prefix=prefix, digest=digest_of(whole),
        may_read=Scope.READ in scopes, may_report=Scope.REPORT in scopes, may_organise=Scope.ORGANISE in scopes,
    )
    return token, whole


@transaction.atomic
def revoke_token(*, token_id: int, by) -> ApiToken:
    """Revoke one of ``by``'s own tokens: it is refused from the next request on.
    Another user's token is not found (404 for the page, as if it did not exist)."""
    token = ApiToken.objects.select_for_update().filter(pk=token_id, user=by).first() if by.is_authenticated else None
    if token is None:
        raise ApiToken.DoesNotExist
    if token.revoked_at is None:
        token.revoked_at = timezone.now()
        token.save(update_fields=["revoked_at"])
    return token


def parse(value: str) -> tuple[str, str] | None:
    """``(prefix, whole token)`` of a well-formed token, or None."""
    value = value.strip()
    parts = value.split("_", 2)
    if len(parts) != 3 or parts[0] != MARK or len(parts[1]) != 12 or not parts[2] or len(value) > 100:
        return None
    return parts[1], value


def token_for(value: str) -> ApiToken | None:
    """The active token ``value`` is, with its user (one query), or None: a token
    revoked, unknown, mistyped or of a deactivated account."""
    parsed = parse(value)
    if parsed is None:
        return None
    prefix, whole = parsed
    token = (ApiToken.objects.select_related("user").filter(prefix=prefix, revoked_at__isnull=True,
                                                           user__is_active=True).first())
    if token is None or not hmac.compare_digest(token.digest, digest_of(whole)):
        return None
    return token


def touch(token: ApiToken) -> None:
    """Note that ``token`` was used now, at most once per TOUCH_EVERY (one UPDATE
    that changes nothing when it was noted recently)."""
    now = timezone.now()
    if token.last_used is not None and token.last_used > now - TOUCH_EVERY:
        return
    ApiToken.objects.filter(pk=token.pk).filter(Q(last_used__isnull=True) | Q(last_used__lte=now - TOUCH_EVERY)).update(
        last_used=now)
    token.last_used = now


def tokens_of(user) -> list[ApiToken]:
    """A user's tokens in use, then the revoked ones (the newest first), bounded."""
    active = list(ApiToken.objects.filter(user=user, revoked_at__isnull=True)[:MAX_ACTIVE])
    revoked = list(ApiToken.objects.filter(user=user, revoked_at__isnull=False).order_by("-revoked_at")[:MAX_ACTIVE])
    return active + revoked
