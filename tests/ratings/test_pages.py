"""The ranking pages and feed of each game (RT-1, RT-4) and the coach ratings
partial: what they show, how they are kept (never stale), their cost."""

from __future__ import annotations

import datetime
import json

import pytest
from django.db import connection
from django.template import Context, Template
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from league.ratings import services as ratings, views
from league.ratings.models import Rating
from league.services import results as engine
from tests.support.factories import CoachFactory, EntryFactory, FixtureFactory, LeagueFactory, ResultFactory, RoundFactory, SeasonFactory

MONDAY = datetime.date(2026, 9, 7)
WAITING = "Recently approved or corrected results are still being added to these ratings."


def played(coaches: int, *, game: str = "guildball", weeks: int = 3, organisers=()):
    """A season of ``coaches`` coaches, each week pairs playing, rated."""
    league = LeagueFactory(game_system=game, organisers=list(organisers))
    season = SeasonFactory(league=league, start_date=MONDAY)
    entries = [EntryFactory(season=season) for _ in range(coaches)]
    fixtures = []
    for week in range(weeks):
        day = MONDAY + datetime.timedelta(days=7 * week)
        rnd = RoundFactory(season=season, date=day, number=week + 1)
        for i in range(0, coaches - 1, 2):
            home, away = entries[i], entries[(i + 1 + 2 * week) % coaches]
            if home == away:
                continue
            fixture = FixtureFactory(round=rnd, home=home, away=away, date=day)
            ResultFactory(fixture=fixture, home_score=12 if (i + week) % 3 else 4,
                          away_score=4 if (i + week) % 3 else 12)
            fixtures.append(fixture)
    ratings.recompute(game)
    return league, entries, fixtures


@pytest.mark.django_db
@pytest.mark.parametrize("game", ["guildball", "dungeonbowl", "dreadball"])
def test_ranking_page_lists_every_rated_coach_best_first(client, game):
    played(6, game=game)
    response = client.get(reverse("ratings:ranking", args=[game]))
    assert response.status_code == 200
    body = response.content.decode()
    best = Rating.objects.filter(game_system=game).order_by("-rating").select_related("coach")
    positions = [body.index(f'href="/coaches/{r.coach_id}/">{r.coach.name}</a>') for r in best]
    assert positions == sorted(positions)
    # After three weeks everyone is still provisional (RT-4: RD above 110), and marked.
    assert body.count('class="provisional"') == len(best) + 1  # each row, and the explanation
    assert reverse("ratings:feed", args=[game]) in body


@pytest.mark.django_db
def test_a_settled_rating_is_not_marked_provisional(client):
    coach = CoachFactory(name="Veteran")
    Rating.objects.create(coach=coach, game_system="guildball", rating=1700.5, rd=80.0, volatility=0.06, games=40,
                          last_week=MONDAY)
    ratings.touch(["guildball"])
    body = client.get(reverse("ratings:ranking", args=["guildball"])).content.decode()
    assert "Veteran</a>" in body and ">1700 <abbr" not in body and ">1700<" in body.replace("\n", "").replace(" ", "")


@pytest.mark.django_db
def test_unknown_game_is_404(client):
    assert client.get("/ratings/chess/").status_code == 404
    assert client.get("/ratings/chess.json").status_code == 404


@pytest.mark.django_db
def test_a_game_nobody_played_says_so(client):
    response = client.get(reverse("ratings:ranking", args=["dreadball"]))
    assert response.status_code == 200 and "nobody is rated" in response.content.decode()
    assert json.loads(client.get(reverse("ratings:feed", args=["dreadball"])).content) == {
        "game": "dreadball", "ratings": []}


@pytest.mark.django_db
@pytest.mark.parametrize("sort", sorted(views.SORTS))
def test_every_column_sorts(client, sort):
    played(6)
    response = client.get(reverse("ratings:ranking", args=["guildball"]), {"sort": sort})
    assert response.status_code == 200
    rows = list(Rating.objects.filter(game_system="guildball").select_related("coach"))
    body = response.content.decode()
    key = sort.lstrip("-")
    if key in ("rating", "rd", "games", "volatility"):
        ordered = sorted(rows, key=lambda r: getattr(r, key), reverse=True)
        positions = [body.index(f"/coaches/{r.coach_id}/") for r in ordered]
        # Rating, games and volatility read best first; "rd" most certain first; "-" reverses.
        descending = key != "rd"
        if sort.startswith("-"):
            descending = not descending
        ties = len({getattr(r, key) for r in rows}) < len(rows)
        if not ties:
            assert positions == (sorted(positions) if descending else sorted(positions, reverse=True))


@pytest.mark.django_db
def test_ranking_is_paginated(client):
    coaches = [CoachFactory() for _ in range(views.PER_PAGE + 3)]
    Rating.objects.bulk_create(
        Rating(coach=coach, game_system="guildball", rating=1500 + i, rd=200, volatility=0.06, games=1,
               last_week=MONDAY) for i, coach in enumerate(coaches)
    )
    ratings.touch(["guildball"])
    first = client.get(reverse("ratings:ranking", args=["guildball"])).content.decode()
    second = client.get(reverse("ratings:ranking", args=["guildball"]), {"page": 2}).content.decode()
    assert f"/coaches/{coaches[-1].pk}/" in first and f"/coaches/{coaches[0].pk}/" not in first
    assert f"/coaches/{coaches[0].pk}/" in second and "page=2" in first


