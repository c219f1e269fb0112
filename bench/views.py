"""The benchmark's own view."""

from django.http import HttpRequest, HttpResponse, JsonResponse


def bare(request: HttpRequest) -> HttpResponse:
    """Constant JSON behind the site's middleware: the floor the benchmark measures
    the league page and standings.json against."""
    return JsonResponse({"ok": True})
