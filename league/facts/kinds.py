"""The engine's kinds of fact, plain strings: what a write says happened. A game or
a layer declares its own from its ``ready()`` (``registry.declare``).

A step of a match's result is kept as the fixture's history row
(``ResultEvent``): its kind is ``STEPS[action]``, and that row is the fact. Every
other kind is kept as a ``Fact`` row (league/facts/models.py).
"""

from __future__ import annotations

# Steps of a match's result (GB-8 and every game's workflow): the history row is the fact.
RESULT_REPORTED = "result.reported"
RESULT_CHANGED = "result.changed"
RESULT_TAKEN_BACK = "result.taken_back"
RESULT_CONFIRMED = "result.confirmed"
RESULT_DISPUTED = "result.disputed"
RESULT_APPROVED = "result.approved"
RESULT_ENTERED = "result.entered"
RESULT_CORRECTED = "result.corrected"
RESULT_ABANDONED = "result.abandoned"
RESULT_REOPENED = "result.reopened"
FIXTURE_REARRANGED = "fixture.rearranged"

# ResultEvent.Action's values, each to its kind.
STEPS: dict[str, str] = {
    "reported": RESULT_REPORTED,
    "changed": RESULT_CHANGED,
    "taken_back": RESULT_TAKEN_BACK,
    "confirmed": RESULT_CONFIRMED,
    "disputed": RESULT_DISPUTED,
    "approved": RESULT_APPROVED,
    "entered": RESULT_ENTERED,
    "corrected": RESULT_CORRECTED,
    "abandoned": RESULT_ABANDONED,
    "reopened": RESULT_REOPENED,
    "rearranged": FIXTURE_REARRANGED,
}

# Writes with no history row of their own: each is one Fact row.
RESULTS_IMPORTED = "results.imported"
LEAGUE_IMPORTED = "league.imported"
DEMO_LOADED = "demo.loaded"
ENTRANT_JOINED = "entrant.joined"
ENTRANTS_CARRIED_OVER = "entrants.carried_over"
ENTRANT_WITHDREW = "entrant.withdrew"
JOIN_ASKED = "join.asked"
CLAIM_ASKED = "claim.asked"
JOIN_DECIDED = "join.decided"
COACH_CLAIMED = "coach.claimed"
MERGE_ASKED = "merge.asked"
COACHES_MERGED = "coaches.merged"
SETTINGS_CHANGED = "settings.changed"
WEBHOOKS_TESTED = "webhooks.tested"

ENGINE: dict[str, str] = {
    RESULT_REPORTED: "A coach reports a result",
    RESULT_CHANGED: "The reporting coach changes their report",
    RESULT_TAKEN_BACK: "The reporting coach takes their report back",
    RESULT_CONFIRMED: "The opponent confirms a report",
    RESULT_DISPUTED: "The opponent disputes a report",
    RESULT_APPROVED: "The organiser approves a result",
    RESULT_ENTERED: "The organiser enters a result",
    RESULT_CORRECTED: "The organiser corrects an approved result",
    RESULT_ABANDONED: "The organiser records a match as abandoned",
    RESULT_REOPENED: "The organiser reopens an approved result",
    FIXTURE_REARRANGED: "The organiser rearranges a fixture",
    RESULTS_IMPORTED: "A season's results are imported at once",
    LEAGUE_IMPORTED: "A whole league is imported from its file",
    DEMO_LOADED: "The demo leagues are loaded (quickstart)",
    ENTRANT_JOINED: "An entrant joins a season",
    ENTRANTS_CARRIED_OVER: "A next season opens with the last one's entrants",
    ENTRANT_WITHDREW: "An entrant withdraws from a season",
    JOIN_ASKED: "Someone asks to join a season through a join link",
    CLAIM_ASKED: "Someone says they are one of a season's coaches",
    JOIN_DECIDED: "The organiser answers a join request or a claim",
    COACH_CLAIMED: "An account takes a coach's place",
    MERGE_ASKED: "An organiser asks an account holder to merge two coaches",
    COACHES_MERGED: "Two coaches become one",
    SETTINGS_CHANGED: "The organiser changes the league's settings",
    WEBHOOKS_TESTED: "The organiser sends a test message to the league's webhooks",
}
