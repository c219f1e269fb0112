"""DB-2 divisions, fixture stages (DB-5a: friendlies and play-offs are not in the
regular table) and the outcomes every game needs (a conceded and an unplayed
match), through the engine's services and its one ranking function."""

from __future__ import annotations

import itertools

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse

from league.services import results as services
from league.services import seasons as season_services
from league.models import Fixture, Result
from league.rules.base import ABANDONED, AWAY_WIN, DRAW, HOME_WIN, GameRules, PlayedResult, Stat
from league.rules.scheduling import division_sizes, draw_divisions
from league.standings.ranking import EntryInfo, compute_table
from league.standings.season import standings_for
from tests.support.factories import CoachFactory, EntryFactory, SeasonFactory

# Division sizes (DB-2) -----------------------------------------------------------


@pytest.mark.parametrize("entries", range(8, 21))
@pytest.mark.parametrize("divisions", [2, 3, 4])
def test_division_sizes_are_as_equal_as_possible_and_never_below_four(entries, divisions):
    if entries < 4 * divisions:
        with pytest.raises(ValueError, match=f"at least {4 * divisions} entries"):
            division_sizes(entries, divisions)
        return
    sizes = division_sizes(entries, divisions)
    assert len(sizes) == divisions
    assert sum(sizes) == entries
    assert max(sizes) - min(sizes) <= 1
    assert min(sizes) >= 4


@pytest.mark.parametrize("divisions", [1, 5])
def test_two_to_four_divisions_only(divisions):
    with pytest.raises(ValueError, match="2 to 4 divisions"):
        division_sizes(20, divisions)


def test_the_draw_is_seeded_and_places_everyone_once():
    people = list(range(13))
    first = draw_divisions(people, 3, seed=11)
    assert first == draw_divisions(people, 3, seed=11)
    assert sorted(itertools.chain(*first)) == people
    assert sorted(len(group) for group in first) == [4, 4, 5]


# Divisions in a season -------------------------------------------------------------


@pytest.fixture
def divided_season(db, organiser):
    season = SeasonFactory(league__name="Deep Halls", league__slug="deep-halls", league__organisers=[organiser])
    for n in range(10):
        EntryFactory(season=season, coach=CoachFactory(name=f"Coach {n:02d}"))
    season_services.draw_season_divisions(season=season, by=organiser, count=2, seed=3)
    season_services.generate_fixtures(season=season, by=organiser, seed=5)
    return season


def test_fixtures_are_only_within_a_division(divided_season):
    fixtures = Fixture.objects.filter(round__season=divided_season).matches().select_related("home", "away")
    assert fixtures.exists()
    for fixture in fixtures:
        assert fixture.home.division_id == fixture.away.division_id
    for division in divided_season.divisions.all():
        members = set(division.entries.values_list("pk", flat=True))
        pairs = {
            frozenset((f.home_id, f.away_id)) for f in fixtures if f.home_id in members
        }
        assert pairs == {frozenset(p) for p in itertools.combinations(members, 2)}  # each pair once


def test_standings_are_ranked_per_division(divided_season, organiser, client):
    for fixture in Fixture.objects.filter(round__season=divided_season, round__number=1).matches():
        services.record_result(fixture=fixture, by=organiser, home_score=12, away_score=4, reason="scoresheet")
    rows = standings_for(divided_season)
    by_division = {}
    for row in rows:
        by_division.setdefault(row.division, []).append(row)
    assert sorted(by_division) == ["Division A", "Division B"]
    for division_rows in by_division.values():
        assert division_rows[0].position == 1
        assert [r.position for r in division_rows] == sorted(r.position for r in division_rows)
    data = client.get(reverse("league:standings_json", args=["deep-halls"])).json()
    assert [row["division"] for row in data["standings"]] == [row.division for row in rows]
    page = client.get(reverse("league:league_detail", args=["deep-halls"])).content.decode()
    assert "Division A" in page and "Division B" in page


def test_divisions_are_refused_when_too_small_or_after_fixtures(db, organiser, divided_season):
    season = SeasonFactory(league__organisers=[organiser])
    for _ in range(7):
        EntryFactory(season=season)
    with pytest.raises(ValidationError, match="at least 8 entries"):
        season_services.draw_season_divisions(season=season, by=organiser, count=2, seed=1)
    assert not season.divisions.exists()
    with pytest.raises(ValidationError, match="before the fixtures"):
        season_services.draw_season_divisions(season=divided_season, by=organiser, count=2, seed=1)


