"""The read API against its own schema, for a league of each game (tests/support/world.py):
every path in the schema is answered (200, or 404 where the league has no such
thing, and 200 for at least one game), every endpoint is in the schema, and the
answers are the same whoever asks (the API's matrix: anonymous, a coach who plays
nowhere, the right and the wrong coach, another league's organiser, the organiser)."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver

from league import games
from league.api.site import api
from league.dungeonbowl.models import Team
from tests.support.world import GAMES, logged_in_clients, world_in_transaction

ROLES = ("anonymous", "nobody", "right", "wrong", "rival", "organiser")


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker):
    with world_in_transaction(django_db_blocker) as built:
        yield built


@pytest.fixture(scope="module")
def clients(world, django_db_blocker):
    with django_db_blocker.unblock():
        return logged_in_clients(world, lambda w, game: {
            "anonymous": None, "nobody": w.nobody, "right": w.games[game].right.user,
            "wrong": w.games[game].wrong.user, "rival": w.rival, "organiser": w.organiser,
        })


def _paths() -> list[str]:
    return sorted(api.get_openapi_schema()["paths"])


def _read_paths() -> list[str]:
    """The paths answered to a GET without a token (the result workflow's writes,
    POST only, and the organiser's export, both with a token, are driven in
    tests/api/), but those of a game the world has no league of (the test
    fourth game's: tests/test_fourth_game.py asks them)."""
    elsewhere = {tag for system, game in games.games().items() if system not in GAMES and game.api is not None
                 for tag in game.api.tags or ()}
    return sorted(path for path, operations in api.get_openapi_schema()["paths"].items()
                  if "get" in operations and not operations["get"].get("security")
                  and not set(operations["get"].get("tags", ())) & elsewhere)


def _address(path: str, world, game: str) -> str:
    g = world.games[game]
    team = Team.objects.filter(league=g.league).order_by("pk").first()
    values = {"slug": g.league.slug, "game": game, "coach_id": g.right.pk, "team_slug": team.slug if team else "no-team"}
    return re.sub(r"{(\w+)}", lambda m: str(values[m.group(1)]), path)


def _routes(patterns, prefix=""):
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            yield from _routes(pattern.url_patterns, prefix + str(pattern.pattern))
        elif isinstance(pattern, URLPattern):
            yield prefix + str(pattern.pattern)


def test_every_endpoint_is_in_the_schema():
    urls, _, _ = api.urls
    documented = {re.sub(r"{(\w+)}", r"<\1>", path.removeprefix("/api/v1/")) for path in _paths()}
    served = {re.sub(r"<(?:\w+:)?(\w+)>", r"<\1>", route) for route in _routes(urls)}
    # "": the API's root, which only names the docs (a 404); the schema itself.
    assert served - {"", "openapi.json"} == documented
    assert len(documented) >= 17


@pytest.mark.django_db
def test_every_path_in_the_schema_is_answered_for_every_game(world, clients):
    for path in _read_paths():
        answered = []
        for game in GAMES:
            address = _address(path, world, game)
            response = clients[game, "anonymous"].get(address)
            assert response.status_code in (200, 404), (address, response.status_code, response.content[:300])
            assert response["Content-Type"].startswith("application/json"), address
            answered.append(response.status_code)
        assert 200 in answered, (path, answered)


@pytest.mark.django_db
def test_every_role_gets_the_same_answer(world, clients):
    """The API is read-only and shows nothing of who asks: every role's answer is
    the anonymous visitor's (no organiser's or coach's extra, nothing refused)."""
    for path in _read_paths():
        for game in GAMES:
            address = _address(path, world, game)
            anonymous = clients[game, "anonymous"].get(address)
            for role in ROLES[1:]:
                answer = clients[game, role].get(address)
                assert (answer.status_code, answer.content) == (anonymous.status_code, anonymous.content), (
                    address, role)


@pytest.mark.django_db
def test_a_page_is_never_more_than_a_hundred(world):
    client = Client()
    slug = world.games["guildball"].league.slug
    paged = [p for p in _paths() if "limit" in str(api.get_openapi_schema()["paths"][p])]
    assert len(paged) >= 8
    for path in paged:
        address = _address(path, world, "guildball").replace(world.games["guildball"].league.slug, slug)
        assert client.get(address, {"limit": 101}).status_code == 422, path
