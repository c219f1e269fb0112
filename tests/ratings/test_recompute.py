"""RT-2/RT-3: what counts, and the site's ratings kept in step with the result
workflow equal a recomputation from scratch, whatever the order of approvals,
corrections, reopenings and late approvals."""

from __future__ import annotations

import datetime
import random

import pytest

from league.models import Fixture, Result
from league.ratings import glicko2, services as ratings
from league.ratings.models import Rating, RatingWeek
from league.services import results as engine
from league.services import seasons as season_services
from tests.support.factories import (
    CoachFactory, EntryFactory, FixtureFactory, LeagueFactory, ResultFactory, RoundFactory, SeasonFactory,
)

MONDAY = datetime.date(2026, 9, 7)


def snapshot(game: str = "guildball"):
    weeks = sorted(RatingWeek.objects.filter(game_system=game).values_list(
        "coach_id", "week", "rating", "rd", "volatility", "games"))
    current = sorted(Rating.objects.filter(game_system=game).values_list(
        "coach_id", "rating", "rd", "volatility", "games", "last_week"))
    return weeks, current


def from_scratch(game: str = "guildball"):
    ratings.recompute(game)
    return snapshot(game)


def match(season, home, away, day, **result):
    rnd = RoundFactory(season=season, date=day)
    fixture = FixtureFactory(round=rnd, home=home, away=away, date=day)
    return ResultFactory(fixture=fixture, **result) if result else fixture


@pytest.mark.django_db
def test_what_counts_and_how():
    """RT-2: approved wins, draws and a conceded match between two coaches count,
    in any league and stage of the game; abandoned, unapproved, byes and another
    game's results do not. Opponents are rated as they stood at the week's start;
    a week without a game raises only the RD (RT-3)."""
    league, other_league = LeagueFactory(), LeagueFactory()
    season, elsewhere = SeasonFactory(league=league), SeasonFactory(league=other_league)
    ann, bob, cat = CoachFactory(name="Ann"), CoachFactory(name="Bob"), CoachFactory(name="Cat")
    a, b, c = (EntryFactory(season=season, coach=coach) for coach in (ann, bob, cat))
    a2, c2 = EntryFactory(season=elsewhere, coach=ann), EntryFactory(season=elsewhere, coach=cat)
    week2 = MONDAY + datetime.timedelta(days=9)  # a Wednesday
    match(season, a, b, MONDAY, home_score=12, away_score=4, outcome="home")
    match(season, b, c, MONDAY + datetime.timedelta(days=6), home_score=12, away_score=12, outcome="draw")
    match(season, a, c, MONDAY, home_score=0, away_score=0, outcome="abandoned")
    match(season, c, a, MONDAY, home_score=12, away_score=2, outcome="home", status=Result.Status.CONFIRMED,
          approved_at=None)
    FixtureFactory(round=RoundFactory(season=season, date=MONDAY), home=a, away=None, date=MONDAY)  # a bye
    friendly = match(elsewhere, c2, a2, week2, home_score=3, away_score=12, outcome="away")
    Fixture.objects.filter(pk=friendly.fixture_id).update(stage=Fixture.Stage.FRIENDLY)
    db_league = LeagueFactory(game_system="dungeonbowl")
    db_season = SeasonFactory(league=db_league)
    x, y = EntryFactory(season=db_season, coach=ann), EntryFactory(season=db_season, coach=bob)
    match(db_season, x, y, MONDAY, home_score=0, away_score=1, outcome="away", conceded=True)

    ratings.recompute("guildball")
    ratings.recompute("dungeonbowl")

    new = glicko2.Rating()
    ann1 = glicko2.rate(new, [glicko2.Game(1500, 350, 1)])
    bob1 = glicko2.rate(new, [glicko2.Game(1500, 350, 0), glicko2.Game(1500, 350, 0.5)])
    cat1 = glicko2.rate(new, [glicko2.Game(1500, 350, 0.5)])
    ann2 = glicko2.rate(ann1, [glicko2.Game(cat1.rating, cat1.rd, 1)])
    cat2 = glicko2.rate(cat1, [glicko2.Game(ann1.rating, ann1.rd, 0)])
    got = {r.coach_id: r for r in Rating.objects.filter(game_system="guildball")}
    assert set(got) == {ann.pk, bob.pk, cat.pk}
    assert (got[ann.pk].rating, got[ann.pk].rd, got[ann.pk].games) == (ann2.rating, ann2.rd, 2)
    assert (got[cat.pk].rating, got[cat.pk].games) == (cat2.rating, 2)
    # Bob did not play in week 2, the site's latest: only his RD rose.
    assert (got[bob.pk].rating, got[bob.pk].rd, got[bob.pk].games) == (bob1.rating, glicko2.idle(bob1).rd, 2)
    assert got[bob.pk].last_week == MONDAY
    assert list(RatingWeek.objects.filter(coach=bob, game_system="guildball").values_list("week", "games")) == [
        (MONDAY, 2)]
    # Dungeon Bowl is rated apart; the conceding home side lost.
    dungeon = {r.coach_id: r for r in Rating.objects.filter(game_system="dungeonbowl")}
    assert dungeon[ann.pk].rating == glicko2.rate(new, [glicko2.Game(1500, 350, 0)]).rating
    assert dungeon[bob.pk].rating > 1500 and dungeon[bob.pk].games == 1


