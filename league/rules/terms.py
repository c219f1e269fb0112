"""What a result gives each side, declared once and read two ways.

A game declares its League Points and each standings figure as a ``Term``: a
number per side of a result built from conditions (won, drawn, abandoned, a
detail flag) and values (my score, theirs, a detail, a constant). There is one
evaluator, ``value``, and it reads two kinds of input:

- a ``PlayedResult``: one result (the pure rules, tested without the database);
- a ``Summed``: one side's results that agree on everything a condition reads
  (outcome and flags), their values summed by the database (league/standings/sums.py).

A term is linear in its values once its conditions are settled (a constant counts
once per result), so its value on a ``Summed`` is the sum of its values on the
results summed, and the two paths can never disagree.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from league.rules.base import ABANDONED, DRAW, GameRules, PlayedResult, other_side


class Cond:
    def holds(self, result: PlayedResult, side: str) -> bool:
        raise NotImplementedError

    def __and__(self, other: Cond) -> Cond:
        return _And(self, other)

    def __invert__(self) -> Cond:
        return _Not(self)


@dataclass(frozen=True)
class Outcome(Cond):
    """The result's outcome is ``"mine"`` (this side won), ``"theirs"`` (the other
    side won), or one of the outcomes both sides share (draw, abandoned)."""

    which: str

    def _outcome(self, side: str) -> str:
        return {"mine": side, "theirs": other_side(side)}.get(self.which, self.which)

    def holds(self, result: PlayedResult, side: str) -> bool:
        return result.outcome == self._outcome(side)


@dataclass(frozen=True)
class Flag(Cond):
    """A yes/no detail of the game's own (DreadBall's landslide); ``lookup`` is
    where a ``Result`` query finds it."""

    key: str
    lookup: str

    def holds(self, result: PlayedResult, side: str) -> bool:
        return bool(result.details.get(self.key))


@dataclass(frozen=True)
class _And(Cond):
    a: Cond
    b: Cond

    def holds(self, result, side):
        return self.a.holds(result, side) and self.b.holds(result, side)


@dataclass(frozen=True)
class _Not(Cond):
    a: Cond

    def holds(self, result, side):
        return not self.a.holds(result, side)


WON = Outcome("mine")
LOST_TO_OPPONENT = Outcome("theirs")
DRAWN = Outcome(DRAW)
ABANDONED_MATCH = Outcome(ABANDONED)


class Term:
    def value(self, result: PlayedResult | Summed, side: str) -> int:
        raise NotImplementedError

    def __sub__(self, other: Term) -> Term:
        return _Minus(self, other)

    def __neg__(self) -> Term:
        return _Minus(Const(0), self)


@dataclass(frozen=True)
class Const(Term):
    n: int

    def value(self, result, side):
        return self.n * result.count  # once per result


@dataclass(frozen=True)
class Score(Term):
    """A side's score in the game's unit (GB VP), missing as 0."""

    mine: bool = True

    def value(self, result, side):
        return result.score(side if self.mine else other_side(side))


@dataclass(frozen=True)
class Detail(Term):
    """A number of the game's own details, missing as 0; ``lookup`` is where a
    ``Result`` query finds it."""

    key: str
    lookup: str

    def value(self, result, side):
        return int(result.details.get(self.key) or 0)


@dataclass(frozen=True)
class When_(Term):
    """``then`` when ``cond`` holds for the side, else ``otherwise``."""

    cond: Cond
    then: Term
    otherwise: Term = Const(0)

    def value(self, result, side):
        return (self.then if self.cond.holds(result, side) else self.otherwise).value(result, side)


@dataclass(frozen=True)
class _Minus(Term):
    a: Term
    b: Term

    def value(self, result, side):
        return self.a.value(result, side) - self.b.value(result, side)


@dataclass(frozen=True)
class Difference(Term):
    """A figure that is the difference of two others of the same row (GB-9's VP
    difference): summed as those two and subtracted once, not summed itself."""

    a: Term
    b: Term
    of: tuple[str, str]  # the keys of ``a`` and ``b`` in the game's terms

    def value(self, result, side):
        return self.a.value(result, side) - self.b.value(result, side)


@dataclass(frozen=True)
class Summed:
    """``count`` results of one side that agree on their ``outcome`` and on the
    flags in ``details``; their scores (``home_score``, ``away_score``) and the
    numbers in ``details`` are sums. A term's ``value`` on it is its total over
    those results."""

    outcome: str
    count: int
    home_score: int
    away_score: int
    details: Mapping[str, Any]

    def score(self, side: str) -> int:
        return self.home_score if side == "home" else self.away_score


def parts(node: Term | Cond) -> Iterator[Term | Cond]:
    """``node`` and every term and condition it is built from."""
    yield node
    for field in dataclasses.fields(node):
        child = getattr(node, field.name)
        if isinstance(child, (Term, Cond)):
            yield from parts(child)


def when(cond: Cond, then: Term | int, otherwise: Term | int = 0) -> Term:
    return When_(cond, _term(then), _term(otherwise))


def _term(value: Term | int) -> Term:
    return value if isinstance(value, Term) else Const(value)


ONE = Const(1)
# The engine's own columns, the same for every game (GB-6, DB-5a: abandoned is a
# loss for both).
# Every result is exactly one of won, drawn or lost for a side, so the database sums
# the first two and lost is what remains of played.
ENGINE_TERMS: dict[str, Term] = {
    "won": when(WON, 1),
    "drawn": when(DRAWN, 1),
    "lost": when(LOST_TO_OPPONENT, 1, when(ABANDONED_MATCH, 1)),
}
ENGINE_SUMMED = ("won", "drawn")


def sum_keys(rules: GameRules) -> tuple[str, ...]:
    """What is summed: won, drawn, LP and every figure that is not the difference
    of two others."""
    terms = rules.side_terms()
    return (*ENGINE_SUMMED, "lp", *(s.key for s in rules.stats if not isinstance(terms[s.key], Difference)))


def read_parts(terms: list[Term]) -> tuple[list[Flag], list[Detail]]:
    """The game's flags the terms' conditions read and the details they sum."""
    flags: dict[str, Flag] = {}
    details: dict[str, Detail] = {}
    for term in terms:
        for part in parts(term):
            if isinstance(part, Flag):
                flags[part.key] = part
            elif isinstance(part, Detail):
                details[part.key] = part
    assert not flags.keys() & details.keys(), "a detail is either a flag or a number"
    return list(flags.values()), list(details.values())


class Plans:
    """For one kind of group (side, outcome, flags): what each summed value (count,
    home score, away score, each detail) adds to which term, per unit, leaving out
    the zeros. Worked out once per kind by evaluating the terms on unit groups.
    The database's sums (league/standings/sums.py) and the history's round-by-round pass
    (``ranking.adder``) both add results with it."""

    def __init__(self, terms: list[Term], flags: list[Flag], details: list[Detail]):
        self.terms, self.flags, self.details = terms, flags, details
        self.known: dict[tuple, list[tuple[int, int, int]]] = {}

    def __call__(self, side: str, outcome: str, flag_values: tuple) -> list[tuple[int, int, int]]:
        kind = (side, outcome, flag_values)
        plan = self.known.get(kind)
        if plan is None:
            size = 3 + len(self.details)
            flagged = {flag.key: value for flag, value in zip(self.flags, flag_values)}
            plan = []
            for j in range(size):
                unit = [0] * size
                unit[j] = 1
                group = Summed(
                    outcome=outcome, count=unit[0], home_score=unit[1], away_score=unit[2],
                    details={**flagged, **{d.key: unit[3 + i] for i, d in enumerate(self.details)}},
                )
                plan += [(t, j, c) for t, term in enumerate(self.terms) if (c := term.value(group, side))]
            self.known[kind] = plan
        return plan


class Summing:
    """How a game with terms adds results to standings rows, for both the
    database's sums (league/standings/sums.py, a group of results at a time) and the
    history's round-by-round pass (``ranking.adder``, one result at a time): the
    keys summed, the flags and details the terms read, each kind of side's plan,
    and the figures that are the difference of two others (GB-9, DR-4)."""

    def __init__(self, rules: GameRules):
        game_terms = rules.side_terms()
        terms = {**ENGINE_TERMS, **game_terms}
        keys = sum_keys(rules)
        summed = [terms[key] for key in keys]
        self.flags, self.details = read_parts(summed)
        self.plans = Plans(summed, self.flags, self.details)
        self.size = len(summed)
        self.figures = keys[3:]
        self.differences = [(key, term.of) for key, term in game_terms.items() if isinstance(term, Difference)]

    def add(self, row, side: str, outcome: str, flag_values: tuple, values: list[int]) -> None:
        """Add to ``row`` (a ``ranking.StandingRow``) what ``side`` gets from results
        that agree on ``outcome`` and ``flag_values``, whose summed ``values`` are
        (count, home score, away score, each detail)."""
        totals = [0] * self.size
        for t, j, c in self.plans(side, outcome, flag_values):
            totals[t] += c * values[j]
        won, drawn, lp, *figures = totals
        played = values[0]
        row.played += played
        row.won += won
        row.drawn += drawn
        row.lost += played - won - drawn  # every result is one of won, drawn or lost for a side
        row.lp += lp
        for key, value in zip(self.figures, figures):
            row.stats[key] += value

    def settle(self, row) -> None:
        """Work out ``row``'s difference figures (GB-9's VP difference) from the two
        it is the difference of."""
        for key, (a, b) in self.differences:
            row.stats[key] = row.stats[a] - row.stats[b]
