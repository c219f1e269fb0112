"""DR-3's Decision over every combination of winner, difference 0 to 7, Rush 1 to
16 and Sudden Death, without the database; summaries, points and standings stats
of a result (DR-4)."""

import itertools

import pytest
from django.core.exceptions import ValidationError

from league.dreadball.models import DreadBallSettings
from league.rules.base import PlayedResult
from league.dreadball.rules import DreadBallRules


def decision(winner: str, difference: int, rush: int, sudden_death: bool) -> str | None:
    """RULES.md DR-3 restated on its own, with the seed's consequence for Sudden
    Death (it starts level, one Strike of at most 4 a Rush, and ends after a
    Visiting Rush with a side ahead: a win there is by 1 to 4, or by 0 when only
    one team can still throw, the DR-3 Decision). Returns a phrase of the refusal a
    coach should read, or None when the result stands."""
    is_draw = winner == "draw"
    faults = [
        (is_draw and difference > 0, "A draw ends level"),
        (not is_draw and difference == 0 and not sudden_death, "a difference of 0 is a draw"),
        (is_draw and not sudden_death, "A draw needs Sudden Death"),
        (sudden_death and rush in range(1, 15), "Sudden Death starts after Rush 14"),
        (not sudden_death and rush >= 15, f"one that ended in Rush {rush} went to Sudden Death"),
        (rush < 14 and difference < 7, f"A game that ended in Rush {rush} must have been a landslide: a difference of 7"),
        (sudden_death and difference in (5, 6, 7), "won by 1 to 4"),
    ]
    return next((phrase for fault, phrase in faults if fault), None)


COMBINATIONS = list(itertools.product(("home", "away", "draw"), range(8), range(1, 17), (False, True)))


def test_the_combinations_cover_both_answers():
    answers = [decision(*combo) for combo in COMBINATIONS]
    assert len(COMBINATIONS) == 3 * 8 * 16 * 2
    # Landslides in Rush 1-14 (both sides), wins by 1-6 in Rush 14, Sudden Death
    # wins by 1-4 in Rush 15-16, Sudden Death wins with the score level in Rush
    # 15-16 (DR-3 Decision: only one team can still throw), draws in Rush 15-16.
    assert sum(a is None for a in answers) == 2 * 14 + 2 * 6 + 2 * 4 * 2 + 2 * 2 + 2


@pytest.mark.parametrize(
    "winner, difference, rush, sudden_death", COMBINATIONS, ids=lambda v: str(v)
)
def test_dr3_decision(winner, difference, rush, sudden_death):
    rules = DreadBallRules(DreadBallSettings())
    facts = {"winner": winner, "difference": difference, "rush": rush, "sudden_death": sudden_death}
    expected = decision(winner, difference, rush, sudden_death)
    if expected is None:
        verdict = rules.validate(facts)
        assert verdict.outcome == winner
        assert (verdict.home_score, verdict.away_score) == (None, None)
        assert dict(verdict.details) == {
            "difference": difference, "landslide": difference == 7, "rush": rush, "sudden_death": sudden_death,
        }
    else:
        with pytest.raises(ValidationError) as refused:
            rules.validate(facts)
        assert expected in " ".join(refused.value.messages)


def test_rush_9_with_a_small_difference_says_it_must_be_a_landslide():
    with pytest.raises(ValidationError, match="A game that ended in Rush 9 must have been a landslide: a difference of 7"):
        DreadBallRules().validate({"winner": "home", "difference": 5, "rush": 9, "sudden_death": False})


@pytest.mark.parametrize(
    "facts, message",
    [
        ({"winner": "home", "difference": 8, "rush": 14}, "The difference is 0 to 7"),
        ({"winner": "home", "difference": 2, "rush": 0}, "The Rush is 1 to 30"),
        ({"winner": "home", "difference": 2, "rush": 31, "sudden_death": True}, "The Rush is 1 to 30"),
        ({"winner": "nobody", "difference": 2, "rush": 14}, "Choose who won"),
        ({"winner": "home", "difference": None, "rush": 14}, "Give the result, the final score difference"),
    ],
)
def test_out_of_bounds_facts_are_refused_by_the_service_rules(facts, message):
    with pytest.raises(ValidationError, match=message):
        DreadBallRules().validate(facts)