@pytest.mark.django_db
def test_a_recomputation_from_a_week_costs_the_same_queries_at_4_and_40_coaches():
    """A fixed number of queries whatever the coaches and weeks."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    def build(coaches: int) -> str:
        league = LeagueFactory(game_system="dreadball")
        season = SeasonFactory(league=league, start_date=MONDAY)
        entries = [EntryFactory(season=season) for _ in range(coaches)]
        for week in range(3):
            day = MONDAY + datetime.timedelta(days=7 * week)
            for i in range(0, coaches - 1, 2):
                match(season, entries[i], entries[(i + 1 + week) % coaches], day, home_score=3, away_score=1,
                      outcome="home")
        ratings.recompute("dreadball")
        return "dreadball"

    build(4)
    with CaptureQueriesContext(connection) as small:
        ratings.recompute("dreadball", since=MONDAY + datetime.timedelta(days=8))
    build(40)
    with CaptureQueriesContext(connection) as large:
        ratings.recompute("dreadball", since=MONDAY + datetime.timedelta(days=8))
    assert Rating.objects.filter(game_system="dreadball").count() == 44
    assert len(small) == len(large) <= 10


def _rounds(season):
    return list(Fixture.objects.filter(round__season=season, away__isnull=False).select_related("round__season__league"))


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_ratings_after_a_season_equal_a_recomputation_from_scratch(seed, organiser):
    """Approvals, corrections, reopenings and late approvals in a random order,
    through the result services, across two leagues of the game sharing coaches:
    after every step the ratings kept equal those recomputed from scratch."""
    rng = random.Random(seed)
    coaches = [CoachFactory() for _ in range(6)]
    fixtures = []
    for name in ("North", "South"):
        league = LeagueFactory(name=name, organisers=[organiser])
        season = SeasonFactory(league=league, start_date=MONDAY + datetime.timedelta(days=rng.randrange(0, 14)))
        for coach in rng.sample(coaches, 4):
            EntryFactory(season=season, coach=coach)
        season_services.generate_fixtures(season=season, seed=seed)
        fixtures += _rounds(season)
    rng.shuffle(fixtures)
    approved: list[Fixture] = []
    reopened: list[Result] = []

    def score():
        winner, loser = 12, rng.randrange(0, 12)
        return (winner, loser) if rng.random() < 0.5 else (loser, winner)

    steps = 0
    while fixtures or reopened:
        roll = rng.random()
        if reopened and roll < 0.2:  # a late approval of a reopened result
            result = reopened.pop(rng.randrange(len(reopened)))
            engine.approve_result(result=result, by=organiser, reason="late approval after the check")
            approved.append(result.fixture)
        elif approved and roll < 0.35:  # a correction
            fixture = rng.choice(approved)
            home, away = score()
            engine.record_result(fixture=fixture, by=organiser, home_score=home, away_score=away,
                                 reason="scoresheet corrected")
        elif approved and roll < 0.45:  # a reopening
            fixture = approved.pop(rng.randrange(len(approved)))
            reopened.append(engine.reopen_result(result=Result.objects.get(fixture=fixture), by=organiser,
                                                 reason="checking the sheet"))
        elif fixtures:
            fixture = fixtures.pop()
            home, away = score()
            if rng.random() < 0.1:
                engine.record_result(fixture=fixture, by=organiser, home_score=0, away_score=0, abandoned=True,
                                     reason="not played")
            else:
                engine.record_result(fixture=fixture, by=organiser, home_score=home, away_score=away)
                approved.append(fixture)
        else:
            continue
        steps += 1
        kept = snapshot()
        assert kept == from_scratch(), f"after step {steps}"
    assert steps > len(coaches) and Rating.objects.filter(game_system="guildball").count() >= 4


def one_person_twice(organiser):
    """Sam as two coach rows, each with a win or a loss in a league of their own
    (a week apart), the game rated: (the row kept, the row a merge absorbs)."""
    north, south = LeagueFactory(organisers=[organiser]), LeagueFactory(organisers=[organiser])
    keep, absorb, ann, bob = CoachFactory(name="Sam"), CoachFactory(name="Sam S", user=None), CoachFactory(), CoachFactory()
    n, s = SeasonFactory(league=north), SeasonFactory(league=south)
    match(n, EntryFactory(season=n, coach=keep), EntryFactory(season=n, coach=ann), MONDAY,
          home_score=12, away_score=3, outcome="home")
    match(s, EntryFactory(season=s, coach=absorb), EntryFactory(season=s, coach=bob),
          MONDAY + datetime.timedelta(days=7), home_score=2, away_score=12, outcome="away")
    ratings.recompute("guildball")
    return keep, absorb


@pytest.mark.django_db
def test_a_merge_gives_the_absorbed_coachs_games_to_the_kept_one(organiser, django_capture_on_commit_callbacks):
    """One person, one coach: after a merge the kept coach is rated on both rows'
    games, as a recomputation from scratch rates them, and the absorbed row's
    ratings are gone."""
    from league.people import merges

    keep, absorb = one_person_twice(organiser)
    with django_capture_on_commit_callbacks(execute=True):  # the recomputation the merge queued runs
        merges.merge(keep=keep, absorb=absorb, by=organiser)
    kept = snapshot()
    assert kept == from_scratch()
    assert Rating.objects.get(coach=keep, game_system="guildball").games == 2
    assert not RatingWeek.objects.filter(coach_id=absorb.pk).exists()
