"""A coach's profile across leagues and games, head-to-head between two coaches,
and the fixture page's "last met" line: what they show, that no email appears,
that a kept page is never stale and that the cost does not grow with the league."""

from __future__ import annotations

import datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from league.dungeonbowl.demo import load_demo
from league.dungeonbowl.models import Honour, Placing
from league.models import Fixture
from league.records import titles
from league.profiles.selectors import last_meeting
from league.standings.season import standings_for
from tests.support.builders import season_with_results
from tests.support.factories import (
    CoachFactory, EntryFactory, FixtureFactory, LeagueFactory, ResultFactory, RoundFactory, SeasonFactory,
)

pytestmark = pytest.mark.django_db


def _meeting(season, home, away, *, home_score=12, away_score=6, outcome=None, number=1, approved=True):
    """A fixture of ``season`` between two coaches (entered if they are not yet)
    with an approved result unless told otherwise."""
    home_entry = EntryFactory._meta.model.objects.filter(season=season, coach=home).first() or EntryFactory(
        season=season, coach=home, team=f"{home.name} Eleven")
    away_entry = EntryFactory._meta.model.objects.filter(season=season, coach=away).first() or EntryFactory(
        season=season, coach=away, team=f"{away.name} Eleven")
    fixture = FixtureFactory(round=RoundFactory(season=season, number=number), home=home_entry, away=away_entry)
    if approved:
        outcome = outcome or ("home" if home_score > away_score else "away" if away_score > home_score else "draw")
        ResultFactory(fixture=fixture, home_score=home_score, away_score=away_score, outcome=outcome)
    return fixture


@pytest.fixture
def pair():
    """Ada and Bo, who met in two Guild Ball leagues, and Ada's DreadBall league."""
    ada, bo, cy = CoachFactory(name="Ada"), CoachFactory(name="Bo"), CoachFactory(name="Cy")
    north = SeasonFactory(league=LeagueFactory(name="North", slug="north"), name="Spring",
                          start_date=datetime.date(2026, 3, 2))
    south = SeasonFactory(league=LeagueFactory(name="South", slug="south"), name="Autumn",
                          start_date=datetime.date(2026, 9, 7))
    dread = SeasonFactory(league=LeagueFactory(name="Rushes", slug="rushes", game_system="dreadball"),
                          name="One", start_date=datetime.date(2026, 5, 4))
    _meeting(north, ada, bo, home_score=12, away_score=6, number=1)   # Ada wins
    _meeting(north, bo, ada, home_score=12, away_score=10, number=2)  # Bo wins
    _meeting(south, ada, bo, home_score=12, away_score=12, outcome="draw", number=1)
    _meeting(south, ada, cy, home_score=0, away_score=0, outcome="abandoned", number=2)
    _meeting(dread, ada, cy, home_score=3, away_score=0, number=1)
    return ada, bo, cy, north, south, dread


def test_profile_lists_every_league_season_team_and_result(client, pair):
    ada, bo, cy, north, south, dread = pair
    page = client.get(reverse("coach_profile", args=[ada.pk]))
    assert page.status_code == 200
    text = page.content.decode()
    for shown in ("North", "South", "Rushes", "Spring", "Autumn", "Ada Eleven", "Bo", "Cy", "Guild Ball", "DreadBall"):
        assert shown in text, shown
    totals = {t.game: t for t in page.context["totals"]}
    # Guild Ball: a win, a loss, a draw; the abandoned game counts for neither side.
    gb = totals["guildball"]
    assert (gb.played, gb.won, gb.drawn, gb.lost, gb.scored, gb.conceded) == (3, 1, 1, 1, 34, 30)
    db = totals["dreadball"]
    assert (db.played, db.won, db.drawn, db.lost, db.scored, db.conceded) == (1, 1, 0, 0, 3, 0)
    # Most frequent first: Bo three times, then Cy in DreadBall; their Guild Ball
    # game was abandoned, no meeting to list ("met 0").
    opponents = page.context["opponents"]
    assert (opponents[0].opponent, opponents[0].played, opponents[0].won, opponents[0].lost) == ("Bo", 3, 1, 1)
    assert [(o.opponent, o.game, o.played) for o in opponents[1:]] == [("Cy", "dreadball", 1)]
    assert len(page.context["lines"]) == 5
    assert reverse("head_to_head", args=[ada.pk, bo.pk]) in text


