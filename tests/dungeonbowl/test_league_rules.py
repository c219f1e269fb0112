"""DungeonBowlRules on plain values (DB-4, DB-5, DB-5a): validation, League points,
standings figures, summaries. No database."""

import pytest
from django.core.exceptions import ValidationError

from league.dungeonbowl.models import DungeonBowlSettings
from league.rules import GAMES
from league.rules.base import PlayedResult
from league.dungeonbowl.rules import DungeonBowlRules


def facts(home=1, away=0, ending="touchdown", **extra):
    return {"home_score": home, "away_score": away, "ending": ending, "home_gather": 0, "away_gather": 0,
            "home_journeymen": 0, "away_journeymen": 0, "dice": None, "names": {"home": "Axes", "away": "Shades"}, **extra}


def line(player, **kwargs):
    return {"player": player, "touchdowns": 0, "completions": 0, "deflections": 0, "interceptions": 0,
            "casualties": 0, "mvp": False, "injury": "", "lasting": "", **kwargs}


rules = DungeonBowlRules(DungeonBowlSettings())


def test_registered_with_the_engine():
    assert GAMES["dungeonbowl"] is DungeonBowlRules
    assert DungeonBowlRules.feed_columns == (
        "position", "tied", "team", "coach", "played", "won", "drawn", "lost", "lp", "td_for", "td_against", "cas_for")
    assert DungeonBowlRules.tiebreakers == ("td_for", "cas_for")


@pytest.mark.parametrize(
    "home, away, ending, outcome, score, conceded",
    [
        (1, 0, "touchdown", "home", (1, 0), False),
        (0, 1, "touchdown", "away", (0, 1), False),
        (0, 0, "home_closer", "home", (0, 0), False),
        (0, 0, "away_closer", "away", (0, 0), False),
        (0, 0, "draw", "draw", (0, 0), False),
        (0, 0, "home_conceded", "away", (0, 1), True),
        (1, 0, "away_conceded", "home", (1, 0), True),
    ],
)
def test_how_a_game_ends(home, away, ending, outcome, score, conceded):
    verdict = rules.validate(facts(home, away, ending))
    assert (verdict.outcome, (verdict.home_score, verdict.away_score), verdict.conceded) == (outcome, score, conceded)


@pytest.mark.parametrize(
    "home, away, ending, message",
    [
        (2, 0, "touchdown", "1–0, not 2–0"),
        (0, 0, "touchdown", "1–0, not 0–0"),
        (1, 0, "draw", "enter 0–0"),
        (1, 0, "home_conceded", "1–0 win for Shades"),
        (0, 0, "unplayed", "Say how the game ended"),
    ],
)
def test_impossible_scores_are_refused_in_words(home, away, ending, message):
    with pytest.raises(ValidationError) as error:
        rules.validate(facts(home, away, ending))
    assert message in error.value.messages[0]


def test_player_lines_must_add_up_and_name_one_mvp():
    ok = rules.validate(facts(players={"home": [line(1, touchdowns=1, casualties=2), line(2, casualties=1)], "away": [line(3)]}))
    assert ok.details["cas"] == {"home": 3, "away": 0}
    with pytest.raises(ValidationError, match="Axes scored 1 touchdown but its players' touchdowns add up to 0"):
        rules.validate(facts(players={"home": [line(1)], "away": []}))
    with pytest.raises(ValidationError, match="2 MVPs"):
        rules.validate(facts(players={"home": [line(1, touchdowns=1, mvp=True), line(2, mvp=True)]}))
    with pytest.raises(ValidationError, match="which characteristic"):
        rules.validate(facts(players={"home": [line(1, touchdowns=1, injury="lasting_injury")]}))
    with pytest.raises(ValidationError, match="only a Lasting Injury"):
        rules.validate(facts(players={"home": [line(1, touchdowns=1, injury="dead", lasting="st")]}))


def test_unplayed_is_a_loss_for_both_with_nothing():
    verdict = rules.validate({}, abandoned=True)
    assert (verdict.outcome, verdict.home_score, verdict.away_score) == ("abandoned", 0, 0)
    played = PlayedResult(1, 1, 2, 0, 0, "abandoned", details={"home_cas": 4, "away_cas": 0})
    assert rules.league_points(played, "home") == rules.league_points(played, "away") == 0
    assert rules.side_stats(played, "home") == {}
    assert rules.summary(verdict) == "Unplayed"


def test_league_points_and_the_casualty_bonus():
    played = PlayedResult(1, 1, 2, 0, 1, "away", conceded=True, details={"home_cas": 3, "away_cas": 2})
    plain = DungeonBowlRules(DungeonBowlSettings(casualty_bonus=False))
    bonus = DungeonBowlRules(DungeonBowlSettings(casualty_bonus=True))
    assert (plain.league_points(played, "home"), plain.league_points(played, "away")) == (0, 3)
    # DB-5a Decision: casualties caused before the concession still count.
    assert (bonus.league_points(played, "home"), bonus.league_points(played, "away")) == (1, 3)
    assert bonus.side_stats(played, "home") == {"td_for": 0, "td_against": 1, "cas_for": 3}
    draw = PlayedResult(1, 1, 2, 0, 0, "draw", details={})
    assert plain.league_points(draw, "home") == 1 and plain.side_stats(draw, "away")["cas_for"] == 0


def test_summaries():
    assert rules.summary(rules.validate(facts(0, 0, "home_conceded"))) == "0 – 1, conceded"
    assert rules.summary(rules.validate(facts(0, 0, "away_closer"))) == "0 – 0, on distance"
    assert rules.summary(rules.validate(facts(0, 0, "draw"))) == "0 – 0, draw"
