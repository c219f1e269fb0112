"""Adding a fourth game touches no engine file: Ringball lives in the
test suite only (tests/fourth_game, installed by tests/settings.py) with its
settings, result form and standings terms, registers itself from its
``AppConfig.ready()``, and runs a season through the engine: fixtures, report,
confirm, approve, then the league page and the standings, CSV and iCalendar feeds."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from django.urls import reverse

from league import rules
from league.models import Result
from league.permissions import organiser_apps
from league.services.seasons import generate_fixtures
from tests.factories import CoachFactory, EntryFactory, LeagueFactory, SeasonFactory
from tests.fourth_game.models import RingballSettings
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