def test_no_email_on_any_profile_or_head_to_head(client, pair):
    ada, bo, cy, *_ = pair
    for url in (reverse("coach_profile", args=[ada.pk]), reverse("coach_profile", args=[bo.pk]),
                reverse("head_to_head", args=[ada.pk, bo.pk])):
        text = client.get(url).content.decode()
        for coach in (ada, bo, cy):
            assert coach.email and coach.email not in text
            assert coach.user.email not in text
        assert "@" not in text.replace("@context", "")


def test_results_are_a_page_at_a_time(client):
    ada = CoachFactory(name="Ada")
    season = SeasonFactory()
    for number in range(1, 23):
        _meeting(season, ada, CoachFactory(), number=number)
    first = client.get(reverse("coach_profile", args=[ada.pk]))
    assert len(first.context["lines"]) == 20 and "page 1 of 2" in first.content.decode()
    second = client.get(reverse("coach_profile", args=[ada.pk]) + "?page=2")
    assert len(second.context["lines"]) == 2
    # Latest first: round 22's date leads the first page, round 1's ends the second.
    assert first.context["lines"][0]["fixture"].round.number == 22
    assert second.context["lines"][-1]["fixture"].round.number == 1


def test_head_to_head_lists_every_meeting_across_leagues(client, pair):
    ada, bo, *_ = pair
    page = client.get(reverse("head_to_head", args=[ada.pk, bo.pk]))
    assert page.status_code == 200
    assert len(page.context["lines"]) == 3
    (gb,) = page.context["totals"]
    assert (gb.played, gb.won, gb.drawn, gb.lost) == (3, 1, 1, 1)
    # From Bo's side the record is the other way round.
    (theirs,) = client.get(reverse("head_to_head", args=[bo.pk, ada.pk])).context["totals"]
    assert (theirs.won, theirs.lost) == (1, 1)
    assert {line["league"].name for line in page.context["lines"]} == {"North", "South"}


def test_head_to_head_of_a_coach_with_themselves_or_nobody_is_404(client, pair):
    ada, *_ = pair
    assert client.get(reverse("head_to_head", args=[ada.pk, ada.pk])).status_code == 404
    assert client.get(reverse("head_to_head", args=[ada.pk, 999999])).status_code == 404
    assert client.get(reverse("coach_profile", args=[999999])).status_code == 404


def test_coach_page_of_a_league_links_to_the_profile(client, pair):
    ada, _, _, north, *_ = pair
    page = client.get(reverse("league:coach_detail", args=[north.league.slug, ada.pk]))
    assert reverse("coach_profile", args=[ada.pk]) in page.content.decode()


def test_anonymous_profile_is_kept_and_never_stale(client, pair):
    ada, bo, _, north, *_ = pair
    url = reverse("coach_profile", args=[ada.pk])
    client.get(url)
    with CaptureQueriesContext(connection) as warm:
        kept = client.get(url)
    assert len(warm) == 1, [q["sql"] for q in warm]  # the versions of Ada's seasons
    assert "Later" not in kept.content.decode()
    # A new result in one of Ada's leagues changes the page at once.
    _meeting(north, ada, bo, home_score=14, away_score=2, number=3)
    after = client.get(url)
    assert len(after.context["lines"]) == 6
    # A rename changes it too.
    ada.name = "Ada Lovelace"
    ada.save()
    assert "Ada Lovelace" in client.get(url).content.decode()


def test_fixture_page_says_first_meeting_then_last_met_from_another_league(client, pair):
    ada, bo, cy, north, south, dread = pair
    dee = CoachFactory(name="Dee")
    later = SeasonFactory(league=LeagueFactory(name="West", slug="west"), name="Winter",
                          start_date=datetime.date(2026, 11, 2))
    upcoming = _meeting(later, ada, dee, number=1, approved=False)
    client.force_login(ada.user)
    url = reverse("league:fixture_detail", args=[upcoming.pk])
    assert "First meeting" in client.get(url).content.decode()
    client.get(url)  # kept now for Ada
    # They meet in another league before this match: the kept page must say so.
    _meeting(south, ada, dee, home_score=9, away_score=12, number=3)
    text = client.get(url).content.decode()
    assert "First meeting" not in text
    assert "Last met" in text and "9 – 12" in text and "in South" in text

    rematch = _meeting(later, bo, ada, number=2, approved=False)
    text = client.get(reverse("league:fixture_detail", args=[rematch.pk])).content.decode()
    # Their latest meeting (South, a draw), not the Dreadball or Cy games.
    assert "Last met" in text and "12 – 12" in text and "in South" in text


def test_last_met_is_one_query(pair, django_assert_num_queries):
    ada, bo, _, north, *_ = pair
    fixture = Fixture.objects.with_related().select_related("round__season__league").get(
        round__season=north, round__number=2)
    with django_assert_num_queries(1):
        met = last_meeting(fixture)
    assert met.round.number == 1 and met.result.home_score == 12


