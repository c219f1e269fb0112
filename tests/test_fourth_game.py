"""Adding a fourth game touches no engine file: Ringball lives in the
test suite only (tests/fourth_game, installed by tests/settings.py) with its
settings, result form and standings terms, declares every facet at once from its
``AppConfig.ready()`` (tests/fourth_game/game.py), and runs a season through the
engine: fixtures, report, confirm, approve, then the league page and the standings,
CSV and iCalendar feeds; its league exports and imports back with its own rows,
shows its leaderboard and champion on the records pages and answers the API."""

from __future__ import annotations

import csv
import dataclasses
import io
import json
from pathlib import Path

import pytest
from django.core.management import call_command
from django.urls import reverse

from league import games, rules
from league.games import ExportRows
from league.models import Fixture, League, Result
from league.permissions import organiser_apps
from league.records.titles import Titles
from league.services.results import record_result
from league.services.seasons import generate_fixtures
from league.leaguefiles.export import stream_league
from tests.support.factories import CoachFactory, EntryFactory, LeagueFactory, SeasonFactory
from tests.fourth_game.models import Crew, RingballSettings
from tests.fourth_game.rules import RingballRules

ROOT = Path(__file__).resolve().parent.parent


def test_ringball_is_registered_like_any_game():
    assert rules.rules_class("ringball") is RingballRules
    assert ("ringball", "Ringball") in rules.game_choices()
    assert "fourth_game" in rules.app_labels()
    assert "fourth_game" in organiser_apps()


@pytest.mark.django_db
def test_ringballs_rules_are_on_the_rules_page_after_the_engines(client):
    page = client.get(reverse("rules")).content.decode()
    assert '<h2>Ringball</h2>' in page and 'id="RB-1"' in page
    assert page.index('id="LG-1"') < page.index('id="GB-1"') < page.index('id="RB-1"')


def test_no_file_of_the_project_names_the_fourth_game():
    """Only tests/ knows Ringball: the engine, the games and the layers do not."""
    for package in ("league", "campaigns", "templates"):
        for path in (ROOT / package).rglob("*"):
            if path.suffix in (".py", ".html", ".txt", ".cfg"):
                text = path.read_text(encoding="utf-8").lower()
                assert "ringball" not in text and "fourth_game" not in text, path


@pytest.mark.django_db
def test_a_ringball_season_runs_through_the_workflow_and_the_feeds(client, organiser):
    league = LeagueFactory(name="Ring Road", slug="ring-road", game_system="ringball", organisers=[organiser])
    RingballSettings.objects.create(league=league, win_points=3)
    season = SeasonFactory(league=league, name="First Rings")
    names = ["Ada", "Bea", "Cy"]
    for name in names:
        EntryFactory(season=season, coach=CoachFactory(name=name))
    generate_fixtures(season=season, by=organiser, seed=1)
    fixtures = [f for f in season.rounds.get(number=1).fixtures.select_related("home__coach__user", "away__coach__user")
                if not f.is_bye]
    assert len(fixtures) == 1
    fixture = fixtures[0]
    home, away = fixture.home.coach, fixture.away.coach

    # The game's own form on the fixture's page, reported, confirmed, approved.
    client.force_login(home.user)
    page = client.get(fixture.get_absolute_url())
    assert 'name="home_score"' in page.content.decode() and 'name="away_score"' in page.content.decode()
    response = client.post(reverse("league:report_result", args=[fixture.pk]),
                           {"home_score": "5", "away_score": "2", "played_early": "on"})
    assert response.status_code == 302, response.content.decode()
    client.force_login(away.user)
    assert client.post(reverse("league:confirm_result", args=[fixture.pk])).status_code == 302
    client.force_login(organiser)
    assert client.post(reverse("league:approve_result", args=[fixture.pk]), {"reason": ""}).status_code == 302
    result = Result.objects.get(fixture=fixture)
    assert (result.status, result.outcome, result.home_score, result.away_score) == (Result.Status.APPROVED, "home", 5, 2)
    client.logout()

    # The standings: 3 LP for the win (the league's setting), rings for and against.
    data = json.loads(client.get(reverse("league:standings_json", args=[league.slug])).content)
    rows = {row["coach"]: row for row in data["standings"]}
    assert set(rows) == set(names)
    assert (rows[home.name]["position"], rows[home.name]["lp"], rows[home.name]["rings_for"]) == (1, 3, 5)
    assert (rows[away.name]["lp"], rows[away.name]["rings_for"], rows[away.name]["rings_against"]) == (0, 2, 5)

    table = list(csv.reader(io.StringIO(client.get(reverse("league:standings_csv", args=[league.slug])).content.decode())))
    assert table[0][-3:] == ["rings_for", "rings_against", "withdrawn_on"]
    assert [line for line in table if home.name in line][0][-3:] == ["5", "2", ""]

    ics = client.get(reverse("league:league_ics", args=[league.slug])).content.decode()
    assert ics.count("BEGIN:VEVENT") == season.rounds.count() and f"{home.name}" in ics

    page = client.get(reverse("league:league_detail", args=[league.slug])).content.decode()
    assert "Ringball" in page and "Order: League Points, then rings scored." in page
    assert "R+" in page and "R−" in page


# --- Every facet declared, each one used --------------------------------------------