def test_abandoned_needs_no_facts_and_keeps_none():
    verdict = DreadBallRules().validate({"winner": None, "difference": None, "rush": None}, abandoned=True)
    assert verdict.outcome == "abandoned" and dict(verdict.details) == {}
    assert DreadBallRules().summary(verdict) == "abandoned"


@pytest.mark.parametrize(
    "facts, summary",
    [
        (("home", 7, 9, False), "7–0, landslide"),
        (("away", 7, 14, False), "0–7, landslide"),
        (("home", 2, 14, False), "2–0"),
        (("away", 3, 16, True), "0–3, Sudden Death"),
        (("draw", 0, 16, True), "0–0, Sudden Death"),
        (("home", 0, 15, True), "0–0, Sudden Death win"),
        (("away", 0, 17, True), "0–0, Sudden Death win"),
    ],
)
def test_summary_shows_the_difference_on_the_winner_s_side(facts, summary):
    rules = DreadBallRules()
    winner, difference, rush, sudden_death = facts
    verdict = rules.validate({"winner": winner, "difference": difference, "rush": rush, "sudden_death": sudden_death})
    assert rules.summary(verdict) == summary


def _played(outcome, difference=0, landslide=False):
    details = {"difference": difference, "landslide": landslide} if outcome != "abandoned" else {"difference": None, "landslide": None}
    return PlayedResult(1, 1, 2, None, None, outcome, details=details)


@pytest.mark.parametrize(
    "result, home, away",
    [
        (_played("home", 7, True), (3, {"strike_diff": 7, "landslides": 1}), (0, {"strike_diff": -7, "landslides": 0})),
        (_played("away", 3), (0, {"strike_diff": -3, "landslides": 0}), (2, {"strike_diff": 3, "landslides": 0})),
        (_played("draw"), (1, {"strike_diff": 0, "landslides": 0}), (1, {"strike_diff": 0, "landslides": 0})),
        (_played("abandoned"), (0, {"strike_diff": 0, "landslides": 0}), (0, {"strike_diff": 0, "landslides": 0})),
    ],
)
def test_dr4_default_points_and_stats(result, home, away):
    rules = DreadBallRules(DreadBallSettings())
    for side, (points, stats) in (("home", home), ("away", away)):
        assert rules.league_points(result, side) == points
        assert rules.side_stats(result, side) == stats


def test_dr4_points_come_from_the_league_settings():
    rules = DreadBallRules(DreadBallSettings(landslide_win=5, win=4, draw=2, loss=1))
    assert [rules.league_points(_played("home", 7, True), side) for side in ("home", "away")] == [5, 1]
    assert [rules.league_points(_played("away", 2), side) for side in ("home", "away")] == [1, 4]
    assert [rules.league_points(_played("draw"), side) for side in ("home", "away")] == [2, 2]
    # Abandoned: a loss for both (DR-4 settings' loss value).
    assert [rules.league_points(_played("abandoned"), side) for side in ("home", "away")] == [1, 1]


def test_dr3_a_sudden_death_win_with_the_score_level_is_a_win_worth_no_strike_difference():
    """DR-3 Decision (seed, Sudden Death): won level when only one team can still
    throw: a win for League Points (DR-4), 0 Strike Difference, not a landslide."""
    rules = DreadBallRules(DreadBallSettings())
    verdict = rules.validate({"winner": "away", "difference": 0, "rush": 15, "sudden_death": True})
    assert verdict.outcome == "away" and verdict.details["landslide"] is False
    result = _played("away", 0)
    assert [rules.league_points(result, side) for side in ("home", "away")] == [0, 2]
    assert rules.side_stats(result, "away") == {"strike_diff": 0, "landslides": 0}
    with pytest.raises(ValidationError, match="a difference of 0 is a draw, or a Sudden Death win"):
        rules.validate({"winner": "away", "difference": 0, "rush": 14, "sudden_death": False})
