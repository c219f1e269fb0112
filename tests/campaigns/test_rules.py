"""The Big League's pure rules on their edges (no database)."""

import pytest

from campaigns import rules

TABLE = [
    rules.MomentDef(0, "Plotting", "guild"),
    rules.MomentDef(20, "Planning", "guild"),
    rules.MomentDef(40, "Opening Gambit", "guild"),
    rules.MomentDef(60, "Best Laid Plans", "rare"),
    rules.MomentDef(80, "Consolidate", "guild"),
    rules.MomentDef(100, "Fully Committed Now", "guild"),
    rules.MomentDef(120, "Next Steps", "guild"),
    rules.MomentDef(140, "All Coming Together Nicely", "rare"),
    rules.MomentDef(160, "No Room For Manoeuvre", "rare"),
    rules.MomentDef(180, "Final Day", "rare"),
    rules.MomentDef(200, "Driving the Advantage", "rare", repeat_every=20),
]


# GB-12 / GB-13 ---------------------------------------------------------------


def test_plotting_is_reached_at_zero():
    assert [m.name for m in rules.moments_reached(0, TABLE)] == ["Plotting"]


def test_exactly_20_cp_reaches_planning_and_19_does_not():
    assert [m.threshold for m in rules.moments_reached(20, TABLE)] == [0, 20]
    assert [m.threshold for m in rules.moments_reached(19, TABLE)] == [0]


def test_65_cp_reaches_every_moment_up_to_60():
    """GB-13: a jump crosses several thresholds at once (moments.sync_moments
    records each one it has not recorded yet)."""
    reached = rules.moments_reached(65, TABLE)
    assert [(m.threshold, m.name, m.unlocks) for m in reached] == [
        (0, "Plotting", "guild"),
        (20, "Planning", "guild"),
        (40, "Opening Gambit", "guild"),
        (60, "Best Laid Plans", "rare"),
    ]


def test_driving_the_advantage_repeats_every_20_from_200():
    reached = rules.moments_reached(245, TABLE)
    assert [m.threshold for m in reached][-4:] == [180, 200, 220, 240]
    assert all(m.name == "Driving the Advantage" and m.unlocks == "rare" for m in reached[-3:])
    assert rules.next_moment(245, TABLE).threshold == 260
    assert rules.next_moment(180, TABLE).name == "Driving the Advantage"


def test_progress_to_next_moment():
    assert rules.progress(30, TABLE) == (10, 40, 50)
    assert rules.progress(0, TABLE) == (20, 20, 0)


# GB-18 -------------------------------------------------------------------------


def amounts(awards):
    return [a.amount for a in awards]


def test_win_against_coach_with_more_lp_is_4_favours():
    awards = rules.favour_awards(won=True, my_lp=3, opponent_lp=6, opponent="Bob")
    assert amounts(awards) == [1, 1, 2] and sum(amounts(awards)) == 4
    assert "6 to 3" in awards[1].reason


def test_loss_to_coach_with_more_lp_is_4_favours():
    assert sum(amounts(rules.favour_awards(won=False, my_lp=0, opponent_lp=3, opponent="Bob"))) == 4


def test_equal_lp_gives_no_extra_favour():
    assert amounts(rules.favour_awards(won=True, my_lp=3, opponent_lp=3, opponent="Bob")) == [1]
    assert amounts(rules.favour_awards(won=False, my_lp=3, opponent_lp=3, opponent="Bob")) == [3]


def test_abandoned_is_a_loss_for_both():
    awards = rules.favour_awards(won=True, my_lp=0, opponent_lp=3, opponent="Bob", abandoned=True)
    assert amounts(awards) == [3, 1]
    assert "abandoned" in awards[0].reason


# GB-19 to GB-24 ---------------------------------------------------------------------


def test_fifth_favour_in_a_phase_is_allowed_and_sixth_refused():
    assert rules.check_spend(balance=9, spent_in_phase=4, cost=1, what="Advancement") is None
    refusal = rules.check_spend(balance=9, spent_in_phase=5, cost=1, what="Advancement")
    assert "already spent 5 of the 5 Favours allowed" in refusal


def test_loan_over_the_phase_limit_names_the_numbers():
    refusal = rules.check_spend(balance=10, spent_in_phase=3, cost=3, what="A loan")
    assert "costs 3" in refusal and "spent 3 of the 5" in refusal


def test_balance_zero_cannot_spend():
    refusal = rules.check_spend(balance=0, spent_in_phase=0, cost=1, what="The sponsorship +1 DEF")
    assert "never go below zero" in refusal and "you have 0" in refusal
    assert rules.check_spend(balance=1, spent_in_phase=0, cost=1, what="x") is None


def test_payer_is_named_when_someone_else_reads_it():
    assert "Bob has 2" in rules.check_spend(balance=2, spent_in_phase=0, cost=3, what="The loan", who="Bob")


@pytest.mark.parametrize("model_type,label", [("captain", "Captain"), ("mascot", "Mascot")])
def test_captain_and_mascot_cannot_be_loaned(model_type, label):
    refusal = rules.check_loanable(model_type)
    assert "stay with their team" in refusal and label in refusal
    assert rules.check_loanable("squaddie") is None


def test_second_copy_of_a_sponsorship_refused():
    assert rules.check_sponsorship(name="+1 DEF", held=[]) is None
    assert "one copy of each sponsorship" in rules.check_sponsorship(name="+1 DEF", held=["+1 DEF", "Re-roll Shots"])


def test_advancement_once_per_phase():
    assert rules.check_advancement(advancements_in_phase=0) is None
    assert "at most 1 Favour per phase" in rules.check_advancement(advancements_in_phase=1)


@pytest.mark.parametrize("favours,ok", [(0, False), (1, True), (5, True), (6, False)])
def test_card_offer_is_1_to_5(favours, ok):
    assert (rules.check_card_offer(favours) is None) is ok


# GB-3 ----------------------------------------------------------------------------------


def test_ties_share_a_title_and_zero_holds_nothing():
    assert rules.top_holders({"Ann": 30, "bob": 30, "Cy": 10}) == ["Ann", "bob"]
    assert rules.top_holders({"Ann": 0, "Bob": 0}) == []
    assert rules.champion_holders({"Ann": (1, 9), "Bob": (1, 9), "Cy": (3, 6)}) == ["Ann", "Bob"]
    assert rules.champion_holders({"Ann": (1, 0), "Bob": (1, 0)}) == []
