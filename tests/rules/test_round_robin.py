"""GB-4, GB-5: round-robin fixture generation."""

import datetime
from collections import Counter

import pytest

from league.rules.scheduling import round_dates, round_robin


def _check_schedule(rounds, n, cycles):
    meetings = Counter()
    home, away, byes = Counter(), Counter(), Counter()
    for pairs in rounds:
        seen = []
        for a, b in pairs:
            assert a is not None, "a bye is written (participant, None)"
            seen.append(a)
            if b is None:
                byes[a] += 1
            else:
                seen.append(b)
                meetings[frozenset((a, b))] += 1
                home[a] += 1
                away[b] += 1
        assert sorted(seen) == list(range(n)), "everyone plays or has the bye exactly once a round"
    assert len(meetings) == n * (n - 1) // 2
    assert set(meetings.values()) == {cycles}
    return home, away, byes


@pytest.mark.parametrize("n", range(2, 21))
def test_single_round_robin_every_pair_meets_once(n):
    rounds = round_robin(list(range(n)), seed=n)
    assert len(rounds) == (n if n % 2 else n - 1)
    home, away, byes = _check_schedule(rounds, n, cycles=1)
    for p in range(n):
        assert abs(home[p] - away[p]) <= 1, f"{p} has {home[p]} home and {away[p]} away"
    if n % 2:
        assert all(byes[p] == 1 for p in range(n)), "GB-4 Decision: odd numbers give one bye each"
    else:
        assert not byes


@pytest.mark.parametrize("n", range(2, 21))
def test_double_round_robin_swaps_home_and_away(n):
    rounds = round_robin(list(range(n)), double=True, seed=1)
    home, away, _ = _check_schedule(rounds, n, cycles=2)
    for p in range(n):
        assert home[p] == away[p]


def test_same_seed_same_schedule_other_seed_differs():
    coaches = [f"coach{i}" for i in range(10)]
    assert round_robin(coaches, seed=42) == round_robin(coaches, seed=42)
    assert round_robin(coaches, seed=42) != round_robin(coaches, seed=43)


@pytest.mark.parametrize("bad", [[], ["solo"], ["a", "a"]])
def test_refuses_too_few_or_repeated(bad):
    with pytest.raises(ValueError):
        round_robin(bad)


def test_round_dates_follow_cadence():
    start = datetime.date(2026, 9, 7)
    assert round_dates(start, 3) == [start, datetime.date(2026, 9, 14), datetime.date(2026, 9, 21)]
    assert round_dates(start, 2, cadence_days=14)[1] == datetime.date(2026, 9, 21)