def test_the_organisers_own_split_is_checked(db, organiser):
    season = SeasonFactory(league__organisers=[organiser])
    entries = [EntryFactory(season=season) for _ in range(9)]
    with pytest.raises(ValidationError, match="exactly one division"):
        season_services.set_season_divisions(season=season, by=organiser, divisions={"North": entries[:4], "South": entries[4:8]})
    with pytest.raises(ValidationError, match="at least 4"):
        season_services.set_season_divisions(season=season, by=organiser, divisions={"North": entries[:6], "South": entries[6:]})
    season_services.set_season_divisions(season=season, by=organiser, divisions={"North": entries[:5], "South": entries[5:]})
    assert season.divisions.get(name="North").entries.count() == 5


# Stages -------------------------------------------------------------------------


@pytest.fixture
def plain_season(db, organiser):
    season = SeasonFactory(league__organisers=[organiser])
    entries = [EntryFactory(season=season) for _ in range(4)]
    season_services.generate_fixtures(season=season, by=organiser, seed=1)
    return season, entries


def _table(season):
    return [(row.coach, row.played, row.lp) for row in standings_for(season)]


def test_a_friendly_changes_no_standing(plain_season, organiser):
    season, entries = plain_season
    before = _table(season)
    friendly = season_services.add_friendly(
        season=season, by=organiser, home=entries[0], away=entries[1], date=season.start_date
    )
    assert friendly.stage == Fixture.Stage.FRIENDLY
    services.record_result(fixture=friendly, by=organiser, home_score=12, away_score=2, reason="friendly night")
    assert Result.objects.get(fixture=friendly).is_approved
    assert _table(season) == before


def test_a_play_off_is_not_in_the_regular_table(plain_season, organiser):
    season, entries = plain_season
    before = _table(season)
    last = season.rounds.order_by("-number").first()
    playoff = Fixture.objects.create(
        round=last, home=entries[0], away=entries[1], date=last.date, stage=Fixture.Stage.PLAYOFF
    )
    services.record_result(fixture=playoff, by=organiser, home_score=12, away_score=2, reason="semi-final")
    assert _table(season) == before


def test_only_the_organiser_adds_a_friendly(plain_season):
    season, entries = plain_season
    with pytest.raises(PermissionDenied):
        season_services.add_friendly(
            season=season, by=entries[0].coach.user, home=entries[0], away=entries[1], date=season.start_date
        )
    assert not Fixture.objects.filter(stage=Fixture.Stage.FRIENDLY).exists()


# Outcomes every game needs: conceded and unplayed ----------------------------------


class TouchdownRules(GameRules):
    """A game shaped like Dungeon Bowl's results, to show the engine ranks it with no
    game-specific code: draws, touchdowns, a concession counting 1-0 (DB-5a)."""

    system = "touchdowns"
    name = "Touchdowns"
    allows_draws = True
    stats = (Stat("td_for", "touchdowns scored", "TD+"),)
    tiebreakers = ("td_for",)

    def league_points(self, result: PlayedResult, side: str) -> int:
        if result.outcome == DRAW:
            return 1
        return 3 if result.outcome == side else 0

    def side_stats(self, result: PlayedResult, side: str) -> dict[str, int]:
        if result.outcome == ABANDONED:
            return {}
        return {"td_for": result.score(side)}


def test_a_conceded_and_an_unplayed_match():
    entries = [EntryInfo(1, 11, "Ash"), EntryInfo(2, 12, "Birch"), EntryInfo(3, 13, "Cedar"), EntryInfo(4, 14, "Damson")]
    results = [
        PlayedResult(1, 1, 2, 1, 0, HOME_WIN, conceded=True),  # Birch conceded: 1-0 to Ash
        PlayedResult(1, 3, 4, None, None, ABANDONED),  # never played: a loss for both
        PlayedResult(2, 2, 3, 2, 2, DRAW),
        PlayedResult(2, 4, 1, 0, 1, AWAY_WIN),
    ]
    rows = {row.coach: row for row in compute_table(entries, results, TouchdownRules())}
    assert (rows["Ash"].won, rows["Ash"].lp, rows["Ash"].stats["td_for"]) == (2, 6, 2)
    assert (rows["Birch"].lost, rows["Birch"].drawn, rows["Birch"].lp) == (1, 1, 1)
    assert (rows["Cedar"].played, rows["Cedar"].lost, rows["Cedar"].drawn, rows["Cedar"].lp) == (2, 1, 1, 1)
    assert (rows["Damson"].played, rows["Damson"].lost, rows["Damson"].lp) == (2, 2, 0)
    # Birch and Cedar: 1 point and 2 touchdowns each, so they share second place
    assert rows["Birch"].stats["td_for"] == rows["Cedar"].stats["td_for"] == 2
    assert rows["Birch"].position_label == rows["Cedar"].position_label == "=2"
    assert rows["Birch"].note.endswith("position shared")
