"""Every link the site hands to a person, made and checked in one place: the
sign-up link that verifies an address, the link that confirms a new address, an
invitation to a coach's place and a season's join link.

A link's token is a small JSON payload signed with Django's ``TimestampSigner``
(HMAC-SHA-256) under its kind's own salt, so a token of one kind never opens
another kind's page, and read back within its kind's ``max_age``. The payload
names what the link is for (an account, a coach, a join link: ids, which are
public) and carries ``s``, an HMAC-SHA-256 digest of what the link is bound to,
its *state*: the account's address and password hash, the invitation's nonce,
the join link's key. Once the state changes the link stops working, which is how
a link works once; and since the state holds something only the mail carries (a
nonce, a password hash, a key), a token signed with a leaked SECRET_KEY still
opens nothing.

A link that does not work raises ``LinkError``: a ValidationError whose message
tells the person what happened and what to do, and whose ``reason`` is EXPIRED,
TAMPERED or USED.

Not here, because they are not links to people: the offline mark
(league/caching/kept_pages.py) and the import preview's payload
(league/spreadsheets/views.py). Django's password reset keeps its own tokens.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.core.signing import BadSignature, SignatureExpired, TimestampSigner
from django.utils.crypto import constant_time_compare, salted_hmac

EXPIRED = "expired"
TAMPERED = "tampered"  # not signed here, cut short, altered, or of another kind
USED = "used"  # a real link whose state changed: used, replaced, withdrawn

ALGORITHM = "sha256"
STATE_LENGTH = 32  # hex characters of the state's digest: 128 bits


class LinkError(ValidationError):
    """A link that does not work; the message is for the person who opened it."""

    def __init__(self, message: str, *, reason: str) -> None:
        super().__init__(message, code=reason)
        self.reason = reason


@dataclass(frozen=True)
class LinkKind:
    """One kind of link: its salt, how long it works (None: until its state
    changes) and what a person is told when it does not."""

    salt: str
    max_age: datetime.timedelta | None
    expired: str
    tampered: str
    used: str

    def make(self, *, ids: dict[str, Any], state: str) -> str:
        """The token for a link naming ``ids`` and bound to ``state``."""
        return self._signer().sign_object({**ids, "s": _digest(self.salt, state)}, compress=True)

    def read(self, token: str) -> dict[str, Any]:
        """The payload of a token signed for this kind and not older than its
        max age: the caller looks up what its ids name, then calls ``check``."""
        try:
            data = self._signer().unsign_object(token, max_age=self.max_age)
        except SignatureExpired:
            raise self.refused(EXPIRED) from None
        except BadSignature:
            raise self.refused(TAMPERED) from None
        if not isinstance(data, dict):
            raise self.refused(TAMPERED)
        return data

    def check(self, data: dict[str, Any], state: str) -> None:
        """Raises USED unless the payload was bound to ``state``, what the link's
        object is now."""
        sent = str(data.get("s", ""))
        if not (constant_time_compare(sent, _digest(self.salt, state)) or _bound_before(self, data, state)):
            raise self.refused(USED)

    def refused(self, reason: str, message: str | None = None) -> LinkError:
        """The error for ``reason``, with this kind's words unless ``message``
        says more (an invitation already used says to log in)."""
        default = {EXPIRED: self.expired, TAMPERED: self.tampered, USED: self.used}[reason]
        return LinkError(message or default, reason=reason)

    def _signer(self) -> TimestampSigner:
        return TimestampSigner(salt=self.salt, algorithm=ALGORITHM)


def _digest(salt: str, state: str) -> str:
    return salted_hmac(salt, state, algorithm=ALGORITHM).hexdigest()[:STATE_LENGTH]


# The salts are the ones each kind of link has always been signed with, not module
# paths: changing one would void every link already mailed.

SIGNUP = LinkKind(
    salt="league.signup",
    max_age=datetime.timedelta(days=3),
    expired="This link has expired. Sign up again to get a new one.",
    tampered="This link is not valid: check that you copied all of it.",
    used="This link has been used already, or replaced by a newer sign-up: log in instead.",
)

EMAIL_CHANGE = LinkKind(
    salt="league.email_change",
    max_age=datetime.timedelta(days=3),
    expired="This link has expired. Change your address on your profile again.",
    tampered="This link is not valid: check that you copied all of it.",
    used="This link has been used, or your account changed since it was sent.",
)

INVITATION = LinkKind(
    salt="league.invitations",
    max_age=datetime.timedelta(days=7),
    expired="This invitation has expired. Ask your league's organiser to send a new one.",
    tampered="This invitation link is not valid: check that you copied all of it.",
    used="This invitation has been replaced by a newer one. Use the latest email.",
)

# A claim link (the organiser copies it from the Coaches page and hands it over):
# bound to the coach's open invitation nonce, so making a new link, or emailing
# an invitation, retires it, and claiming the place spends it.
CLAIM = LinkKind(
    salt="league.claimlink",
    max_age=datetime.timedelta(days=30),
    expired="This claim link has expired. Ask your league's organiser for a new one.",
    tampered="This claim link is not valid: check that you copied all of it.",
    used="This claim link has been replaced by a newer one, or the place is taken. Ask your league's organiser.",
)

# A join link works until the organiser withdraws or closes it (JoinLink.refusal);
# its key never changes, so a token that does not match it was never a real link
# and is told so.
JOIN = LinkKind(
    salt="league.joinlink",
    max_age=None,
    expired="This join link has expired. Ask the organiser for a new one.",
    tampered="This join link is not valid: check that you copied all of it.",
    used="This join link is not valid: check that you copied all of it.",
)


def _bound_before(kind: LinkKind, data: dict[str, Any], state: str) -> bool:
    """Links handed out before every kind was bound the same way: an email-change
    link carried a 20-character HMAC-SHA-1 of its state, a join link its key
    itself. Their signature was already HMAC-SHA-256 under the same salt, so they
    are real links and keep working for their own lifetime: an email-change link
    for its three days, a join link for as long as the organiser keeps it open
    (people hold one from a poster or a chat). Sign-up and invitation links were
    bound as they are now."""
    if kind.salt == EMAIL_CHANGE.salt:
        sent = str(data.get("s", ""))
        sha1 = salted_hmac(kind.salt, state, algorithm="sha1").hexdigest()[:20]
        return len(sent) == 20 and constant_time_compare(sent, sha1)
    if kind.salt == JOIN.salt and "k" in data:
        return constant_time_compare(str(data["k"]), state)
    return False
