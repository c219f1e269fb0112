"""The league engine's rows, one module per part, every public name importable
from here:

- ``coaches``: a coach, one row per person across every league;
- ``leagues``: leagues, seasons, divisions, entries, rounds, fixtures, results and
  their history; nothing game-specific;
- ``joining``: join links, join requests and merge requests (how people come into
  a season and become one);
- ``accounts``: what is kept per account (notification kinds turned off, result
  forms' submission keys).

The modules import ``coaches`` and ``leagues`` and never this package, so nothing
imports back.
"""

from __future__ import annotations

from league.models.coaches import Coach
from league.models.leagues import (
    MAX_CADENCE_DAYS,
    MAX_SCORE,
    Division,
    Entry,
    Fixture,
    FixtureQuerySet,
    League,
    LeagueQuerySet,
    Result,
    ResultEvent,
    Round,
    Season,
    game_choices,  # named by migration 0002
)
from league.models.joining import (
    DEFAULT_JOIN_SIGNUPS_PER_HOUR,
    MAX_JOIN_SIGNUPS_PER_HOUR,
    MAX_JOIN_USES,
    JoinLink,
    JoinRequest,
    MergeRequest,
)
from league.models.accounts import IdempotencyKey, NotificationPreference

# The log-in sessions' table lives beside its engine (league/sessions.py), the
# log-in limits' counts beside the limits (league/throttle.py); imported
# here so that they are the app's models.
from league.sessions import Session  # noqa: E402
from league.throttle import Throttle  # noqa: E402

__all__ = [
    "MAX_CADENCE_DAYS", "MAX_SCORE", "DEFAULT_JOIN_SIGNUPS_PER_HOUR", "MAX_JOIN_SIGNUPS_PER_HOUR", "MAX_JOIN_USES",
    "Coach", "Division", "Entry", "Fixture", "FixtureQuerySet", "League", "LeagueQuerySet", "Result", "ResultEvent",
    "Round", "Season", "JoinLink", "JoinRequest", "MergeRequest", "IdempotencyKey", "NotificationPreference",
    "Session", "Throttle", "game_choices",
]
