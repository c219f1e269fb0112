"""Login throttling with django-axes: the client address it counts failures by, and
the page a locked-out person sees. Axes calls both through settings
(AXES_CLIENT_IP_CALLABLE, AXES_LOCKOUT_CALLABLE); nothing else imports this module."""

from __future__ import annotations

import math
from datetime import timedelta

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse


def client_ip(request: HttpRequest) -> str | None:
    """The address a login attempt comes from.

    Behind TRUSTED_PROXY_COUNT reverse proxies that each append the address they
    saw to X-Forwarded-For, the client is the entry that many places from the right:
    entries further left were written by the client and can be forged, so trusting
    the left-most one would give an attacker a fresh address per attempt. With no
    proxy (the default), REMOTE_ADDR; a proxy in front with the count left at 0
    makes every visitor one address, which locks everyone out together, so the
    README's production recipe sets it.
    """
    proxies = settings.TRUSTED_PROXY_COUNT
    if proxies:
        hops = [part.strip() for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if part.strip()]
        if len(hops) >= proxies:
            return hops[-proxies][:100]
    return request.META.get("REMOTE_ADDR")


def lockout_response(request: HttpRequest, original_response: HttpResponse | None = None, credentials: dict | None = None) -> HttpResponse:
    """429 with the cool-off in minutes, a Retry-After header and a way home, for the
    site's login and the admin's alike."""
    cool_off: timedelta = settings.AXES_COOLOFF_TIME
    minutes = max(1, math.ceil(cool_off.total_seconds() / 60))
    response = TemplateResponse(
        request,
        "registration/locked_out.html",
        {"minutes": minutes, "failure_limit": settings.AXES_FAILURE_LIMIT},
        status=429,
    )
    response["Retry-After"] = str(int(cool_off.total_seconds()))
    return response.render()
