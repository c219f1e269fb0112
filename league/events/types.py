"""The kinds of event a subscription chooses from, with the words the organiser
reads. Plain values: the followers of the facts (league/facts/subscriptions.py, a
game's and a layer's own) name them when they emit (league/events/emit.py)."""

from __future__ import annotations

RESULT_REPORTED = "result.reported"
RESULT_CHANGED = "result.changed"
RESULT_TAKEN_BACK = "result.taken_back"
RESULT_CONFIRMED = "result.confirmed"
RESULT_DISPUTED = "result.disputed"
RESULT_APPROVED = "result.approved"
RESULT_CORRECTED = "result.corrected"
FIXTURE_REARRANGED = "fixture.rearranged"
ENTRANT_JOINED = "entrant.joined"
ENTRANT_WITHDREW = "entrant.withdrew"
STANDINGS_CHANGED = "standings.changed"
MOMENT_REACHED = "moment.reached"
PLAYOFFS_SEEDED = "playoffs.seeded"
SEASON_OVER = "season.over"

# In the order the page lists them.
CHOICES: list[tuple[str, str]] = [
    (RESULT_REPORTED, "A result is reported"),
    (RESULT_CHANGED, "A reported result is changed by its coach before the opponent answers"),
    (RESULT_TAKEN_BACK, "A reported result is taken back by its coach before the opponent answers"),
    (RESULT_CONFIRMED, "A result is confirmed by the opponent"),
    (RESULT_DISPUTED, "A result is disputed"),
    (RESULT_APPROVED, "A result is approved"),
    (RESULT_CORRECTED, "An approved result is corrected"),
    (FIXTURE_REARRANGED, "A fixture is rearranged"),
    (ENTRANT_JOINED, "An entrant joins a season"),
    (ENTRANT_WITHDREW, "An entrant withdraws"),
    (STANDINGS_CHANGED, "The table changes"),
    (MOMENT_REACHED, "A coach reaches a Moment (The Big League)"),
    (PLAYOFFS_SEEDED, "The play-offs are seeded (Dungeon Bowl)"),
    (SEASON_OVER, "A season is over"),
]
ALL: frozenset[str] = frozenset(name for name, _ in CHOICES)
