"""Records and the hall of fame (league/records/halloffame.py) with hand-made
seasons: champions of finished seasons only, a game's titles beside them, the
biggest wins, a winning run across seasons, the most seasons and games played."""

from __future__ import annotations

import datetime
import random

import pytest
from django.test import Client
from django.urls import reverse

from campaigns.models import Campaign, CampaignCoach, Title
from league.models import Fixture, Result
from league.records import halloffame, titles
from league.records.boards import Scope, counted_results
from league.records.runs import longest_runs
from tests.support.factories import CoachFactory, EntryFactory, FixtureFactory, LeagueFactory, ResultFactory, RoundFactory, SeasonFactory

DAY = datetime.date(2026, 9, 7)


def test_longest_runs_end_at_a_draw_or_a_loss_and_keep_each_coachs_longest(db):
    """The runs in SQL (league/records/runs.py): a draw or a loss ends a run, each
    coach keeps their longest (the earlier of two as long), longest first, then the
    run that ended first, then the coach; a coach with no win has no run."""
    ash, birch, dell, zed, yew = (CoachFactory(name=name) for name in ("Ash", "Birch", "Dell", "Zed", "Yew"))
    season = SeasonFactory(start_date=DAY)
    _match(season, 1, ash, zed, 12, 0)
    _match(season, 2, ash, zed, 12, 0)  # Ash's first run of two, ended on day 2
    _match(season, 3, ash, zed, 6, 6)  # a draw ends it
    _match(season, 4, ash, zed, 12, 0)
    _match(season, 5, birch, ash, 12, 0)  # a loss ends Ash's run of one
    _match(season, 7, ash, zed, 12, 0)
    _match(season, 8, zed, ash, 0, 12)  # Ash's second run of two, later: not kept
    for day in (1, 2, 3, 4):
        _match(season, 10 + day, birch, yew, 12, 1)  # Birch: five in a row with day 5's
    _match(season, 20, dell, yew, 12, 1)
    _match(season, 21, dell, yew, 12, 1)
    _match(season, 22, zed, dell, 12, 1)  # Zed's only win ends Dell's run of two
    found = longest_runs(Result.objects.filter(counted_results(Scope("guildball", season.league_id))), limit=5)
    # Ash's run ended on day 2, Dell's on day 21: equal runs, the one that ended first comes first.
    assert [(run.coach_id, run.length) for run in found] == [(birch.pk, 5), (ash.pk, 2), (dell.pk, 2), (zed.pk, 1)]
    assert [run.coach_id for run in longest_runs(Result.objects.all(), limit=1)] == [birch.pk]
    # Equal runs on the same day: the earlier fixture's first.
    other, third = SeasonFactory(start_date=DAY), SeasonFactory(start_date=DAY)
    first, second = _match(other, 1, yew, ash, 12, 0), _match(third, 1, dell, zed, 12, 0)
    assert first.fixture_id < second.fixture_id and first.fixture.date == second.fixture.date
    scope = Result.objects.filter(fixture__round__season__in=[other, third])
    assert [(run.coach_id, run.length) for run in longest_runs(scope, limit=5)] == [(yew.pk, 1), (dell.pk, 1)]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_longest_runs_equal_walking_every_coachs_matches_in_order(db, seed):
    """The SQL against a walk in Python over random results (several matches a
    day, wins, draws and losses), with the same order: longest, then the run
    that ended first (the day, the fixture, home before away), then the coach."""
    rng = random.Random(seed)
    season = SeasonFactory(start_date=DAY)
    entries = [EntryFactory(season=season, coach=CoachFactory(name=f"Runner {n}")) for n in range(6)]
    played = []
    for day in range(1, 25):
        round_ = RoundFactory(season=season, number=day, date=DAY + datetime.timedelta(days=day))
        shuffled = rng.sample(entries, len(entries))
        for home, away in zip(shuffled[0:6:2][:rng.randrange(1, 4)], shuffled[1:6:2]):  # each coach once a day
            hs, as_ = rng.choice([(12, 3), (3, 12), (6, 6), (12, 0)])
            outcome = "home" if hs > as_ else "away" if as_ > hs else "draw"
            fixture = FixtureFactory(round=round_, home=home, away=away, date=round_.date)
            played.append(ResultFactory(fixture=fixture, home_score=hs, away_score=as_, outcome=outcome))
    sides = sorted(
        (result.fixture.date, result.fixture_id, side, coach.pk, result.outcome == won)
        for result in played
        for side, coach, won in ((0, result.fixture.home.coach, "home"), (1, result.fixture.away.coach, "away"))
    )
    best: dict[int, tuple[int, int]] = {}  # coach: (length, moment it ended)
    current: dict[int, int] = {}
    for moment, (*_, coach, won) in enumerate(sides):
        current[coach] = current.get(coach, 0) + 1 if won else 0
        if won and current[coach] > best.get(coach, (0, 0))[0]:
            best[coach] = (current[coach], moment)
    expected = sorted(best.items(), key=lambda item: (-item[1][0], item[1][1], item[0]))
    found = longest_runs(Result.objects.filter(fixture__round__season=season), limit=10)
    assert [(run.coach_id, run.length) for run in found] == [(coach, length) for coach, (length, _) in expected]


