"""After a refused form the address is the page, never a 405.

Forms post to action addresses (``/fixtures/7/report/``); a refused POST
re-renders the page there with status 400 and the form's errors (the typed values
kept, nothing in the session). Reloading that page asks to send the form again;
but opening the action address with a GET (a reload after the browser dropped the
form data, a bookmark, a shared link) used to answer 405. This middleware turns a
405 to a GET into a redirect to the nearest address above it that is a page: the
fixture, the coach's campaign page, the campaign table. The API's addresses
(``/api/``) keep their 405: a script reads the status, and has no page to go to.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import Resolver404, resolve

API_PREFIX = "/api/"


def page_above(path: str) -> str | None:
    """The nearest ancestor of ``path`` that resolves to a view ("/fixtures/7/"
    for "/fixtures/7/report/"); None when only the root is left."""
    parts = [p for p in path.split("/") if p]
    while len(parts) > 1:
        parts.pop()
        candidate = "/" + "/".join(parts) + "/"
        try:
            resolve(candidate)
        except Resolver404:
            continue
        return candidate
    return None


class ReloadSafeMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if (response.status_code == 405 and request.method in ("GET", "HEAD") and "POST" in response.get("Allow", "")
                and not request.path_info.startswith(API_PREFIX)):
            target = page_above(request.path_info)
            if target is not None:
                return HttpResponseRedirect(request.META.get("SCRIPT_NAME", "") + target)
        return response
