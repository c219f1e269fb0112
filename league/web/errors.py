"""Error pages and the health check: what a visitor or a load balancer sees when
something is wrong, rendered so that it works while the database is down.

- DatabaseUnavailableMiddleware and server_error (handler500) turn a database
  OperationalError/InterfaceError into a styled 503 "briefly unavailable" page with
  Retry-After, rendered from templates/503.html without a request context (the
  context processors read the session and the user from the database); a URL
  ending in .json gets 503 ``{"error": "unavailable"}`` instead, as its 404 is JSON.
- not_found (handler404) answers JSON for URLs ending in .json, the styled 404.html
  otherwise; 403.html is Django's default handler's template.
- RejectNulBytesMiddleware answers 400 to a query string or form value holding a
  NUL byte, which no form of the site accepts and PostgreSQL cannot store or
  compare (a text parameter with a NUL is a DataError there, a 500).
- health: GET /health/ runs SELECT 1 and answers {"status": "ok"} or 503
  {"status": "unavailable"}.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable

from django.core.exceptions import BadRequest
from django.db import DatabaseError, InterfaceError, OperationalError, connection
from django.http import HttpRequest, HttpResponse, HttpResponseServerError, JsonResponse
from django.template import loader
from django.views import defaults
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

logger = logging.getLogger(__name__)

RETRY_AFTER_SECONDS = 60
OUTAGE_ERRORS = (OperationalError, InterfaceError)


def unavailable_response(request: HttpRequest | None = None) -> HttpResponse:
    """The 503 page, or JSON for a .json URL (a client parsing JSON gets JSON). The
    template is rendered without the request, so with no context processors:
    rendering it never touches the database."""
    if request is not None and request.path.endswith(".json"):
        response = JsonResponse({"error": "unavailable"}, status=503)
    else:
        response = HttpResponse(loader.render_to_string("503.html"), status=503)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    response["Cache-Control"] = "no-store"
    return response


class DatabaseUnavailableMiddleware:
    """A view that fails because the database is unreachable answers 503, in DEBUG
    too (where handler500 is not used)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, OUTAGE_ERRORS):
            logger.error("Database unavailable on %s %s: %s", request.method, request.path, exception)
            return unavailable_response(request)
        return None


class RejectNulBytesMiddleware:
    """400 for a NUL byte in any query or form key or value (``?season=%00``)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if _has_nul(request.GET) or (
            request.method == "POST"
            and request.content_type in ("application/x-www-form-urlencoded", "multipart/form-data")
            and _has_nul(request.POST)
        ):
            message = "A NUL byte is not allowed in a form or query value."
            if request.path.startswith("/api/"):  # the API answers in JSON, refusals included
                return JsonResponse({"detail": message}, status=400)
            raise BadRequest(message)
        return self.get_response(request)


def _has_nul(data) -> bool:
    return any("\x00" in key or any("\x00" in value for value in data.getlist(key)) for key in data)


def server_error(request: HttpRequest) -> HttpResponse:
    """handler500. Django calls it while handling the exception, so sys.exc_info()
    still holds it: a database outage raised outside a view (in a middleware, while
    rendering) is a 503 here too."""
    if isinstance(sys.exc_info()[1], OUTAGE_ERRORS):
        return unavailable_response(request)
    return HttpResponseServerError(loader.render_to_string("500.html"))


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """handler404: JSON for the JSON endpoints (a client parsing JSON gets JSON),
    the styled page otherwise."""
    if request.path.endswith(".json"):
        return JsonResponse({"error": "not found"}, status=404)
    return defaults.page_not_found(request, exception)


@never_cache
@require_safe
def health(request: HttpRequest) -> JsonResponse:
    """For a load balancer or an uptime monitor: is the database answering?"""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError as exc:
        logger.error("Health check: database unavailable: %s", exc)
        return JsonResponse({"status": "unavailable"}, status=503, headers={"Retry-After": str(RETRY_AFTER_SECONDS)})
    return JsonResponse({"status": "ok"})
