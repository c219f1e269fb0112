"""Round-robin fixture generation by the circle method (GB-4, GB-5). Pure functions.

``round_robin`` pairs any hashable participants; ``None`` in a pair is a bye.
"""

from __future__ import annotations

import datetime
import random
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

Pairing = tuple[T, "T | None"]


def round_robin(
    participants: Sequence[T], *, double: bool = False, seed: int | None = None
) -> list[list[tuple[T, T | None]]]:
    """Rounds of (home, away) pairs in which every pair meets once per cycle.

    GB-4: single round robin by default, a second cycle with home and away swapped
    when ``double``; with an odd number one participant has a bye each round
    (returned as ``(participant, None)``). The participants are shuffled with
    ``seed`` first, so the same seed gives the same schedule. Home and away are
    balanced: over one cycle nobody is at home more than once more than away.
    """
    if len(participants) < 2:
        raise ValueError("A round robin needs at least two participants.")
    if len(set(participants)) != len(participants):
        raise ValueError("Each participant may appear only once.")
    order: list[T | None] = list(participants)
    random.Random(seed).shuffle(order)
    if len(order) % 2:
        # The bye takes the fixed seat, so the real participants all rotate and
        # the alternation below balances them.
        order.insert(0, None)
    n = len(order)
    fixed, rotating = order[0], order[1:]
    rounds: list[list[tuple[T, T | None]]] = []
    for r in range(n - 1):
        line = [fixed, *rotating]
        pairs: list[tuple[T, T | None]] = []
        for i in range(n // 2):
            a, b = line[i], line[n - 1 - i]
            # Berger tables: the fixed seat alternates each round, the others by
            # position, which keeps everyone's home and away counts within one.
            home_first = (r % 2 == 0) if i == 0 else (i % 2 == 1)
            if not home_first:
                a, b = b, a
            pairs.append(_bye_last(a, b))
        rounds.append(pairs)
        rotating = rotating[-1:] + rotating[:-1]
    if double:
        rounds += [[(b, a) if b is not None else (a, b) for a, b in pairs] for pairs in rounds]
    return rounds


def _bye_last(a, b):
    """A bye is always written (participant, None)."""
    return (b, None) if a is None else (a, b)


def round_dates(start: datetime.date, count: int, cadence_days: int = 7) -> list[datetime.date]:
    """GB-5: one round every ``cadence_days`` from the season's start date."""
    return [start + datetime.timedelta(days=cadence_days * i) for i in range(count)]


# Divisions (DB-2) ----------------------------------------------------------------

MIN_DIVISIONS = 2
MAX_DIVISIONS = 4
MIN_PER_DIVISION = 4


def division_sizes(entries: int, divisions: int) -> list[int]:
    """DB-2: 2 to 4 divisions, as equal in size as possible (larger ones first),
    never fewer than 4 entries each. Raises ValueError with the reason otherwise, in
    words that cite no game: the caller cites its league's game's rule."""
    if not MIN_DIVISIONS <= divisions <= MAX_DIVISIONS:
        raise ValueError(f"A season has 2 to 4 divisions, not {divisions}.")
    if entries < divisions * MIN_PER_DIVISION:
        raise ValueError(
            f"{divisions} divisions need at least {divisions * MIN_PER_DIVISION} entries "
            f"({MIN_PER_DIVISION} each); this season has {entries}."
        )
    base, extra = divmod(entries, divisions)
    return [base + 1 if i < extra else base for i in range(divisions)]


def check_split(sizes: Sequence[int]) -> None:
    """DB-2 for a split someone chose (the organiser's own, an import's): 2 to 4
    divisions of at least 4 entries whose sizes differ by at most one (the
    Decision on "as equal as possible"). Raises ValueError with the reason."""
    division_sizes(sum(sizes), len(sizes))
    if min(sizes) < MIN_PER_DIVISION:
        raise ValueError(f"A division needs at least {MIN_PER_DIVISION} entries.")
    if max(sizes) - min(sizes) > 1:
        expected = "/".join(map(str, division_sizes(sum(sizes), len(sizes))))
        raise ValueError(
            f"Divisions are as equal in size as possible: {sum(sizes)} entries in {len(sizes)} divisions "
            f"split {expected}, not {'/'.join(map(str, sorted(sizes, reverse=True)))}."
        )


def draw_divisions(participants: Sequence[T], divisions: int, *, seed: int) -> list[list[T]]:
    """DB-2's traditional split: a seeded random draw into ``division_sizes``."""
    sizes = division_sizes(len(participants), divisions)
    order = list(participants)
    random.Random(seed).shuffle(order)
    groups, start = [], 0
    for size in sizes:
        groups.append(order[start : start + size])
        start += size
    return groups


def merge_rounds(schedules: Sequence[list[list[tuple[T, T | None]]]]) -> list[list[tuple[T, T | None]]]:
    """Play every division's round robin side by side: round k of the season holds
    round k of each division (a smaller division finishes earlier)."""
    merged: list[list[tuple[T, T | None]]] = []
    for schedule in schedules:
        for index, pairs in enumerate(schedule):
            if index == len(merged):
                merged.append([])
            merged[index] += pairs
    return merged