def test_profile_shows_a_finished_dreadball_season_champion():
    season = season_with_results(coaches=4, played_rounds=3, season=SeasonFactory(
        league=LeagueFactory(game_system="dreadball")))
    table = standings_for(season)
    assert any(row.position > 1 for row in table)
    for row in table:
        won = [(w.title, w.league, w.detail) for w in titles.titles_won(row.coach_id)]
        if row.position == 1:  # shared when level on every tiebreaker (DR-4)
            assert won == [("League Champion", season.league.name, "shared" if row.tied else "")]
        else:
            assert won == []
    # A season with a match left to play crowns nobody.
    unfinished = season_with_results(coaches=4, played_rounds=2, season=SeasonFactory(
        league=LeagueFactory(game_system="dreadball")))
    assert all(titles.titles_won(row.coach_id) == [] for row in standings_for(unfinished))


@pytest.mark.parametrize("url_name", ["coach_profile", "head_to_head"])
def test_counts_do_not_grow_with_the_league(client, url_name):
    """The same page costs the same number of queries at 4 and at 40 coaches."""
    counts = {}
    for size in (4, 40):
        season = season_with_results(coaches=size, played_rounds=3, season=SeasonFactory(
            league=LeagueFactory(slug=f"size-{size}")))
        fixture = Fixture.objects.filter(round__season=season, result__status="approved").first()
        args = [fixture.home.coach_id] if url_name == "coach_profile" else [fixture.home.coach_id, fixture.away.coach_id]
        with CaptureQueriesContext(connection) as queries:
            assert client.get(reverse(url_name, args=args)).status_code == 200
        counts[size] = len(queries)
    assert counts[4] == counts[40]


def test_dungeon_bowl_honours_are_on_the_champion_s_profile(client):
    """DB-14: the demo league's Season One is over, its champion holds the Trophy."""
    load_demo()
    champion = Honour.objects.select_related("team__coach", "season__league").get(placing=Placing.CHAMPION)
    text = client.get(reverse("coach_profile", args=[champion.team.coach_id])).content.decode()
    assert "Champion, with the Dungeon Bowl Trophy" in text and champion.team.name in text
    assert champion.season.league.name in text


def test_a_kept_profile_follows_ratings_moved_by_games_elsewhere(client, settings):
    """RT-3: a week played anywhere in the game raises an idle coach's RD, so the
    profile showing Ada's rating is kept by the ratings' versions too, not only by
    her own seasons."""
    from league.ratings.models import Rating
    from league.ratings.services import recompute

    ada, bo, cy, dee = (CoachFactory(name=name) for name in ("Ada", "Bo", "Cy", "Dee"))
    first = SeasonFactory(league=LeagueFactory(name="First", slug="first"), start_date=datetime.date(2026, 3, 2))
    _meeting(first, ada, bo)
    recompute("guildball")
    url = reverse("coach_profile", args=[ada.pk])
    rd = Rating.objects.get(coach=ada, game_system="guildball").rd
    assert f"RD {rd:.0f}" in client.get(url).content.decode()
    later = SeasonFactory(league=LeagueFactory(name="Later", slug="later"), start_date=datetime.date(2026, 6, 1))
    _meeting(later, cy, dee)  # weeks later, between two other coaches in another league
    recompute("guildball")
    raised = Rating.objects.get(coach=ada, game_system="guildball").rd
    assert f"{raised:.0f}" != f"{rd:.0f}"
    assert f"RD {raised:.0f}" in client.get(url).content.decode()


def test_the_ratings_versions_are_read_once_whatever_the_seasons(pair, django_assert_num_queries):
    """The key of a profile reads each game's ratings' version once, as rows of
    its own beside the coaches' seasons, never a value repeated on each season's
    row; one query in all."""
    from league.caching import versions
    from league.ratings.models import RatedGame
    from league.ratings.services import recompute

    ada, bo, *_ = pair
    recompute("guildball")
    recompute("dreadball")
    with django_assert_num_queries(1):
        rows = versions.coaches_versions([ada.pk, bo.pk])
    rated = [row for row in rows if row[0] is None]
    assert rated == [(None, game, None, version) for game, version in
                     RatedGame.objects.order_by("game_system").values_list("game_system", "version")]
    assert {"guildball", "dreadball"} <= {row[1] for row in rated} and all(len(row) == 4 for row in rows)
    assert sorted(row[2] for row in rows if row[0] == ada.pk) == sorted(
        [season.pk for season in pair[3:]])  # Ada's three seasons, each once
