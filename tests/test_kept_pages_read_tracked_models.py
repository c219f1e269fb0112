"""Every model a kept page or feed reads is tracked by the cache
(league/caching/versions.py ``track``): a save of any of them gives the seasons it
shows a new version, so no page is kept past a change of what it shows. The pages
are fetched cold, as a visitor, the league's organiser and a coach, for a league of
each game; the tables their queries read are compared with the tracked models."""

from __future__ import annotations

import re

import pytest
from django.apps import apps
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from league.caching import versions
from tests.support.world import GAMES, World, world_in_transaction

# What a kept page may read without its changes giving a season a new version, and why.
NOT_SHOWN = {
    "league.Session": "who is asking: read on every request, never kept",
    "auth.User": "the viewer: their own parts (name, menu) are filled in per request",
    "auth.Group": "permissions: whether the viewer may see the page, checked per request",
    "auth.Permission": "permissions, as above",
    "contenttypes.ContentType": "permissions, as above",
    "league.League_organisers": "who organises: the key of the organiser's pages follows it",
    "campaigns.Deck_cards": "a deck's cards: campaigns/apps.py bumps its coach's season on m2m_changed",
    "league.ResultEvent": "a fixture's history: written only by league/services/results.py beside a save of its "
                          "result or fixture (or with a bulk write it reports), which gives the season a new version",
}
TABLE = re.compile(r'(?:FROM|JOIN)\s+"([a-z0-9_]+)"', re.I)


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker):
    with world_in_transaction(django_db_blocker) as built:
        yield built


def kept_addresses(world: World, game: str) -> dict[str, list[str]]:
    played = world.games[game]
    slug, coach = played.league.slug, played.right
    public = [reverse("league:league_list"), reverse("league:league_detail", args=[slug]),
              reverse("league:fixtures", args=[slug]), reverse("league:standings_json", args=[slug]),
              reverse("league:standings_csv", args=[slug]), reverse("league:league_ics", args=[slug]),
              reverse("league:coach_ics", args=[slug, coach.pk])]
    organiser = [reverse("league:league_detail", args=[slug]), reverse("league:organiser_dashboard", args=[slug]),
                 reverse("league:fixture_detail", args=[played.fixture.pk])]
    mine = [reverse("league:league_detail", args=[slug]), reverse("league:my_fixtures"),
            reverse("league:fixture_detail", args=[played.fixture.pk])]
    if game == "guildball":
        mine.append(reverse("campaigns:coach_page", args=[slug, coach.pk]))
    return {"anonymous": public, "organiser": organiser, "coach": mine}


def _read(client: Client, address: str) -> set[str]:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(address)
    assert response.status_code == 200, address
    by_table = {model._meta.db_table: model._meta.label for model in apps.get_models(include_auto_created=True)}
    return {by_table[table] for query in queries for table in TABLE.findall(query["sql"]) if table in by_table}


def models_read(client: Client, address: str) -> set[str]:
    """What building the kept part of the page read: what the cold request read
    (everything built) less what the warm one still reads (the parts filled in per
    request: the session, a layer's live panels)."""
    cache.clear()
    cold = _read(client, address)
    return cold - _read(client, address)


@pytest.mark.django_db
@pytest.mark.parametrize("game", GAMES)
def test_every_model_a_kept_page_reads_is_tracked(game, world: World):
    clients = {"anonymous": Client(), "organiser": Client(), "coach": Client()}
    clients["organiser"].force_login(world.organiser)
    clients["coach"].force_login(world.games[game].right.user)
    tracked = {model._meta.label for model in versions.tracked()}
    read: dict[str, set[str]] = {}
    for role, addresses in kept_addresses(world, game).items():
        for address in addresses:
            for label in models_read(clients[role], address):
                read.setdefault(label, set()).add(f"{role} {address}")
    untracked = {label: sorted(where) for label, where in read.items() if label not in tracked and label not in NOT_SHOWN}
    assert not untracked, f"kept pages read models no write gives a new version: {untracked}"
    assert "league.Result" in read and "league.Fixture" in read  # the crawl read the season
