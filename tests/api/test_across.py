"""The endpoints across leagues (league/api/across.py): a game's ranking, a coach's
profile, the leaderboards and the records give the figures of the site's own JSON
and pages, are kept with an ETag and 304, and cost the same at 4 and 40 coaches."""

from __future__ import annotations

import pytest
from django.utils.html import escape

from league.models import Coach
from league.profiles import selectors as profiles
from league.records.titles import titles_won
from league.ratings.models import Rating
from league.records import halloffame
from league.records.boards import Scope
from tests.api.costs import cold
from tests.ratings.test_pages import played


def _queries(client, url: str) -> int:
    return cold(client, url)[0]


PATTERNS = [
    "/api/v1/ratings/{game}/?limit=100",
    "/api/v1/coaches/{coach}/profile/",
    "/api/v1/leagues/{slug}/leaderboards/",
    "/api/v1/leaderboards/{game}/",
    "/api/v1/leagues/{slug}/records/",
]


def _counts(client, league, entries) -> list[int]:
    return [_queries(client, pattern.format(game=league.game_system, slug=league.slug, coach=entries[0].coach_id))
            for pattern in PATTERNS]


@pytest.mark.django_db
@pytest.mark.parametrize("game", ["guildball", "dungeonbowl", "dreadball"])
def test_every_endpoint_costs_the_same_at_4_and_40_coaches(client, game):
    small = _counts(client, *played(4, game=game)[:2])
    large = _counts(client, *played(40, game=game)[:2])  # the game's answers: 44 coaches now
    assert small == large, list(zip(PATTERNS, small, large))


@pytest.mark.django_db
def test_the_ranking_is_the_rows_of_the_ratings_json_a_page_at_a_time(client):
    played(6, game="dungeonbowl")
    feed = client.get("/ratings/dungeonbowl.json").json()["ratings"]
    answer = client.get("/api/v1/ratings/dungeonbowl/").json()
    assert answer["count"] == Rating.objects.filter(game_system="dungeonbowl").count() == len(feed) == 6
    assert answer["items"] == feed
    second = client.get("/api/v1/ratings/dungeonbowl/?limit=2&offset=2").json()
    assert second["items"] == feed[2:4]
    assert client.get("/api/v1/ratings/nogame/").status_code == 404
    assert client.get("/api/v1/ratings/dreadball/").json() == {"count": 0, "limit": 25, "offset": 0, "items": []}


@pytest.mark.django_db
def test_the_leaderboards_are_the_figures_of_their_json(client):
    league, entries, _ = played(4, game="guildball")
    season = league.seasons.get()
    feed = client.get(f"/leagues/{league.slug}/leaderboards.json").json()
    assert client.get(f"/api/v1/leagues/{league.slug}/leaderboards/").json() == feed
    assert feed["boards"] and any(board["rows"] for board in feed["boards"])
    in_season = client.get(f"/api/v1/leagues/{league.slug}/leaderboards/?season={season.name}").json()
    assert in_season["season"] == season.name and in_season["boards"] == feed["boards"]
    first = feed["boards"][0]
    one = client.get(f"/api/v1/leagues/{league.slug}/leaderboards/?board={first['key']}").json()
    assert one["boards"] == [first]
    assert client.get(f"/api/v1/leagues/{league.slug}/leaderboards/?board=nothing").status_code == 404
    assert client.get(f"/api/v1/leagues/{league.slug}/leaderboards/?season=Nope").status_code == 404
    site = client.get("/leaderboards/guildball.json").json()
    assert client.get("/api/v1/leaderboards/guildball/").json() == site
    assert client.get(f"/api/v1/leaderboards/guildball/?board={first['key']}").json()["boards"] == [site["boards"][0]]
    assert client.get("/api/v1/leaderboards/nogame/").status_code == 404


@pytest.mark.django_db
def test_the_records_are_the_records_page(client):
    league, entries, _ = played(4, game="guildball")
    answer = client.get(f"/api/v1/leagues/{league.slug}/records/").json()
    found = halloffame.records(Scope("guildball", league.pk))
    assert [line["coach"] for line in answer["most_games"]] == [line.coach for line in found.most_games]
    assert [line["figure"] for line in answer["runs"]] == [line.figure for line in found.runs]
    assert [(w["fixture_id"], w["margin"]) for w in answer["wins"]] == [(w.result.fixture_id, w.margin)
                                                                       for w in found.wins]
    page = client.get(f"/leagues/{league.slug}/records/").content.decode()
    for win in answer["wins"]:
        assert f"{win['home_score']}–{win['away_score']}" in page
    assert answer["seasons"] == [
        {"season": s.season.name, "league": league.slug,
         "honours": [{"title": h.title, "coach_id": h.coach_id, "coach": h.coach, "detail": h.detail}
                     for h in s.honours]} for s in found.seasons]
    assert answer["seasons"] and answer["seasons"][0]["honours"]  # the season finished: a champion
    assert client.get("/api/v1/leagues/nowhere/records/").status_code == 404


@pytest.mark.django_db
def test_the_profile_is_what_the_profile_page_shows_without_the_email(client):
    league, entries, _ = played(4, game="guildball")
    coach = Coach.objects.get(pk=entries[0].coach_id)
    coach.email = "secret@example.org"
    coach.save()
    answer = client.get(f"/api/v1/coaches/{coach.pk}/profile/")
    assert "secret@example.org" not in answer.content.decode()
    body = answer.json()
    assert body["name"] == coach.name
    assert [(s["league"], s["season"], s["team"]) for s in body["seasons"]] == [
        (e.season.league.slug, e.season.name, e.team) for e in profiles.entries(coach)]
    totals = profiles.totals_per_game(coach)
    assert [(t["game"], t["played"], t["won"], t["lost"]) for t in body["totals"]] == [
        (t.game, t.played, t.won, t.lost) for t in totals] and totals[0].played == 3
    assert [t["title"] for t in body["titles"]] == [t.title for t in titles_won(coach.pk)]
    rating = Rating.objects.get(coach=coach, game_system="guildball")
    assert body["ratings"] == [{"game": "guildball", "rating": rating.rating, "rd": rating.rd,
                                "volatility": rating.volatility, "games": rating.games,
                                "provisional": rating.provisional}]
    page = client.get(f"/coaches/{coach.pk}/").content.decode()
    assert escape(coach.name) in page and escape(entries[0].team) in page
    assert client.get("/api/v1/coaches/999999/profile/").status_code == 404
    assert client.get(f"/api/v1/coaches/{2**64}/profile/").status_code == 404


@pytest.mark.django_db
def test_answers_have_an_etag_304_and_follow_a_new_rating(client):
    league, entries, _ = played(4, game="guildball")
    for url in ("/api/v1/ratings/guildball/", f"/api/v1/coaches/{entries[0].coach_id}/profile/",
                "/api/v1/leaderboards/guildball/", f"/api/v1/leagues/{league.slug}/records/"):
        etag = client.get(url)["ETag"]
        assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304, url
    coach = Coach.objects.get(pk=entries[0].coach_id)
    coach.name = "Renamed Coach"
    coach.save()
    assert "Renamed Coach" in client.get("/api/v1/ratings/guildball/").content.decode()
    assert "Renamed Coach" in client.get(f"/api/v1/coaches/{coach.pk}/profile/").content.decode()
    assert "Renamed Coach" in client.get("/api/v1/leaderboards/guildball/").content.decode()
