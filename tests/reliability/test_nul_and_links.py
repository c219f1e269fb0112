"""A bad request is a 4xx, never a 500: a NUL byte in any query or form value is a
400 (PostgreSQL cannot compare text holding one: a DataError, a 500), on SQLite
and PostgreSQL alike; season names in links are URL-encoded."""

from __future__ import annotations

import pytest
from django.urls import reverse

from league.models import Result
from tests.support.factories import CoachFactory, EntryFactory, FixtureFactory, RoundFactory, SeasonFactory

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "name", ["league:league_detail", "league:fixtures", "league:standings_json", "league:standings_csv", "league:league_ics"]
)
def test_nul_in_season_query_is_a_400(client, season, name):
    response = client.get(reverse(name, args=[season.league.slug]), {"season": "Season\x001"})
    assert response.status_code == 400
    assert b"Bad request" in response.content or name.endswith(("json", "csv", "ics"))


def test_nul_in_search_query_is_a_400(client, season):
    assert client.get(reverse("league:league_list"), {"q": "\x00"}).status_code == 400


def test_nul_in_a_posted_form_is_a_400_and_writes_nothing(client, season):
    rnd = RoundFactory(season=season, number=1)
    fixture = FixtureFactory(round=rnd, date=season.start_date)
    client.force_login(fixture.home.coach.user)
    response = client.post(
        reverse("league:report_result", args=[fixture.pk]),
        {"home_score": "12", "away_score": "4\x00"},
    )
    assert response.status_code == 400
    assert not Result.objects.exists()


def test_a_nul_in_a_key_is_a_400_too(client, season):
    assert client.get(reverse("league:league_detail", args=[season.league.slug]) + "?a%00=1").status_code == 400


def test_ordinary_values_still_work(client, season):
    response = client.get(reverse("league:league_detail", args=[season.league.slug]), {"season": season.name})
    assert response.status_code == 200


def test_season_names_in_links_are_url_encoded(client, league):
    odd = SeasonFactory(league=league, name="Spring & Summer #2 ?x=1")
    SeasonFactory(league=league, name="Plain")
    rnd = RoundFactory(season=odd, number=1)
    EntryFactory(season=odd, coach=CoachFactory(name="Hooper"))
    FixtureFactory(round=rnd)
    for url in (reverse("league:league_detail", args=[league.slug]), reverse("league:fixtures", args=[league.slug])):
        body = client.get(url, {"season": odd.name}).content.decode()
        assert "season=Spring%20%26%20Summer%20%232%20%3Fx%3D1" in body
        assert "season=Spring & Summer" not in body and "season=Spring &amp; Summer" not in body
