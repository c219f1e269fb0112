"""Dungeon Bowl's play-off season (RULES.md DB-5b, DB-14, DB-16) as plain functions
over plain values: who plays the semi-finals, how a tie at a qualifying place is
settled, and the prizes. No ORM: ``league.dungeonbowl.playoffs.services`` feeds these from
the final standings and stores what they return.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import groupby

# DB-14: prizes by placing (1st, 2nd, 3rd), on top of the post-game winnings.
PRIZES: Mapping[int, int] = {1: 100_000, 2: 60_000, 3: 30_000}
PLACING_NAMES: Mapping[int, str] = {1: "champion", 2: "runner-up", 3: "third"}
# DB-5b: how many teams of each division the play-offs take, by number of divisions.
QUALIFIERS: Mapping[int, int] = {1: 4, 2: 2, 3: 2, 4: 1}
# DB-5b in words for a season's number of divisions (none is one): a page
# describes the format that season plays, never all four.
FORMATS: Mapping[int, str] = {
    1: "the top 4 play semi-finals (1st v 4th, 2nd v 3rd)",
    2: "the top 2 of each division play semi-finals (1st of one v 2nd of the other)",
    3: "the three division winners and the best second-placed team play semi-finals",
    4: "the four division winners play semi-finals",
}


def format_for(divisions: int) -> str:
    """DB-5b's format for a season of ``divisions`` divisions (0: none, as one)."""
    return FORMATS.get(max(1, divisions), "")


@dataclass(frozen=True)
class Standing:
    """A team's row in its division's final standings; ``key`` is the ordering
    (League points, touchdowns, SPP casualties), higher is better."""

    team: str
    key: tuple[int, ...]


@dataclass(frozen=True)
class SeedingTie:
    where: str  # "North" or "division winners" / "second-placed teams"
    places: tuple[int, ...]
    teams: tuple[str, ...]


@dataclass(frozen=True)
class Seeding:
    semi_finals: tuple[tuple[str, str], tuple[str, str]] | None
    ties: tuple[SeedingTie, ...] = field(default=())


Group = list[Standing]


def _groups(rows: Sequence[Standing], settled: Sequence[Sequence[str]]) -> list[Group]:
    """Rows best first, in groups of equal keys. A group one of the ``settled``
    orders covers (the latest that names all its teams) is split in that order: the
    commissioner's settlement breaks exactly that tie, nothing else (DB-5b)."""
    ordered = sorted(rows, key=lambda r: r.key, reverse=True)
    out: list[Group] = []
    for _, group in groupby(ordered, key=lambda r: r.key):
        group = list(group)
        names = {r.team for r in group}
        order = next((list(s) for s in reversed(settled) if len(group) > 1 and names <= set(s)), None)
        if order is None:
            out.append(group)
        else:
            out += [[r] for r in sorted(group, key=lambda r: order.index(r.team))]
    return out


def _flat(groups: Sequence[Group]) -> list[Standing]:
    return [row for group in groups for row in group]


def _ties(where: str, groups: Sequence[Group], roles: Sequence[str]) -> list[SeedingTie]:
    """Groups of tied rows whose order decides something: they straddle the cut
    (``len(roles)`` places qualify) or hold places with different roles."""
    found = []
    place = 1
    for group in groups:
        places = range(place, place + len(group))
        if len(group) > 1 and len({roles[p - 1] if p <= len(roles) else "out" for p in places}) > 1:
            found.append(SeedingTie(where, tuple(places), tuple(r.team for r in group)))
        place += len(group)
    return found


def playoff_seeding(divisions: Mapping[str, Sequence[Standing]], settled: Sequence[Sequence[str]] = ()) -> Seeding:
    """DB-5b: the two semi-finals, or the ties the commissioner must settle first.

    One division: 1st v 4th, 2nd v 3rd. Two: 1st of each v 2nd of the other.
    Three: the division winners and the best second-placed team; the best winner
    plays that team, the other two winners meet. Four: the four winners, best v
    worst. Winners and seconds of different divisions are compared by their keys.
    ``settled`` holds the orders the commissioner gave to ties (each best first);
    one breaks a group of equal keys only when it names every team of the group,
    so settling who is second of a division decides nothing among the
    second-placed teams of other divisions.
    """
    count = len(divisions)
    needed = QUALIFIERS.get(count)
    if needed is None:
        raise ValueError(f"Play-offs are for 1 to 4 divisions, not {count}.")
    for name, rows in divisions.items():
        if len(rows) < needed:
            raise ValueError(f"{name} has {len(rows)} teams; the play-offs need its top {needed}.")
    roles = {1: "ABBC", 2: "AB", 3: "AB", 4: "A"}[count]
    groups = {name: _groups(rows, settled) for name, rows in divisions.items()}
    ties = [tie for name, division in groups.items() for tie in _ties(name, division, roles)]
    tables = {name: _flat(division) for name, division in groups.items()}
    names = list(tables)
    if count == 1:
        order = [r.team for r in tables[names[0]]]
        pairs = ((order[0], order[3]), (order[1], order[2]))
    elif count == 2:
        a, b = tables[names[0]], tables[names[1]]
        pairs = ((a[0].team, b[1].team), (b[0].team, a[1].team))
    else:
        winners = _groups([rows[0] for rows in tables.values()], settled)
        if count == 3:
            seconds = _groups([rows[1] for rows in tables.values()], settled)
            ties += _ties("second-placed teams", seconds, "A")
            ties += _ties("division winners", winners, "ABB")
            best = _flat(winners)
            pairs = ((best[0].team, _flat(seconds)[0].team), (best[1].team, best[2].team))
        else:
            ties += _ties("division winners", winners, "ABBC")
            best = _flat(winners)
            pairs = ((best[0].team, best[3].team), (best[1].team, best[2].team))
    if ties:
        return Seeding(None, tuple(ties))
    return Seeding(pairs)


def order_by_rolls(teams: Sequence[str], rolls: Sequence[int]) -> list[str] | None:
    """DB-16: a tie settled by a roll, a D6 per team in ``teams`` order; the highest
    goes ahead. None when two teams rolled the same (roll again)."""
    if len(rolls) != len(teams):
        raise ValueError(f"Roll one D6 per team: {len(teams)}, not {len(rolls)}.")
    for roll in rolls:
        if isinstance(roll, bool) or not isinstance(roll, int) or not 1 <= roll <= 6:
            raise ValueError(f"A D6 roll is a whole number from 1 to 6, not {roll!r}.")
    if len(set(rolls)) != len(rolls):
        return None
    return [team for _, team in sorted(zip(rolls, teams), key=lambda pair: -pair[0])]


@dataclass(frozen=True)
class Placings:
    champion: str
    runner_up: str
    third: str

    def prizes(self) -> list[tuple[int, str, int]]:
        """DB-14: (placing, team, gp) for 1st, 2nd and 3rd."""
        return [(1, self.champion, PRIZES[1]), (2, self.runner_up, PRIZES[2]), (3, self.third, PRIZES[3])]


def placings(final: tuple[str, str], final_winner: str, third_place: tuple[str, str], third_winner: str) -> Placings:
    """DB-14: the final's winner is champion, its loser runner-up; the winner of the
    match for third place is third."""
    if final_winner not in final or third_winner not in third_place:
        raise ValueError("A winner is one of the two teams of its match.")
    if set(final) & set(third_place):
        raise ValueError("No team plays both the final and the match for third place.")
    loser = final[1] if final_winner == final[0] else final[0]
    return Placings(final_winner, loser, third_winner)
