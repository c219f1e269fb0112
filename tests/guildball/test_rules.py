"""GB-6, GB-7, GB-8: Guild Ball result validation and League Points."""

import pytest
from django.core.exceptions import ValidationError

from league.guildball.models import GuildBallSettings
from league.rules.base import PlayedResult
from league.guildball.rules import GuildBallRules

RULES = GuildBallRules(GuildBallSettings(vp_target=12))
QUICK = GuildBallRules(GuildBallSettings(vp_target=6))


@pytest.mark.parametrize(
    ("home", "away", "outcome"), [(12, 0, "home"), (11, 12, "away"), (15, 14, "home"), (16, 2, "home"), (0, 12, "away")]
)
def test_valid_scores(home, away, outcome):
    assert RULES.validate_score(home_score=home, away_score=away) == outcome


@pytest.mark.parametrize(
    ("home", "away", "message"),
    [
        (10, 10, "no draws"),
        (12, 12, "no draws"),
        (11, 8, "must reach 12 VP"),
        (17, 4, "above 16 VP"),
        (-1, 12, "negative"),
    ],
)
def test_rejected_scores(home, away, message):
    with pytest.raises(ValidationError, match=message):
        RULES.validate_score(home_score=home, away_score=away)


def test_quick_game_target_is_a_league_setting():
    assert QUICK.validate_score(home_score=6, away_score=4) == "home"
    with pytest.raises(ValidationError, match="above 10 VP"):
        QUICK.validate_score(home_score=11, away_score=4)


def test_override_lifts_target_but_not_no_draws():
    assert RULES.validate_score(home_score=9, away_score=3, override=True) == "home"
    with pytest.raises(ValidationError, match="no draws"):
        RULES.validate_score(home_score=3, away_score=3, override=True)


def test_abandoned_keeps_scores_and_both_lose():
    assert RULES.validate_abandoned(home_score=0, away_score=0) == "abandoned"
    assert RULES.validate_abandoned(home_score=7, away_score=7) == "abandoned"
    abandoned = PlayedResult(1, 1, 2, 7, 5, "abandoned")
    assert RULES.league_points(abandoned, "home") == 0
    assert RULES.league_points(abandoned, "away") == 0
    assert RULES.side_stats(abandoned, "home") == {"vp_for": 0, "vp_against": 0, "vp_diff": 0}  # GB-6 Decision: VP for information only


def test_league_points_gb7():
    home_win = PlayedResult(1, 1, 2, 12, 4, "home")
    away_win = PlayedResult(1, 1, 2, 4, 12, "away")
    assert RULES.league_points(home_win, "home") == 3
    assert RULES.league_points(home_win, "away") == 0
    assert RULES.league_points(away_win, "away") == 3
