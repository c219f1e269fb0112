"""Dungeon Bowl teams (RULES.md DB-6 to DB-8) as plain functions over plain values:
the college roster, checking a draft against its budget and limits, and Team Value.

No ORM here: the services feed these from the database and store what they return,
so every number a coach sees can be checked by hand against a test. Gold is an
``int`` in gold pieces.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from league.dungeonbowl.units import gp

MIN_TEAMS = 4  # DB-1: a league (and so every season) has at least 4 teams

# Drafts (DB-6, DB-7) ---------------------------------------------------------------

MAX_PLAYERS = 16  # DB-6
MAX_REROLLS = 8  # DB-6
DEFAULT_DRAFT_BUDGET = 1_000_000  # DB-6, a league setting
DEFAULT_REROLL_COST = 50_000  # DB-6; the seed prices both colleges' re-rolls at this


@dataclass(frozen=True)
class RosterPosition:
    name: str
    cost: int
    group: str  # "Linemen", "Special": positions of a group share its limit
    group_max: int


@dataclass(frozen=True)
class Roster:
    """A college's roster (DB-7)."""

    college: str
    positions: tuple[RosterPosition, ...]
    reroll_cost: int = DEFAULT_REROLL_COST

    def position(self, name: str) -> RosterPosition | None:
        return next((p for p in self.positions if p.name == name), None)

    def groups(self) -> dict[str, tuple[int, list[str]]]:
        """group -> (max, position names), in roster order."""
        out: dict[str, tuple[int, list[str]]] = {}
        for p in self.positions:
            out.setdefault(p.group, (p.group_max, []))[1].append(p.name)
        return out


@dataclass(frozen=True)
class Pick:
    """One line of a draft list. ``cost`` overrides the roster price: a returning
    player re-hired at current value plus the fee (DB-15)."""

    position: str
    cost: int | None = None
    label: str = ""


@dataclass(frozen=True)
class Limit:
    """One limit of the draft and how much of it the draft uses."""

    label: str  # "0-2 Special: Troll Slayer and Chaos Dwarf Flamesmith together"
    used: int
    maximum: int
    key: str = ""  # what the limit counts: "players", "rerolls" or "group:<group>" (the draft page's live counts)

    @property
    def reached(self) -> bool:
        return self.used >= self.maximum

    @property
    def over(self) -> int:
        return max(0, self.used - self.maximum)


@dataclass(frozen=True)
class DraftCheck:
    players_cost: int
    rerolls_cost: int
    budget: int
    players: int
    rerolls: int
    limits: tuple[Limit, ...]
    refusals: tuple[str, ...]

    @property
    def cost(self) -> int:
        return self.players_cost + self.rerolls_cost

    @property
    def remaining(self) -> int:
        """Negative when over budget."""
        return self.budget - self.cost

    @property
    def over_budget(self) -> int:
        """How far over budget the draft is (0 within it)."""
        return max(0, -self.remaining)

    @property
    def ok(self) -> bool:
        return not self.refusals

    @property
    def treasury(self) -> int:
        """DB-6 Decision: what the draft leaves unspent opens the Treasury."""
        if not self.ok:
            raise ValueError("A refused draft opens no Treasury.")
        return self.remaining

    @property
    def reached(self) -> tuple[Limit, ...]:
        return tuple(limit for limit in self.limits if limit.reached)


class DraftRefused(ValueError):
    def __init__(self, check: DraftCheck):
        self.check = check
        super().__init__(" ".join(check.refusals))


def _names(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def limit_label(maximum: int, group: str, names: Sequence[str]) -> str:
    """DB-6: a roster line's limit as a roster shows it beside a position: "0-16
    Linemen", or, when positions share it, "0-2 Special: Troll Slayer and Chaos
    Dwarf Flamesmith between them" (3 of one and none of the other is over it)."""
    if len(names) > 1:
        return f"0-{maximum} {group}: {_names(names)} between them"
    return f"0-{maximum} {group}"


def check_draft(roster: Roster, picks: Sequence[str | Pick], rerolls: int, budget: int) -> DraftCheck:
    """DB-6/DB-7: cost, remaining budget, every limit and every reason to refuse.

    A draft is refused over budget, over 16 players, outside 0-8 re-rolls, over a
    group's limit (positions of a group share it: "0-2 Special"), or with a
    position the college does not have. Each refusal says which limit and by how
    much; the caller shows all of them at once.
    """
    refusals: list[str] = []
    if budget < 0:
        refusals.append(f"The budget cannot be negative ({gp(budget)}).")
    lines = [p if isinstance(p, Pick) else Pick(p) for p in picks]
    players_cost = 0
    per_group: Counter[str] = Counter()
    for line in lines:
        position = roster.position(line.position)
        if position is None:
            refusals.append(f"{line.position} is not a position of the {roster.college}.")
            continue
        if line.cost is not None and line.cost < 0:
            refusals.append(f"{line.label or line.position}: a cost cannot be negative.")
            continue
        players_cost += position.cost if line.cost is None else line.cost
        per_group[position.group] += 1

    limits = [Limit(f"Up to {MAX_PLAYERS} players", len(lines), MAX_PLAYERS, "players")]
    for group, (maximum, names) in roster.groups().items():
        together = " together" if len(names) > 1 else ""
        limits.append(Limit(f"0-{maximum} {group}: {_names(names)}{together}", per_group[group], maximum, f"group:{group}"))
    limits.append(Limit(f"0-{MAX_REROLLS} team re-rolls", rerolls, MAX_REROLLS, "rerolls"))
    for limit in limits:
        if limit.over:
            refusals.append(f"{limit.label}, you have {limit.used} ({limit.over} too many).")
    if rerolls < 0:
        refusals.append("Team re-rolls cannot be fewer than 0.")

    rerolls_cost = max(rerolls, 0) * roster.reroll_cost
    check = DraftCheck(players_cost, rerolls_cost, budget, len(lines), rerolls, tuple(limits), ())
    if check.remaining < 0:
        refusals.append(f"Over budget by {gp(-check.remaining)}.")
    return replace(check, refusals=tuple(refusals))


def require_draft(roster: Roster, picks: Sequence[str | Pick], rerolls: int, budget: int) -> DraftCheck:
    """``check_draft`` that raises ``DraftRefused`` (a ``ValueError``) when refused."""
    check = check_draft(roster, picks, rerolls, budget)
    if not check.ok:
        raise DraftRefused(check)
    return check



# Team Value (DB-8, DB-14) -------------------------------------------------------------


@dataclass(frozen=True)
class PlayerValue:
    value: int
    miss_next_game: bool = False


@dataclass(frozen=True)
class TeamValue:
    team_value: int
    current_team_value: int


def team_value(
    players: Iterable[PlayerValue], *, rerolls: int, reroll_cost: int, staff: int = 0, trophy: bool = False
) -> TeamValue:
    """DB-8: players + re-rolls at the college's price + staff; the current value
    leaves out players who miss the next game. DB-14: the Trophy holder's extra
    re-roll counts at the same price though it cost no gold."""
    players = list(players)
    others = (rerolls + (1 if trophy else 0)) * reroll_cost + staff
    total = sum(p.value for p in players)
    missing = sum(p.value for p in players if p.miss_next_game)
    return TeamValue(total + others, total - missing + others)


