"""Absolute links for emails and calendar feeds."""

from __future__ import annotations

from collections.abc import Callable
from contextvars import ContextVar

from django.conf import settings
from django.http import HttpRequest, HttpResponse

# The request being answered, so that a link written deep inside a service (a
# notification, a webhook post) can use the address it came to without every
# service taking the request (league/outbox/links.py RequestAddressMiddleware).
_REQUEST: ContextVar[HttpRequest | None] = ContextVar("links_request", default=None)


def site_root(request: HttpRequest | None = None) -> str:
    """What absolute links start with: ``SITE_URL`` when it is set, else the
    address the request came to, port included (so a fresh install on
    ``localhost:8000`` links to itself), else localhost for work done outside a
    request (a management command)."""
    if settings.SITE_URL:
        return settings.SITE_URL.rstrip("/")
    request = request if request is not None else _REQUEST.get()
    if request is not None:
        return request.build_absolute_uri("/").rstrip("/")
    return "http://localhost"


class RequestAddressMiddleware:
    """Remember the request while it is answered, for ``site_root()`` without one:
    an email a coach's report causes links to the address that coach used."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        token = _REQUEST.set(request)
        try:
            return self.get_response(request)
        finally:
            _REQUEST.reset(token)