def test_every_registered_game_and_layer_declares_every_facet_the_engine_needs():
    declared = games.games()
    assert {"guildball", "dungeonbowl", "dreadball", "ringball"} <= set(declared)
    for system, game in declared.items():
        assert games.missing(game) == [], system
        assert game.rules.system == system and all(board.game == system for board in game.boards), system
    layer = next(d for d in games.declared() if d.name == "The Big League")
    assert games.missing(layer) == [] and layer.game_systems == {"guildball"}
    assert set(games.FACETS) == {"rules", "rule_entries", "boards", "titles", "export_rows", "api", "tracked", "layers", "facts"}


@pytest.mark.parametrize("facet, empty", [
    ("rules", None), ("rule_entries", None), ("boards", ()), ("titles", Titles(champion=None)),
    ("export_rows", ExportRows(())),
])
def test_a_game_missing_a_facet_the_engine_needs_is_refused(facet, empty):
    broken = dataclasses.replace(games.games()["ringball"], name="Broken Ringball", **{facet: empty})
    with pytest.raises(ValueError, match=facet):
        games.register(broken)
    assert "Broken Ringball" not in [d.name for d in games.declared()]


def test_a_declaration_names_each_facet_even_an_empty_one():
    ringball = games.games()["ringball"]
    given = {name: getattr(ringball, name) for name in games.FACETS if name != "api"}
    with pytest.raises(TypeError, match="api"):
        games.Game(name="Ringball without an API", **given)


@pytest.fixture
def ring_road(organiser):
    """A finished Ringball season of two crews, the winner a crew with 5 rings to 2."""
    league = LeagueFactory(name="Ring Road", slug="ring-road", game_system="ringball", organisers=[organiser])
    RingballSettings.objects.create(league=league, win_points=3)
    season = SeasonFactory(league=league, name="First Rings")
    ada, bea = CoachFactory(name="Ada"), CoachFactory(name="Bea")
    for coach in (ada, bea):
        EntryFactory(season=season, coach=coach)
    Crew.objects.create(league=league, coach=ada, name="Iron Hoops")
    Crew.objects.create(league=league, coach=bea, name="Bell Ringers")
    generate_fixtures(season=season, by=organiser, seed=1)
    for fixture in Fixture.objects.filter(round__season=season).matches().select_related("home__coach"):
        home_won = fixture.home.coach == ada
        record_result(fixture=fixture, by=organiser, reason="", home_score=5 if home_won else 2,
                      away_score=2 if home_won else 5)
    return league


@pytest.mark.django_db
def test_ringballs_league_shows_on_the_records_pages_and_answers_the_api(client, ring_road):
    # Its leaderboard, its champion under its own name (records).
    page = client.get(reverse("league:league_leaderboards", args=[ring_road.slug])).content.decode()
    assert "Rings" in page and "Rings for" in page and "Ada" in page
    records = client.get(reverse("league:game_records", args=["ringball"])).content.decode()
    assert "Ring Master" in records and "Ada" in records
    # Its endpoint and the engine's, on /api/v1/.
    crews = client.get(f"/api/v1/leagues/{ring_road.slug}/ringball/crews/").json()
    assert crews["count"] == 2 and [c["name"] for c in crews["items"]] == ["Bell Ringers", "Iron Hoops"]
    boards = client.get(f"/api/v1/leagues/{ring_road.slug}/leaderboards/").json()
    assert [board["key"] for board in boards["boards"]] == ["rings"]
    assert {row["coach"]: row["rings_for"] for row in boards["boards"][0]["rows"]} == {"Ada": 5, "Bea": 2}
    api_records = client.get(f"/api/v1/leagues/{ring_road.slug}/records/").json()
    assert "Ring Master" in json.dumps(api_records)
    # The league page's panel, kept in its body: a crew renamed is a new version (tracked).
    assert "Iron Hoops" in client.get(reverse("league:league_detail", args=[ring_road.slug])).content.decode()
    Crew.objects.filter(name="Iron Hoops").update(name="Hoop Troop")  # no signal: the save below sends one
    Crew.objects.get(name="Hoop Troop").save()
    page = client.get(reverse("league:league_detail", args=[ring_road.slug])).content.decode()
    assert "Iron Hoops" not in page and "Hoop Troop" in page
    assert [c["name"] for c in client.get(f"/api/v1/leagues/{ring_road.slug}/ringball/crews/").json()["items"]] \
        == ["Bell Ringers", "Hoop Troop"]


@pytest.mark.django_db
def test_ringballs_league_exports_and_imports_back_with_its_own_rows(tmp_path, ring_road):
    text = "".join(stream_league(ring_road))
    tables = {table["model"]: table for table in json.loads(text)["tables"]}
    assert {"fourth_game.ringballsettings", "fourth_game.crew"} <= set(tables)
    path = tmp_path / "ring-road.json"
    path.write_text(text, encoding="utf-8")
    call_command("import_league", str(path), slug="ring-road-copy", verbosity=0)
    copy = League.objects.get(slug="ring-road-copy")
    assert copy.game_system == "ringball" and copy.ringball_settings.win_points == 3
    assert sorted(Crew.objects.filter(league=copy).values_list("name", "coach__name")) == [
        ("Bell Ringers", "Bea"), ("Iron Hoops", "Ada")]
    assert not Crew.objects.filter(league=copy, coach__in=Crew.objects.filter(league=ring_road).values("coach"))
