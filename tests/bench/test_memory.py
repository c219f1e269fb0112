"""The benchmark's league's-memory part (bench/memory.py) at tiny sizes: its bulk
builder writes valid DreadBall results the pages and records count, and the part
prints its rows."""

from __future__ import annotations

import pytest
from django.db.models import Count, Max

from bench import memory
from league.dreadball.models import DreadBallResult
from league.dreadball.rules import check_result
from league.models import Coach, Entry, Fixture, Result
from league.records import halloffame
from league.records.boards import Scope, counted_results
from tests.support.factories import FixtureFactory


@pytest.mark.django_db
def test_the_site_builder_writes_valid_approved_dreadball_results_coaches_play_in_several_seasons():
    site = memory.build_site(coaches=8, results=120)
    # One league of 8 coaches; a double round robin has 56 matches (LG-1): two seasons.
    assert (site.coaches, site.leagues, site.seasons, site.results) == (8, 1, 2, 112)
    results = Result.objects.filter(fixture__round__season__league__game_system="dreadball")
    assert results.filter(status=Result.Status.APPROVED, approved_at__isnull=False).count() == 112
    assert Coach.objects.count() == 8
    assert set(Entry.objects.values("coach").annotate(n=Count("pk")).values_list("n", flat=True)) == {2}
    for detail in DreadBallResult.objects.select_related("result"):  # DR-3: every detail a game could end in
        check_result(winner=detail.result.outcome, difference=detail.difference, rush=detail.rush,
                     sudden_death=detail.sudden_death)
    assert results.filter(dreadball_detail__isnull=True).count() == 0
    assert set(results.values_list("outcome", flat=True)) >= {"home", "away"}
    # The ids were given: a fixture made afterwards gets a new one.
    built = Fixture.objects.aggregate(top=Max("pk"))["top"]
    assert FixtureFactory().pk > built
    assert memory.busiest_coach(Scope("dreadball")) in Coach.objects.values_list("pk", flat=True)
    low, high = memory.most_met(Scope("dreadball"))
    assert low < high


def _runs_one_match_at_a_time(scope: Scope) -> list[tuple[int, int]]:
    """The oracle: each coach's matches in order, a run counted match by match."""
    rows = (Result.objects.filter(counted_results(scope))
            .order_by("fixture__date", "fixture_id")
            .values_list("fixture__home__coach_id", "fixture__away__coach_id", "outcome", "fixture__date"))
    current: dict[int, int] = {}
    best: dict[int, tuple[int, tuple]] = {}
    for index, (home, away, outcome, day) in enumerate(rows):
        for coach, won in ((home, outcome == "home"), (away, outcome == "away")):
            current[coach] = current.get(coach, 0) + 1 if won else 0
            if current[coach] and current[coach] > best.get(coach, (0,))[0]:
                best[coach] = (current[coach], (day, index))
    ordered = sorted(best.items(), key=lambda item: (-item[1][0], item[1][1], item[0]))
    return [(coach, length) for coach, (length, _) in ordered[:halloffame.TOP]]


@pytest.mark.django_db
def test_winning_runs_in_sql_agree_with_counting_them_match_by_match_over_a_built_site():
    memory.build_site(coaches=12, results=400, seed=7)
    scope = Scope("dreadball")
    found = [(line.coach_id, line.figure) for line in halloffame.winning_runs(scope)]
    assert found == _runs_one_match_at_a_time(scope) and len(found) == halloffame.TOP


@pytest.mark.django_db
def test_the_memory_part_prints_the_leaderboard_ratio_and_every_pages_size():
    ratios, said = [], []
    memory.measure(ratios, coaches=8, results=60, repeat=1, goals={"cold": 3.0, "size_kb": 300},
                   say=said.append, analyze=lambda: None)
    labels = [ratio.label for ratio in ratios]
    assert labels[0].startswith("site leaderboard cold, 8 coaches, 56 results / one GROUP BY")
    assert len(labels) == 7 and all(ratio.value > 0 for ratio in ratios)
    assert any("records page cold" in line for line in said)
    assert any(label.startswith("busiest coach's profile size") for label in labels)
