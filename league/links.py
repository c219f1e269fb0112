"""Absolute links for emails and calendar feeds."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest


def site_root(request: HttpRequest | None = None) -> str:
    """What absolute links start with: ``SITE_URL`` when it is set, else the
    address the request came to (so a fresh install links to itself), else
    localhost for work done outside a request (a management command)."""
    if settings.SITE_URL:
        return settings.SITE_URL.rstrip("/")
    if request is not None:
        return request.build_absolute_uri("/").rstrip("/")
    return "http://localhost"
