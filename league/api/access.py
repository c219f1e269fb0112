"""Who an API request is, and how much they may ask.

``bearer`` authenticates ``Authorization: Bearer <token>`` for the write
endpoints (no token, or one revoked, unknown or mistyped: 401). ``token_or_anonymous``
serves the read endpoints: no header is anonymous, a bad token is still a 401 (a
script that sends one should hear that it is wrong, not be served as anonymous).

``RateLimit`` counts requests per token, or per address for anonymous use, in the
database rows of league/throttle.py, which every process sees alike (the
default cache is per process), a block at a time (``Leases``); over the limit:
429 with ``Retry-After``.
"""

from __future__ import annotations

import datetime
import threading
from collections import OrderedDict

from django.conf import settings
from django.http import HttpRequest
from django.utils import timezone
from ninja.errors import AuthenticationError
from ninja.security import HttpBearer
from ninja.throttling import BaseThrottle

from league.accounts.lockout import client_ip
from league.throttle import count, seconds_left
from league.api import tokens
from league.api.models import ApiToken

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


LEASE_PARTS = 20  # a process takes a twentieth of a key's limit from the shared count at a time,
LEASE_MOST = 100  # and never more than this many requests (a lease lost with its process wastes no more)
MAX_LEASES = 10_000  # keys a process keeps leases for, the least recently used dropped first


class Leases:
    """Requests this process may still serve for a key in the current window,
    taken from the shared count in blocks: a block of ``limit // LEASE_PARTS``
    (at least 1, at most ``LEASE_MOST``) is added to the database's count in one statement, then served
    here without another. Every request served was counted first, so no key is
    ever served more than its limit across every process; what one process holds
    unused can only make another refuse a little early. Without blocks, each API
    request wrote the database (half the throughput of the standings on SQLite)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._held: OrderedDict[tuple[str, str, int], tuple[datetime.datetime, int]] = OrderedDict()

    def take(self, kind: str, key: str, limit: int) -> bool:
        """One request of ``kind`` for ``key`` within ``limit`` a window: may it be served?"""
        lease = (kind, key, limit)
        now = timezone.now()
        with self._lock:
            held = self._held.get(lease)
            if held is not None and held[0] > now and held[1] > 0:
                self._held[lease] = (held[0], held[1] - 1)
                self._held.move_to_end(lease)
                return True
        block = max(1, min(limit // LEASE_PARTS, LEASE_MOST))
        total, started = count(kind, key, block, window=WINDOW)
        granted = min(block, limit - (total - block))  # the part of this block within the limit
        with self._lock:
            self._held[lease] = (started + WINDOW, max(0, granted - 1))
            self._held.move_to_end(lease)
            while len(self._held) > MAX_LEASES:
                self._held.popitem(last=False)
        return granted > 0

    def forget(self) -> None:
        """Drop every lease (the tests: each starts with this process holding none)."""
        with self._lock:
            self._held.clear()


class RateLimit(BaseThrottle):
    """API_TOKEN_RATE requests a minute per token, API_ANONYMOUS_RATE per address
    without one, counted in blocks (``Leases``). ninja asks ``wait()`` after a
    refusal with no request, so the refused request's wait is kept per thread."""

    def __init__(self) -> None:
        self._last = threading.local()
        self.leases = Leases()

    def allow_request(self, request: HttpRequest) -> bool:
        token = getattr(request, "auth", None)
        if isinstance(token, ApiToken):
            kind, key, limit = "api-token", str(token.pk), settings.API_TOKEN_RATE
        else:
            kind, key, limit = "api-address", client_ip(request) or "unknown", settings.API_ANONYMOUS_RATE
        if self.leases.take(kind, key, limit):
            return True
        self._last.wait = seconds_left(kind, key, window=WINDOW)
        return False

    def wait(self) -> float | None:
        return getattr(self._last, "wait", WINDOW.total_seconds())


rate_limit = RateLimit()
