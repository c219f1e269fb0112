"""Longest winning runs, a pure function over each coach's results in order."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class Run:
    coach_id: int
    length: int
    first: int  # the index of the run's first match in the coach's games
    last_key: tuple  # the sort key of its last match (when it ended or stands)


def longest_runs(games: Iterable[tuple[tuple, int, bool]], *, limit: int) -> list[Run]:
    """Each coach's longest run of consecutive wins, longest first (then the
    earlier run, then the coach), at most ``limit``. ``games``: (sort key of the
    match, coach id, whether they won) for every counted match of every coach,
    in any order; a draw or a loss ends a run. A coach with no win has no run."""
    by_coach: dict[int, list[tuple[tuple, bool]]] = {}
    for key, coach_id, won in games:
        by_coach.setdefault(coach_id, []).append((key, won))
    best: list[Run] = []
    for coach_id, lines in by_coach.items():
        lines.sort(key=lambda line: line[0])
        top: Run | None = None
        length = 0
        for index, (key, won) in enumerate(lines):
            length = length + 1 if won else 0
            if length and (top is None or length > top.length):
                top = Run(coach_id, length, index - length + 1, key)
        if top is not None:
            best.append(top)
    best.sort(key=lambda run: (-run.length, run.last_key, run.coach_id))
    return best[:limit]
