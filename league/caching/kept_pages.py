"""Logged-in pages kept per version, the viewer's own parts filled in per request.

A page a coach or an organiser sees is mostly what everyone with the same role
sees: the table, the fixture, the campaign. ``serve`` renders it once per cache
key (the versions of every season it shows and whatever else it depends on: the
day, the viewer's side, whether they organise the league) with markers where the
viewer's own parts go, keeps it, and for each request fills in only those:

- the menu (who is logged in, the admin link, the log-out form),
- the page's user mark for the offline outbox (``offline_user``),
- the CSRF token of every form,
- a fresh submission key for every result form (``idempotency_field``),
- a layer's panel whose rows are not all in the key (league/layers.py
  ``kept_panels``, ``panel_marker``), rendered by the view for this request.

The first four depend on the request alone, never on the database, so a kept page
costs the queries its key needs (the session with its account, the versions: two)
and a cache read. Everything else the page shows must be in its key: the view
says what through its ``kept_page`` decorator (league/caching/pages.py), and a page
that shows a message (``messages``) is built as usual, never kept.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.urls import get_script_prefix, get_urlconf, reverse
from django.utils.crypto import salted_hmac
from django.utils.html import format_html
from django.utils.safestring import mark_safe

from league import layers
from league.caching import versions
from league.text import markers
from league.permissions import coach_for, display_name

# Nothing a user types can read as one of these (league/text/markers.py).
NAV = markers.marker("viewer-nav")
USER = markers.marker("viewer-user")
CSRF = markers.marker("viewer-csrf")
IDEMPOTENCY = markers.marker("viewer-idempotency")

_form_key: list[Callable[[HttpRequest], str]] = []


def fill_form_key_with(render: Callable[[HttpRequest], str]) -> None:
    """Who renders the fresh submission key a kept page's result forms get per
    request (``IDEMPOTENCY``): the pages register it (league/apps.py), so the cache
    needs nothing of theirs."""
    _form_key[:] = [render]


def form_key(request: HttpRequest) -> str:
    """The hidden submission key of a result form: the marker on a page being
    rendered to be kept (each viewer gets their own when it is served), else a
    fresh key rendered by the pages' own renderer (``fill_form_key_with``)."""
    if rendering_kept(request):
        return IDEMPOTENCY
    (render,) = _form_key
    return render(request)


def rendering_kept(request) -> bool:
    """Whether ``request``'s page is being rendered to be kept: the viewer's
    parts render as markers."""
    return getattr(request, "_kept_page", False)


def context(request: HttpRequest) -> dict:
    """The context processor (settings.TEMPLATES): while a page is rendered to be
    kept, every ``{% csrf_token %}`` renders the marker instead of this viewer's
    token (it comes after Django's own csrf processor, so it wins)."""
    return {"csrf_token": CSRF} if rendering_kept(request) else {}


def keepable(request: HttpRequest) -> bool:
    """A logged-in GET whose page may come from a kept one: not while a message
    waits to be shown (in the cookie, or in the session once it overflowed)."""
    return (
        request.method in ("GET", "HEAD")
        and request.user.is_authenticated
        and "messages" not in request.COOKIES
        and "_messages" not in request.session
    )


def league_seasons(request: HttpRequest, slug: str) -> list[tuple]:
    """``versions.viewer_versions`` for the logged-in viewer of league ``slug``: each
    season as (pk, name, version, game, organises, the viewer's coach's entry), the
    current one first, in one query."""
    coach = coach_for(request.user)
    return versions.viewer_versions(slug, request.user.pk, coach.pk if coach is not None else None)


def serve(request: HttpRequest, key: str, build: Callable[[], HttpResponse], *,
          panels: Callable[[str, str], str] | None = None) -> HttpResponse:
    """The page kept under ``key`` with this viewer's parts filled in; built (with
    markers) and kept when missing. Only 200 answers are kept; any answer is
    filled in before it leaves. ``panels(layer, page)``: a layer's panel that is
    not kept, rendered for this request (a page with such panels must give it)."""
    if not keepable(request):
        return build()
    stored = cache.get(key)
    if stored is None:
        request._kept_page, request._kept_live_panels, request._kept_seconds = True, panels is not None, None
        try:
            response = build()
        finally:
            request._kept_page = request._kept_live_panels = False
        if response.streaming:
            return response
        seconds = getattr(request, "_kept_seconds", None)
        if response.status_code == 200 and seconds != 0:
            stored = (pieces(response.content.decode()), response.get("Content-Type"))
            # Expires after settings.CACHES' TIMEOUT, or sooner (``keep_for``).
            cache.set(key, stored, **({} if seconds is None else {"timeout": seconds}))
        else:
            response.content = fill(request, response.content.decode(), panels)
            return response
    content, content_type = stored
    return HttpResponse(fill(request, content, panels), content_type=content_type)


