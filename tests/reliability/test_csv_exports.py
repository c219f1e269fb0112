"""CSV formula injection: every CSV the site writes (standings.csv for
each game) writes a name that starts like a formula as text, and booleans as
standings.json does."""

from __future__ import annotations

import csv
import io

import pytest
from django.urls import reverse

from league.web import feeds
from tests.dungeonbowl.builders import db_season
from tests.support.factories import CoachFactory, EntryFactory, LeagueFactory, ResultFactory, RoundFactory, FixtureFactory

pytestmark = pytest.mark.django_db

EVIL = '=HYPERLINK("http://evil.example","Click")'


def _rows(client, slug: str) -> list[dict]:
    response = client.get(reverse("league:standings_csv", args=[slug]))
    assert response.status_code == 200
    return list(csv.DictReader(io.StringIO(response.content.decode())))


@pytest.mark.parametrize("game", ["guildball", "dreadball"])
def test_standings_csv_writes_formula_names_as_text(client, season, game):
    season.league.game_system = game
    season.league.save()
    rnd = RoundFactory(season=season, number=1)
    home = EntryFactory(season=season, coach=CoachFactory(name=EVIL))
    away = EntryFactory(season=season, coach=CoachFactory(name="@SUM(1+1)"))
    FixtureFactory(round=rnd, home=home, away=away)
    rows = _rows(client, season.league.slug)
    assert {row["coach"] for row in rows} == {"'" + EVIL, "'@SUM(1+1)"}
    assert {row["tied"] for row in rows} <= {"true", "false"}


def test_standings_csv_has_no_formula_cell_for_a_semicolon_spreadsheet(client, season):
    """A coach named ``Zed;=1+2`` opened by Excel with ";" as its list
    separator (many European locales) gives no cell that starts a formula."""
    rnd = RoundFactory(season=season, number=1)
    home = EntryFactory(season=season, coach=CoachFactory(name="Zed;=1+2"))
    away = EntryFactory(season=season, coach=CoachFactory(name="Ada"))
    FixtureFactory(round=rnd, home=home, away=away)
    response = client.get(reverse("league:standings_csv", args=[season.league.slug]))
    assert response.status_code == 200
    text = response.content.decode()
    assert "Zed;'=1+2" in text
    cells = [cell for row in csv.reader(io.StringIO(text), delimiter=";") for line in row for cell in line.split(",")]
    assert not [cell for cell in cells if cell.startswith(("=", "+", "@"))]


def test_dungeon_bowl_team_names_are_text_too(client, organiser):
    season = db_season(organiser, teams=4, prefix="-Team")
    rows = _rows(client, season.league.slug)
    assert rows and all(row["team"].startswith("'-Team") for row in rows)


def test_every_csv_writer_goes_through_csvsafe():
    """A new export cannot forget it: the only csv writer in the code is csvsafe's."""
    import pathlib

    root = pathlib.Path(__file__).resolve().parents[2]
    offenders = [
        str(path.relative_to(root))
        for folder in ("league", "campaigns")
        for path in (root / folder).rglob("*.py")
        if path.name != "csvsafe.py"
        and ("csv.writer(" in path.read_text() or "csv.DictWriter(" in path.read_text())
    ]
    assert offenders == []


def test_csv_value_booleans():
    assert [feeds.csv_value(v) for v in (True, False, 0, None, "x")] == ["true", "false", 0, None, "x"]
