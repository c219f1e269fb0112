"""The site installable and tolerant of a lost signal.

- ``/manifest.webmanifest``: the web app manifest (name, icons, start page).
- ``/sw.js``: the service worker (static/js/sw.js), served from the site's root with
  ``Service-Worker-Allowed: /`` so it may look after every page: pages network-first
  with the last copy kept per user for a lost signal, static files cache-first, and
  the outbox of result forms kept while offline (static/js/outbox.js, shared with
  static/js/offline.js in the page).
- Logging out answers ``Clear-Site-Data: "cache", "storage"``: the browser drops the
  pages and the outbox the worker kept, so nothing of this user shows afterwards.
"""

from __future__ import annotations

from django.contrib.auth import views as auth_views
from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import staticfiles_storage
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.templatetags.static import static
from django.urls import reverse
from django.views.decorators.http import require_GET

THEME_COLOUR = "#1d2330"  # the header's ink (static/css/site.css --ink)
OUTBOX_PLACEHOLDER = "__OUTBOX_SCRIPT__"


def _static_text(name: str) -> str:
    """A file of static/ as text: from the source tree, or what collectstatic gathered."""
    found = finders.find(name)
    if found:
        with open(found, encoding="utf-8") as file:
            return file.read()
    with staticfiles_storage.open(name) as file:
        return file.read().decode("utf-8")


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """static/js/sw.js at the root, so its scope is the whole site; the outbox script
    it imports is named by its static address (hashed in production, so a new
    outbox changes the worker's bytes and browsers update it)."""
    script = _static_text("js/sw.js").replace(OUTBOX_PLACEHOLDER, static("js/outbox.js"))
    response = HttpResponse(script, content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    response["Cache-Control"] = "no-cache"  # browsers check for a new worker on every visit
    return response


@require_GET
def manifest(request: HttpRequest) -> JsonResponse:
    start = reverse("league:my_fixtures")
    return JsonResponse(
        {
            "name": "League Manager",
            "short_name": "Leagues",
            "description": "Fixtures, results and standings for Guild Ball, Dungeon Bowl and DreadBall leagues.",
            "start_url": start,
            "scope": "/",
            "display": "standalone",
            "background_color": "#fbfaf7",
            "theme_color": THEME_COLOUR,
            "icons": [
                {"src": static("icons/icon.svg"), "sizes": "any", "type": "image/svg+xml"},
                {"src": static("icons/icon-192.png"), "sizes": "192x192", "type": "image/png"},
                {"src": static("icons/icon-512.png"), "sizes": "512x512", "type": "image/png"},
            ],
        },
        content_type="application/manifest+json",
    )


class LogoutView(auth_views.LogoutView):
    """Django's logout, telling the browser to drop what it kept of this user's pages
    (the service worker's caches, the outbox in IndexedDB) as the session ends."""

    def post(self, request, *args, **kwargs):
        response = super().post(request, *args, **kwargs)
        response["Clear-Site-Data"] = '"cache", "storage"'
        return response