def keep_for(request: HttpRequest, seconds: int) -> None:
    """While a page is built to be kept: keep it no longer than ``seconds`` (0: not
    at all), for a part that is true only so long (the dashboard's "reported 3
    days ago"). The shortest of such calls wins; without any, the cache's timeout."""
    if rendering_kept(request):
        known = getattr(request, "_kept_seconds", None)
        request._kept_seconds = seconds if known is None else min(known, seconds)


# Every marker, found in one pass over a page (``pieces``).
MARKERS = re.compile("|".join([*map(re.escape, (NAV, USER, CSRF, IDEMPOTENCY)), layers.PANEL_MARKER.pattern]))
PANEL = markers.PANEL


def pieces(content: str) -> list[str]:
    """``content`` cut at its markers, once, when a page is kept: its text at even
    places and the markers at odd ones, so a request fills them all in one pass
    over the page, not one pass a marker."""
    out, at = [], 0
    for match in MARKERS.finditer(content):
        out += [content[at:match.start()], match.group(0)]
        at = match.end()
    out.append(content[at:])
    return out


def fill(request: HttpRequest, content: str | list[str], panels: Callable[[str, str], str] | None = None) -> str:
    """``content`` (a page, or its ``pieces``) with every marker replaced by this
    viewer's own part."""
    parts = pieces(content) if isinstance(content, str) else list(content)
    if any(marker.startswith(PANEL) for marker in parts[1::2]):
        # A layer's panel rendered for this request may hold markers of its own.
        parts = pieces("".join(_panel(part, panels) if i % 2 and part.startswith(PANEL) else part
                               for i, part in enumerate(parts)))
    token = None
    for i in range(1, len(parts), 2):
        marker = parts[i]
        if marker in (CSRF, NAV):
            token = token or get_token(request)  # one per page, as Django's
            parts[i] = token if marker == CSRF else viewer_nav(request.user, token)
        elif marker == USER:
            parts[i] = offline_mark(request)
        else:  # IDEMPOTENCY: a fresh key per form
            (render,) = _form_key
            parts[i] = render(request)
    return "".join(parts)


def _panel(marker: str, panels: Callable[[str, str], str] | None) -> str:
    layer, page = layers.PANEL_MARKER.fullmatch(marker).groups()
    return panels(layer, page)


def viewer_nav(user, csrf_token) -> str:
    """The menu of a logged-in ``user``: My fixtures, the admin for staff, their
    name (to their profile), the log-out form. Python, not a template: every
    logged-in page renders it, kept or not; and built once per account's name and
    role, the token put in per request."""
    nav = _nav(user.is_staff, display_name(user), settings.ROOT_URLCONF, get_urlconf(), get_script_prefix())
    return mark_safe(nav.replace(CSRF, str(csrf_token)))  # the token is letters and digits


@functools.lru_cache(maxsize=1024)
def _nav(staff: bool, name: str, *where) -> str:
    admin = format_html('<a href="{}">Admin</a>', reverse("admin:index")) if staff else ""
    return format_html(
        '<a href="{}">My fixtures</a>\n        {}\n        <a href="{}" title="Your profile">{}</a>\n        '
        '<form method="post" action="{}" class="inline"><input type="hidden" name="csrfmiddlewaretoken" value="{}">'
        '<button type="submit" class="link">Log out</button></form>',
        reverse("league:my_fixtures"), admin, reverse("profile"), name, reverse("logout"), CSRF,
    )


def offline_mark(request) -> str:
    """Who a page is made for, as the service worker and static/js/offline.js key
    what they keep (a hash, never the id): "" for a visitor or a page rendered
    without a request (the error pages). The template tag ``offline_user``."""
    if request is None or not getattr(request, "user", None) or not request.user.is_authenticated:
        return ""
    return _offline_mark(request.user.pk, settings.SECRET_KEY)


@functools.lru_cache(maxsize=1024)
def _offline_mark(pk: int, secret: str) -> str:
    """The same for the same account and secret key: worked out once per process."""
    return salted_hmac("league.offline.user", str(pk), secret=secret).hexdigest()[:20]
