"""Each game's report facts as JSON, under its report form's own field names,
checked by the same form and rules as the fixture page (GB-8, DB-9, DR-3)."""

from __future__ import annotations

import pytest

from league.dreadball.models import DreadBallSettings
from league.dungeonbowl.models import PlayerGame
from league.models import Fixture, Result
from tests.api.conftest import bearer, rows
from tests.dungeonbowl.builders import db_season
from tests.dungeonbowl.postgame.test_postgame import post as db_report_data
from tests.support.factories import EntryFactory, FixtureFactory, LeagueFactory, SeasonFactory


def report(client, fixture, facts, user=None):
    return client.post(f"/api/v1/fixtures/{fixture.pk}/report/", {"facts": facts}, content_type="application/json",
                       headers=bearer(user or fixture.home.coach.user, "report"))


@pytest.mark.django_db
def test_dungeon_bowl_facts_with_player_lines(client, organiser):
    season = db_season(organiser, teams=4)
    fixture = Fixture.objects.filter(round__season=season, round__number=1).select_related(
        "home__coach__user").first()
    facts = db_report_data(fixture)
    headers = bearer(fixture.home.coach.user, "report")
    before = rows()
    refused = client.post(f"/api/v1/fixtures/{fixture.pk}/report/", {"facts": {**facts, "ending": "by magic"}},
                          content_type="application/json", headers=headers)
    assert refused.status_code == 400 and "ending: Choose how the game ended." in refused.json()["errors"]
    assert rows() == before
    answer = report(client, fixture, facts)
    assert answer.status_code == 200, answer.content
    assert answer.json()["summary"] == Result.objects.get(fixture=fixture).summary
    assert PlayerGame.objects.filter(report__result__fixture=fixture).count() == 5  # the lines named, as on the page


@pytest.mark.django_db
def test_dreadball_facts(client, organiser):
    league = LeagueFactory(name="Neon Dome", slug="neon", game_system="dreadball", organisers=[organiser])
    DreadBallSettings.objects.create(league=league)
    season = SeasonFactory(league=league)
    fixture = FixtureFactory(round__season=season, date=season.start_date,
                             home=EntryFactory(season=season, coach__name="Dana", team="Voss Voltage"),
                             away=EntryFactory(season=season, coach__name="Tavi", team="Rell Riptide"))
    refused = report(client, fixture, {"winner": "home", "difference": 9, "rush": 14})
    assert refused.status_code == 400
    assert refused.json()["fields"]["difference"] == ["The difference is at most 7: a lead of 7 wins by landslide at once."]
    answer = report(client, fixture, {"winner": "home", "difference": 3, "rush": 14, "sudden_death": False})
    assert answer.status_code == 200, answer.content
    assert answer.json()["status"] == "reported"


@pytest.mark.django_db
def test_a_future_fixture_needs_played_early(client, season):
    import datetime

    from django.utils import timezone

    fixture = FixtureFactory(round__season=season, date=timezone.localdate() + datetime.timedelta(days=3),
                             home=EntryFactory(season=season, coach__name="Ada"),
                             away=EntryFactory(season=season, coach__name="Brin"))
    refused = report(client, fixture, {"home_score": 12, "away_score": 4})
    assert refused.status_code == 400 and "tick the box to confirm" in refused.json()["errors"][0]
    assert report(client, fixture, {"home_score": 12, "away_score": 4, "played_early": True}).status_code == 200
    past = FixtureFactory(round__season=season, date=season.start_date, home=fixture.home, away=fixture.away)
    assert report(client, past, {"home_score": 12, "away_score": 4, "played_early": True}).status_code == 200
