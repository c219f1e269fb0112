"""Who an API request is, and how much they may ask.

``bearer`` authenticates ``Authorization: Bearer <token>`` for the write
endpoints (no token, or one revoked, unknown or mistyped: 401). ``token_or_anonymous``
serves the read endpoints: no header is anonymous, a bad token is still a 401 (a
script that sends one should hear that it is wrong, not be served as anonymous).

``RateLimit`` counts requests per token, or per address for anonymous use, in the
database rows of league/accounts/throttle.py, which every process sees alike (the
default cache is per process); over the limit: 429 with ``Retry-After``.
"""

from __future__ import annotations

import datetime
import threading

from django.conf import settings
from django.http import HttpRequest
from ninja.errors import AuthenticationError
from ninja.security import HttpBearer
from ninja.throttling import BaseThrottle

from league.accounts.lockout import client_ip
from league.accounts.throttle import seconds_left, within_limit
from league.apitokens import tokens
from league.apitokens.models import ApiToken

WINDOW = datetime.timedelta(minutes=1)


class Bearer(HttpBearer):
    """A personal token, or a 401."""

    def authenticate(self, request: HttpRequest, token: str) -> ApiToken | None:
        found = tokens.token_for(token)
        if found is not None:
            tokens.touch(found)
            request.user = found.user  # what the services are told: the token's user
        return found


class Anonymous:
    """A request without a token: truthy, so ninja lets it through as ``request.auth``."""

    def __bool__(self) -> bool:
        return True


ANONYMOUS = Anonymous()
bearer = Bearer()


def token_or_anonymous(request: HttpRequest) -> ApiToken | Anonymous:
    if not request.headers.get("Authorization"):
        return ANONYMOUS
    found = bearer(request)
    if found is None:
        raise AuthenticationError()
    return found


class RateLimit(BaseThrottle):
    """API_TOKEN_RATE requests a minute per token, API_ANONYMOUS_RATE per address
    without one. ninja asks ``wait()`` after a refusal with no request, so the
    refused request's wait is kept per thread."""

    def __init__(self) -> None:
        self._last = threading.local()

    def allow_request(self, request: HttpRequest) -> bool:
        token = getattr(request, "auth", None)
        if isinstance(token, ApiToken):
            kind, key, limit = "api-token", str(token.pk), settings.API_TOKEN_RATE
        else:
            kind, key, limit = "api-address", client_ip(request) or "unknown", settings.API_ANONYMOUS_RATE
        if within_limit(kind, key, limit, window=WINDOW):
            return True
        self._last.wait = seconds_left(kind, key, window=WINDOW)
        return False

    def wait(self) -> float | None:
        return getattr(self._last, "wait", WINDOW.total_seconds())


rate_limit = RateLimit()