def _match(season, day: int, home, away, hs: int, as_: int, **kwargs):
    entry = lambda coach: season.entries.filter(coach=coach).first() or EntryFactory(season=season, coach=coach)  # noqa: E731
    round_ = RoundFactory(season=season, number=day, date=DAY + datetime.timedelta(days=day))
    fixture = FixtureFactory(round=round_, home=entry(home), away=entry(away), stage=kwargs.pop("stage", Fixture.Stage.REGULAR))
    if kwargs.pop("unplayed", False):
        return fixture
    outcome = "home" if hs > as_ else "away" if as_ > hs else "draw"
    return ResultFactory(fixture=fixture, home_score=hs, away_score=as_, outcome=outcome, **kwargs)


@pytest.fixture
def two_seasons(db):
    ash, birch, cedar, dell = (CoachFactory(name=name) for name in ("Ash", "Birch", "Cedar", "Dell"))
    spring = SeasonFactory(name="Spring", start_date=DAY)
    league = spring.league
    autumn = SeasonFactory(league=league, name="Autumn", start_date=DAY + datetime.timedelta(days=60))
    _match(spring, 1, ash, birch, 12, 4)
    _match(spring, 2, birch, cedar, 10, 8)
    _match(spring, 3, ash, cedar, 12, 2)
    _match(spring, 4, cedar, ash, 12, 3, stage=Fixture.Stage.FRIENDLY)  # counts for nothing
    _match(autumn, 61, ash, birch, 12, 0)
    _match(autumn, 62, cedar, ash, 12, 6)
    _match(autumn, 63, birch, cedar, 0, 0, unplayed=True)  # Autumn is not finished
    EntryFactory(season=autumn, coach=dell)
    return league, spring, autumn, (ash, birch, cedar, dell)


def test_records_of_a_league(two_seasons):
    league, spring, autumn, (ash, birch, cedar, dell) = two_seasons
    found = halloffame.records(Scope("guildball", league.pk))
    assert [shown.season for shown in found.seasons] == [spring]  # Autumn still has a match to play
    assert [(h.title, h.coach) for h in found.seasons[0].honours] == [("League Champion", "Ash")]
    assert [(w.result.fixture.home.coach.name, w.margin) for w in found.wins] == [
        ("Ash", 12), ("Ash", 10), ("Ash", 8), ("Cedar", 6), ("Birch", 2)]
    # Ash won both Spring games and Autumn's first: three in a row across seasons, then lost.
    assert [(line.coach, line.figure) for line in found.runs] == [("Ash", 3), ("Birch", 1), ("Cedar", 1)]
    assert [(line.coach, line.figure) for line in found.most_seasons] == [("Ash", 2), ("Birch", 2), ("Cedar", 2), ("Dell", 1)]
    assert [(line.coach, line.figure) for line in found.most_games] == [("Ash", 4), ("Birch", 3), ("Cedar", 3)]
    assert found.runs[0].place == (league.slug, "Autumn")  # their latest season's coach page

    page = Client().get(reverse("league:league_records", args=[league.slug])).content.decode()
    assert "League Champion" in page and "Longest winning runs" in page
    assert f'{reverse("league:coach_detail", args=[league.slug, ash.pk])}?season=Spring' in page


def test_the_big_leagues_titles_stand_beside_the_champion(two_seasons):
    league, spring, _, (ash, birch, cedar, _) = two_seasons
    campaign = Campaign.objects.create(season=spring)
    coach = {e.coach_id: CampaignCoach.objects.create(campaign=campaign, entry=e) for e in spring.entries.all()}
    Title.objects.create(campaign=campaign, title=Title.Name.MASTER_STRATEGOS, coach=coach[birch.pk], figure=7)
    Title.objects.create(campaign=campaign, title=Title.Name.MASTER_OF_SHADOWS, coach=coach[cedar.pk], figure=4)
    Title.objects.create(campaign=campaign, title=Title.Name.LEAGUE_CHAMPION, coach=coach[ash.pk], figure=6)
    honours = halloffame.hall_of_fame(Scope("guildball", league.pk))[0].honours
    assert [(h.title, h.coach, h.detail) for h in honours] == [
        ("League Champion", "Ash", "6 LP"), ("Master Strategos", "Birch", "7 CP gained"),
        ("Master of Shadows", "Cedar", "4 Favours spent")]
    page = Client().get(reverse("league:game_records", args=["guildball"])).content.decode()
    assert "Master of Shadows" in page and league.name in page


def test_a_shared_first_place_crowns_both_and_dreadball_names_its_champion(db):
    assert titles.champion_title("dreadball") == "DreadBall Champion"
    assert titles.champion_title("guildball") == "League Champion"
    season = SeasonFactory(start_date=DAY)
    a, b = CoachFactory(name="Able"), CoachFactory(name="Baker")
    _match(season, 1, a, b, 12, 12)
    honours = halloffame.hall_of_fame(Scope("guildball", season.league_id))[0].honours
    assert sorted(h.coach for h in honours) == ["Able", "Baker"]


def test_records_pages_answer_for_a_game_and_a_league_with_nothing_yet(db):
    league = LeagueFactory(game_system="dreadball")
    client = Client()
    assert client.get(reverse("league:league_records", args=[league.slug])).status_code == 200
    assert "No season has finished yet" in client.get(reverse("league:game_records", args=["dreadball"])).content.decode()
    assert client.get(reverse("league:game_records", args=["chess"])).status_code == 404
