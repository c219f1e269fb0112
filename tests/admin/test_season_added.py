"""A season added in the admin is the site's "Open the next season"
(``season_services.open_next_season``): once the last one is over, with its
coaches and teams (LG-3); a Dungeon Bowl league opens it on its re-draft page
(DB-15). The admin's page names it and chooses its start and schedule."""

import datetime

import pytest
from django.urls import reverse

from league.models import Season
from tests.support.builders import season_with_results
from tests.dungeonbowl.builders import db_league
from tests.support.factories import LeagueFactory, SeasonFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def gb_league(organiser):
    return LeagueFactory(name="Harbour Cup", slug="harbour", organisers=[organiser])


def add_season(client, league, **fields):
    data = {
        "league": league.pk, "name": "Spring", "start_date": "2026-03-02", "cadence_days": 14,
        "double_round_robin": "on", "created_at_0": "2026-01-01", "created_at_1": "10:00",
        "divisions-TOTAL_FORMS": "0", "divisions-INITIAL_FORMS": "0",
        "entries-TOTAL_FORMS": "0", "entries-INITIAL_FORMS": "0", **fields,
    }
    return client.post(reverse("admin:league_season_add"), data, follow=True)


def played_out(league) -> Season:
    return season_with_results(coaches=4, played_rounds=3, season=SeasonFactory(
        league=league, name="Season 1", start_date=datetime.date(2025, 1, 6)))


def test_lg3_a_season_added_in_the_admin_opens_with_the_last_ones_coaches(client, organiser, gb_league):
    last = played_out(gb_league)
    client.force_login(organiser)
    add_season(client, gb_league)
    new = Season.objects.get(league=gb_league, name="Spring")
    assert (new.start_date, new.cadence_days, new.double_round_robin) == (datetime.date(2026, 3, 2), 14, True)
    assert sorted(new.entries.values_list("coach_id", "team")) == sorted(last.entries.values_list("coach_id", "team"))
    assert not new.rounds.exists() and not new.divisions.exists()


def test_a_season_is_not_added_while_the_last_one_is_played(client, organiser, gb_league):
    season_with_results(coaches=4, played_rounds=1, season=SeasonFactory(league=gb_league, name="Season 1"))
    client.force_login(organiser)
    response = add_season(client, gb_league)
    assert "Season 1 is not over" in response.content.decode()
    assert Season.objects.filter(league=gb_league).count() == 1


def test_a_season_starts_after_the_last_round_of_the_one_before(client, organiser, gb_league):
    last = played_out(gb_league)
    client.force_login(organiser)
    response = add_season(client, gb_league, start_date=str(last.start_date))
    assert "Spring starts after the last round of Season 1" in response.content.decode()
    assert Season.objects.filter(league=gb_league).count() == 1


def test_db15_a_dungeon_bowl_league_opens_its_next_season_on_its_own_page(client, organiser):
    league = db_league(organiser)
    SeasonFactory(league=league, name="Season 1")
    client.force_login(organiser)
    response = add_season(client, league)
    assert "opens its next season on its own page" in response.content.decode()
    assert Season.objects.filter(league=league).count() == 1


def test_a_leagues_first_season_is_added_as_named(client, organiser, gb_league):
    client.force_login(organiser)
    add_season(client, gb_league, double_round_robin="")
    new = Season.objects.get(league=gb_league)
    assert (new.name, new.start_date, new.cadence_days, new.double_round_robin) == ("Spring", datetime.date(2026, 3, 2), 14, False)
