"""The read API's league list (/api/v1/leagues/): search, pages, bounded size."""

from __future__ import annotations

import pytest

from league.models import League


@pytest.mark.django_db
def test_leagues_are_listed_searched_and_paginated(client, league):
    League.objects.create(name="Dockside Cup", slug="dockside-cup", game_system=league.game_system)
    answer = client.get("/api/v1/leagues/")
    assert answer.status_code == 200
    body = answer.json()
    assert body["count"] == 2
    assert {item["slug"] for item in body["items"]} == {league.slug, "dockside-cup"}
    assert client.get("/api/v1/leagues/?q=dockside").json()["count"] == 1
    page = client.get("/api/v1/leagues/?limit=1&offset=1").json()
    assert page["count"] == 2 and len(page["items"]) == 1


@pytest.mark.django_db
def test_a_page_is_at_most_a_hundred(client):
    assert client.get("/api/v1/leagues/?limit=101").status_code == 422
    assert client.get("/api/v1/leagues/?limit=100").status_code == 200


@pytest.mark.django_db
def test_the_docs_page_loads_its_scripts_from_the_site(client):
    page = client.get("/api/docs/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "/static/ninja/swagger-ui-bundle.js" in html
    assert "cdn" not in html.lower()
    assert client.get("/api/v1/openapi.json").json()["paths"]["/api/v1/leagues/"]
