"""The league whole through the API: the settings page's download, for a token
that may organise, of one of the league's organisers; everyone else is refused
and nothing is written."""

from __future__ import annotations

import json

import pytest

from tests.api.conftest import bearer, rows

pytestmark = pytest.mark.django_db


def _url(league) -> str:
    return f"/api/v1/leagues/{league.slug}/export/"


def test_an_organisers_token_takes_the_league_away(client, league, season, gb_fixture, organiser):
    response = client.get(_url(league), headers=bearer(organiser, "organise"))
    assert response.status_code == 200 and response["Cache-Control"] == "private, no-store"
    body = json.loads(b"".join(response.streaming_content))
    assert body["format"] == "league-export" and body["league"]["slug"] == league.slug
    assert "Ada" in json.dumps(body) and "@" not in json.dumps(body["league"])


@pytest.mark.parametrize("who, scopes, status", [
    ("organiser", ("read", "report"), 403),  # the scope is missing
    ("other_organiser", ("organise",), 403),  # another league's organiser
    ("coach", ("organise",), 403),  # a coach of the league
    ("anonymous", (), 401),
])
def test_anyone_else_is_refused(client, league, season, gb_fixture, organiser, other_organiser, who, scopes, status):
    users = {"organiser": organiser, "other_organiser": other_organiser, "coach": gb_fixture.home.coach.user}
    headers = bearer(users[who], *scopes) if who != "anonymous" else {}
    before = rows()
    response = client.get(_url(league), headers=headers)
    assert response.status_code == status and response.json()
    assert rows() == before


def test_an_unknown_league_is_404(client, organiser):
    assert client.get("/api/v1/leagues/no-such/export/", headers=bearer(organiser, "organise")).status_code == 404
