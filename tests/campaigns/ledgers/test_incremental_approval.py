"""An approval's campaign effects are incremental. Approving, correcting
or reopening a result costs a fixed number of queries whatever the season's state
(early, late, a round-1 result approved after every later round), writes only the
lines that change, and leaves the ledgers exactly as recomputing the whole season
would (GB-17, GB-18; the full computation below is the one the layer used to run
on every approval, kept here as the oracle)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from campaigns import rules
from campaigns.ledgers.balances import active_lines
from campaigns.models import CampaignCoach, CampaignPointLine, FavourLine, LineKind, MomentUnlock
from league.services import results as services
from league.models import Fixture, Result
from league.standings.ranking import lp_before_round, standings_by_round
from league.selectors import approved_results, season_entries
from league.standings.season import played_result
from tests.campaigns.factories import make_campaign
from tests.support.factories import LeagueFactory, SeasonFactory

pytestmark = pytest.mark.django_db

# Whatever the season's state: 15 for the result and its campaign lines, 1 marking the
# game's ratings as waiting from the match's week (RT-2, league/ratings/services.py;
# the recomputation is a task of its own) and 1 for the league's event subscribers
# (league/events/emit.py). The tests' task queue runs a task once the write commits,
# so no task row is counted here.
MAX_QUERIES = 17
# A correction or a reopening first locks the season row that guards the later
# matches' GB-18 lines (league/locks.py, step 4; the faults run, R7, found two of them
# rewriting one match's lines at once), reads and reverses the lines the approval
# gave, and a correction checks the coaches' Favour balances before and after
# (GB-20): five queries more, as fixed.
MAX_WITHDRAWAL_QUERIES = MAX_QUERIES + 5


def full_match_favours(season) -> list[tuple]:
    """GB-18 for every approved result from scratch: LP before each round from the
    standings after every round (the old full reconcile)."""
    approved = list(
        approved_results(season).values(
            "pk", "fixture__round__number", "fixture__home_id", "fixture__away_id", "home_score", "away_score",
            "outcome", "conceded", "fixture__home__coach__name", "fixture__away__coach__name",
        )
    )
    snapshots = standings_by_round(season_entries(season), [played_result(r) for r in approved], season.league.rules)
    cc = dict(CampaignCoach.objects.filter(campaign__season=season).values_list("entry_id", "pk"))
    out = []
    for r in approved:
        n = r["fixture__round__number"]
        lp = lp_before_round(snapshots, n)
        for side, me, them, name in (
            ("home", r["fixture__home_id"], r["fixture__away_id"], r["fixture__away__coach__name"]),
            ("away", r["fixture__away_id"], r["fixture__home_id"], r["fixture__home__coach__name"]),
        ):
            for award in rules.favour_awards(won=r["outcome"] == side, my_lp=lp.get(me, 0), opponent_lp=lp.get(them, 0),
                                             opponent=name, abandoned=r["outcome"] == "abandoned"):
                out.append((cc[me], award.amount, f"Round {n}: {award.reason}", r["pk"]))
    return sorted(out)


def ledger_match_favours(season) -> list[tuple]:
    return sorted(
        active_lines(FavourLine)
        .filter(coach__campaign__season=season, kind=LineKind.MATCH)
        .values_list("coach_id", "amount", "reason", "result_id")
    )


def report(fixture: Fixture, home: int, away: int) -> Result:
    return services.report_result(fixture=fixture, by=fixture.home.coach.user, home_score=home, away_score=away)


def counted(captured) -> int:
    """Queries, leaving out the savepoint a service opens inside the test's transaction."""
    return sum(1 for q in captured if "SAVEPOINT" not in q["sql"])


def approve(result: Result, organiser) -> int:
    with CaptureQueriesContext(connection) as captured:
        services.approve_result(result=result, by=organiser, reason="checked with both coaches")
    return counted(captured)


def score(i: int) -> tuple[int, int]:
    return (12, 4 + i % 7) if i % 3 else (i % 9, 12)


def season_of(n: int, organiser):
    season = SeasonFactory(league=LeagueFactory(slug=f"incremental-{n}", organisers=[organiser]))
    make_campaign(season, n, organiser=organiser, prefix=f"Inc{n}")
    fixtures = list(Fixture.objects.filter(round__season=season).matches().select_related(
        "round", "home__coach__user", "away__coach__user").order_by("round__number", "pk"))
    return season, fixtures


