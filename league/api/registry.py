"""Where a game or a layer adds its read endpoints: from its AppConfig.ready(),
``registry.add(router)`` mounts its django-ninja Router on the API (/api/v1/), as
games register their rules with league/rules. The engine imports no game; the
endpoints are written with league/api/answers.py like the engine's own."""

from __future__ import annotations

from ninja import Router

from league.api.site import api

_added: list[Router] = []


def add(router: Router) -> None:
    """Mount ``router``'s endpoints under /api/v1/ (once, however often it is asked)."""
    if router in _added:
        return
    _added.append(router)
    api.add_router("", router)


def added() -> tuple[Router, ...]:
    return tuple(_added)
