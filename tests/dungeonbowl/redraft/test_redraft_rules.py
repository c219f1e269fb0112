"""DB-15 re-drafting as pure rules: the Re-Draft Budget with and without the
league's cap and scouting compensation, re-hire fees, scouting and Niggling
Injury recovery (dice are inputs, DB-16)."""

import pytest

from league.dungeonbowl.redraft import rules as rr


def test_a_budget_lists_every_line_and_the_lines_add_up():
    b = rr.redraft_budget(treasury=35_000, games_played=9, league_wins=4, players_scouted=1)
    assert b.budget == 1_000_000 + 35_000 + 9 * 20_000 + 4 * 20_000 + 20_000 == 1_315_000
    assert not b.cap_applied and sum(gp for _, gp in b.lines) == b.budget
    assert [reason for reason, _ in b.lines] == [
        "Re-draft budget", "Treasury carried over (then emptied)", "9 games played x 20,000 gp",
        "4 league fixtures won x 20,000 gp", "1 player scouted x 20,000 gp",
    ]


def test_the_league_cap_takes_a_budget_back_to_1_300_000_with_a_line_of_its_own():
    capped = rr.redraft_budget(treasury=35_000, games_played=9, league_wins=4, players_scouted=1, cap=True)
    assert capped.budget == 1_300_000 and capped.cap_applied
    assert capped.lines[-1] == ("League cap of 1,300,000 gp", -15_000)
    assert sum(gp for _, gp in capped.lines) == 1_300_000
    # A budget under the cap is not touched by it; exactly at the cap neither.
    under = rr.redraft_budget(treasury=0, games_played=7, league_wins=0, players_scouted=0, cap=True)
    assert under.budget == 1_140_000 and not under.cap_applied
    exact = rr.redraft_budget(treasury=100_000, games_played=5, league_wins=5, players_scouted=0, cap=True)
    assert exact.budget == 1_300_000 and not exact.cap_applied


def test_compensation_is_20_000_per_scouted_player_and_can_be_capped_away():
    none = rr.redraft_budget(treasury=0, games_played=0, league_wins=0, players_scouted=0)
    two = rr.redraft_budget(treasury=0, games_played=0, league_wins=0, players_scouted=2)
    assert two.budget - none.budget == 40_000
    rich = rr.redraft_budget(treasury=300_000, games_played=0, league_wins=0, players_scouted=2, cap=True)
    assert rich.budget == 1_300_000 and rich.lines[-1][1] == -40_000


def test_a_budget_refuses_impossible_input():
    with pytest.raises(ValueError):
        rr.redraft_budget(treasury=-1, games_played=0, league_wins=0, players_scouted=0)
    with pytest.raises(ValueError):
        rr.redraft_budget(treasury=0, games_played=2, league_wins=3, players_scouted=0)


def test_rehire_fee_after_one_and_three_seasons():
    assert rr.rehire_fee(90_000, 1) == 110_000
    assert rr.rehire_fee(90_000, 3) == 150_000
    assert rr.rehire_fee(90_000, 0) == 90_000
    with pytest.raises(ValueError):
        rr.rehire_fee(-1, 1)


def test_only_a_six_sends_a_player_to_a_blood_bowl_team():
    assert [rr.scouted(d) for d in range(1, 7)] == [False] * 5 + [True]
    for bad in (0, 7, True):
        with pytest.raises(ValueError):
            rr.scouted(bad)


def test_a_niggling_injury_goes_on_4_or_more():
    assert rr.niggling_recovery(3, [4, 3, 6]) == 1
    assert rr.niggling_recovery(2, [1, 3]) == 2
    assert rr.niggling_recovery(0, []) == 0
    with pytest.raises(ValueError):
        rr.niggling_recovery(2, [5])
    with pytest.raises(ValueError):
        rr.niggling_recovery(1, [7])