@pytest.mark.parametrize("n", [4, 12])
def test_approving_costs_a_fixed_number_of_queries_early_late_and_out_of_order(organiser, n):
    season, fixtures = season_of(n, organiser)
    held_back = fixtures[1]  # a round-1 result approved once every later round is
    results = {f.pk: report(f, *score(i)) for i, f in enumerate(fixtures)}
    counts = {"first": approve(results[fixtures[0].pk], organiser)}
    for f in fixtures[2:-1]:
        counts.setdefault("middle", 0)
        counts["middle"] = max(counts["middle"], approve(results[f.pk], organiser))
    counts["last"] = approve(results[fixtures[-1].pk], organiser)
    written = FavourLine.objects.count()
    counts["round 1, late"] = approve(results[held_back.pk], organiser)
    assert FavourLine.objects.count() > written  # it did change later rounds' lines ...
    assert ledger_match_favours(season) == full_match_favours(season)  # ... exactly as recomputing would
    assert max(counts.values()) <= MAX_QUERIES, counts

    # A correction and a reopening of that round-1 result: fixed too, and exact.
    with CaptureQueriesContext(connection) as captured:
        services.record_result(fixture=held_back, by=organiser, home_score=0, away_score=12, reason="misread")
    assert counted(captured) <= MAX_WITHDRAWAL_QUERIES, "\n".join(q["sql"][:100] for q in captured)
    assert ledger_match_favours(season) == full_match_favours(season)
    with CaptureQueriesContext(connection) as captured:
        services.reopen_result(result=Result.objects.get(fixture=held_back), by=organiser, reason="again")
    assert counted(captured) <= MAX_WITHDRAWAL_QUERIES
    assert ledger_match_favours(season) == full_match_favours(season)
    assert not active_lines(FavourLine).filter(result__fixture=held_back).exists()


def test_only_the_lines_that_change_are_written(organiser, django_assert_max_num_queries):
    """A round-1 result approved late rewrites the later matches of its two coaches
    whose GB-18 lines move, and nothing of anyone else's."""
    season, fixtures = season_of(6, organiser)
    held_back = fixtures[0]
    for i, f in enumerate(fixtures[1:], start=1):
        services.approve_result(result=report(f, *score(i)), by=organiser, reason="ok")
    before = set(FavourLine.objects.values_list("pk", flat=True))
    result = report(held_back, 12, 0)
    # and the service's savepoint and its release
    with django_assert_max_num_queries(MAX_QUERIES + 2):
        services.approve_result(result=result, by=organiser, reason="ok")
    new = FavourLine.objects.exclude(pk__in=before).select_related("result__fixture")
    entries = {held_back.home_id, held_back.away_id}
    for line in new:
        fixture = line.result.fixture
        assert fixture.pk == held_back.pk or {fixture.home_id, fixture.away_id} & entries, line.reason
    assert ledger_match_favours(season) == full_match_favours(season)


def test_moments_follow_card_cp_for_both_coaches(organiser):
    """GB-13 through the batched sync: an approval gives both coaches their
    reached Moments (Plotting at 0 CP at least) in one pass."""
    season, fixtures = season_of(4, organiser)
    MomentUnlock.objects.all().delete()
    services.approve_result(result=report(fixtures[0], 12, 3), by=organiser, reason="ok")
    coaches = CampaignCoach.objects.filter(entry_id__in=[fixtures[0].home_id, fixtures[0].away_id])
    assert set(MomentUnlock.objects.filter(threshold=0).values_list("coach_id", flat=True)) == {c.pk for c in coaches}
    assert not CampaignPointLine.objects.exists()


@pytest.mark.parametrize("seed", [1, 2])
def test_approvals_in_any_order_leave_the_ledgers_recomputing_would(organiser, seed):
    """An approval reads only the results of its two coaches and of the opponents
    they meet in later rounds (not the whole season); approving in a
    random order, with a correction on the way, every step leaves the GB-18 lines
    exactly as recomputing the season gives them."""
    import random

    rng = random.Random(seed)
    season, fixtures = season_of(7, organiser)
    results = {f.pk: report(f, *score(i)) for i, f in enumerate(fixtures)}
    order = list(fixtures)
    rng.shuffle(order)
    for step, fixture in enumerate(order):
        services.approve_result(result=results[fixture.pk], by=organiser, reason="ok")
        if step % 4 == 3:
            assert ledger_match_favours(season) == full_match_favours(season), step
    corrected = order[len(order) // 2]
    services.record_result(fixture=corrected, by=organiser, home_score=12, away_score=11, reason="misread")
    assert ledger_match_favours(season) == full_match_favours(season)
    assert FavourLine.objects.filter(kind=LineKind.MATCH).count() > len(fixtures)
