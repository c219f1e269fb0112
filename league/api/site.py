"""The read API's one NinjaAPI object, mounted at /api/v1/ (league/urls.py), its
browsable docs at /api/docs/.

django-ninja serves its Swagger UI from its own static files (``ninja`` is in
INSTALLED_APPS), so the docs page needs nothing from another origin and passes the
site's Content-Security-Policy.
"""

from __future__ import annotations

from functools import partial

from django.views.decorators.http import require_safe
from ninja import NinjaAPI, Router
from ninja.openapi.views import openapi_view

from league import games
from league.api import access
from league.api.writes import router as result_writes

api = NinjaAPI(
    title="League API",
    version="1",
    description=(
        "Read-only: leagues, seasons, divisions, standings, rounds, fixtures, results and "
        "coaches, ratings, coach profiles, leaderboards and records, and what each game adds. "
        "Anonymous; lists are paginated (limit at most 100)."
    ),
    urls_namespace="api",
    # Anonymous, or a personal token (a wrong one is a 401); counted per token or
    # per address (league/api/access.py).
    auth=access.token_or_anonymous,
    throttle=[access.rate_limit],
    docs_url=None,  # the docs live at /api/docs/, beside the versions they document
    docs_decorator=require_safe,  # the schema is read, never posted to (405)
)

# The Swagger UI page, reading this API's schema at /api/v1/openapi.json.
docs_view = require_safe(partial(openapi_view, api=api))

from league.api import across, endpoints  # noqa: E402  the engine's endpoints

api.add_router("", endpoints.router)
api.add_router("", across.router)
api.add_router("", result_writes)  # the result workflow's writes, with a token (league/api/writes.py)

_mounted: list[Router] = []


def _mount(declaration: games.Declaration) -> None:
    """A game's or a layer's read endpoints under /api/v1/ (its declaration's ``api``),
    once however often it is declared."""
    if declaration.api is not None and declaration.api not in _mounted:
        _mounted.append(declaration.api)
        api.add_router("", declaration.api)


games.follow(_mount)