@pytest.mark.django_db
def test_feed_is_exactly_the_ratings_unrounded(client):
    played(4, game="dungeonbowl")
    response = client.get(reverse("ratings:feed", args=["dungeonbowl"]))
    assert response["Content-Type"] == "application/json"
    body = json.loads(response.content)
    assert set(body) == {"game", "ratings"} and body["game"] == "dungeonbowl"
    expected = [
        {"coach_id": r.coach_id, "coach": r.coach.name, "rating": r.rating, "rd": r.rd, "volatility": r.volatility,
         "games": r.games, "provisional": r.rd > 110}
        for r in Rating.objects.filter(game_system="dungeonbowl").select_related("coach").order_by("-rating")
    ]
    assert body["ratings"] == expected
    assert all(type(row["rating"]) is float and row["rating"] != round(row["rating"], 2) for row in body["ratings"])
    assert all(list(row) == ["coach_id", "coach", "rating", "rd", "volatility", "games", "provisional"]
               for row in body["ratings"])


@pytest.mark.django_db
def test_feed_pages_over_its_limit(client, monkeypatch):
    monkeypatch.setattr(views, "FEED_PER_PAGE", 3)
    played(8)
    url = reverse("ratings:feed", args=["guildball"])
    first = json.loads(client.get(url).content)
    assert (first["page"], first["pages"], first["next"], len(first["ratings"])) == (1, 3, f"{url}?page=2", 3)
    last = json.loads(client.get(first["next"].replace("2", "3")).content)
    assert (last["page"], last["next"], len(last["ratings"])) == (3, None, 2)
    everyone = first["ratings"] + json.loads(client.get(first["next"]).content)["ratings"] + last["ratings"]
    assert len({row["coach_id"] for row in everyone}) == 8
    assert client.get(url, {"page": 4}).status_code == 404


@pytest.mark.django_db
def test_kept_pages_are_never_stale_and_answer_304(client, organiser, django_capture_on_commit_callbacks):
    league, entries, fixtures = played(4, organisers=[organiser])
    url, feed = reverse("ratings:ranking", args=["guildball"]), reverse("ratings:feed", args=["guildball"])
    first, first_feed = client.get(url), client.get(feed)
    assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    with CaptureQueriesContext(connection) as warm:
        assert client.get(url).content == first.content
    assert len(warm) == 1  # the game's version
    # A correction queues the recomputation with its write: until it has run, the
    # pages say the ratings are being brought up to date and show them unchanged.
    result = fixtures[0].result
    with django_capture_on_commit_callbacks() as queued:
        engine.record_result(fixture=fixtures[0], by=organiser, home_score=result.away_score,
                             away_score=result.home_score, reason="sheet swapped")
    waiting = client.get(url)
    assert WAITING in waiting.content.decode() and waiting["ETag"] != first["ETag"]
    assert client.get(feed).content == first_feed.content
    for run in queued:  # the write commits: its task runs
        run()
    assert client.get(feed).content != first_feed.content
    kept = {row["coach_id"]: row["rating"] for row in json.loads(client.get(feed).content)["ratings"]}
    assert kept == dict(Rating.objects.filter(game_system="guildball").values_list("coach_id", "rating"))
    second = client.get(url)
    assert second.content != first.content and second["ETag"] not in (first["ETag"], waiting["ETag"])
    assert WAITING not in second.content.decode()
    # A renamed coach shows under the new name.
    coach = entries[0].coach
    coach.name = "Renamed Coach"
    coach.save()
    assert "Renamed Coach" in client.get(url).content.decode()
    assert "Renamed Coach" in client.get(feed).content.decode()


@pytest.mark.django_db
def test_query_counts_equal_at_4_and_40_coaches(client):
    counts = {}
    for coaches, game in ((4, "guildball"), (40, "dreadball")):
        played(coaches, game=game)
        for name in ("ratings:ranking", "ratings:feed"):
            with CaptureQueriesContext(connection) as cold:
                assert client.get(reverse(name, args=[game])).status_code == 200
            counts[coaches, name] = len(cold)
    assert counts[4, "ratings:ranking"] == counts[40, "ratings:ranking"] <= 5
    assert counts[4, "ratings:feed"] == counts[40, "ratings:feed"] <= 3


@pytest.mark.django_db
def test_the_coach_ratings_partial_on_its_own():
    league, entries, fixtures = played(4, weeks=3)
    played(4, game="dreadball", weeks=1)
    coach = entries[0].coach
    with CaptureQueriesContext(connection) as queries:
        html = Template("{% load ratings_tags %}{% coach_ratings coach %}").render(Context({"coach": coach}))
    assert len(queries) == 3  # the weeks, the ratings, the games waiting for a recomputation
    rating = Rating.objects.get(coach=coach, game_system="guildball")
    assert "<h3>Guild Ball</h3>" in html and f"<strong>{rating.rating:.0f}</strong>" in html
    assert '<svg xmlns="http://www.w3.org/2000/svg"' in html and 'role="img"' in html
    assert "provisional" in html and reverse("ratings:ranking", args=["guildball"]) in html
    assert "DreadBall" not in html
    nobody = CoachFactory()
    assert Template("{% load ratings_tags %}{% coach_ratings coach %}").render(Context({"coach": nobody})).strip() == ""


@pytest.mark.django_db
def test_recompute_ratings_command():
    from django.core.management import call_command
    from io import StringIO

    played(4)
    Rating.objects.all().delete()
    out = StringIO()
    call_command("recompute_ratings", "--game", "guildball", stdout=out)
    assert "guildball: 4 coaches rated." in out.getvalue()
    assert Rating.objects.filter(game_system="guildball").count() == 4
    from django.core.management.base import CommandError
    with pytest.raises(CommandError):
        call_command("recompute_ratings", "--game", "chess")
