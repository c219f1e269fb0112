"""What a result gives each side, declared once and read two ways.

A game declares its League Points and each standings figure as a ``Term``: a
number per side of a result built from conditions (won, drawn, abandoned, a
detail flag) and values (my score, theirs, a detail, a constant). A term is
evaluated in Python on a ``PlayedResult`` (``value``: the pure rules, tested
without the database) and compiled to a SQL expression over ``Result`` rows
(``sql``: the standings' sums in the database), so the two can never disagree.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Case, Expression, F, Q, Value, When
from django.db.models.functions import Coalesce

from league.rules.base import ABANDONED, DRAW, PlayedResult, other_side


class Cond:
    def holds(self, result: PlayedResult, side: str) -> bool:
        raise NotImplementedError

    def sql(self, side: str) -> Q:
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

    def sql(self, side: str) -> Q:
        return Q(outcome=self._outcome(side))


@dataclass(frozen=True)
class Flag(Cond):
    """A yes/no detail of the game's own (DreadBall's landslide)."""

    key: str
    lookup: str

    def holds(self, result: PlayedResult, side: str) -> bool:
        return bool(result.details.get(self.key))

    def sql(self, side: str) -> Q:
        return Q(**{self.lookup: True})


@dataclass(frozen=True)
class _And(Cond):
    a: Cond
    b: Cond

    def holds(self, result, side):
        return self.a.holds(result, side) and self.b.holds(result, side)

    def sql(self, side):
        return self.a.sql(side) & self.b.sql(side)


@dataclass(frozen=True)
class _Not(Cond):
    a: Cond

    def holds(self, result, side):
        return not self.a.holds(result, side)

    def sql(self, side):
        return ~self.a.sql(side)


WON = Outcome("mine")
LOST_TO_OPPONENT = Outcome("theirs")
DRAWN = Outcome(DRAW)
ABANDONED_MATCH = Outcome(ABANDONED)


class Term:
    def value(self, result: PlayedResult, side: str) -> int:
        raise NotImplementedError

    def sql(self, side: str) -> Expression:
        raise NotImplementedError

    def __sub__(self, other: Term) -> Term:
        return _Minus(self, other)

    def __neg__(self) -> Term:
        return _Minus(Const(0), self)


@dataclass(frozen=True)
class Const(Term):
    n: int

    def value(self, result, side):
        return self.n

    def sql(self, side):
        return Value(self.n)


@dataclass(frozen=True)
class Score(Term):
    """A side's score in the game's unit (GB VP), missing as 0."""

    mine: bool = True

    def value(self, result, side):
        return result.score(side if self.mine else other_side(side))

    def sql(self, side):
        of = side if self.mine else other_side(side)
        return Coalesce(F(f"{of}_score"), Value(0))


@dataclass(frozen=True)
class Detail(Term):
    """A number of the game's own details, missing as 0."""

    key: str
    lookup: str

    def value(self, result, side):
        return int(result.details.get(self.key) or 0)

    def sql(self, side):
        return Coalesce(F(self.lookup), Value(0))


@dataclass(frozen=True)
class When_(Term):
    """``then`` when ``cond`` holds for the side, else ``otherwise``."""

    cond: Cond
    then: Term
    otherwise: Term = Const(0)

    def value(self, result, side):
        return (self.then if self.cond.holds(result, side) else self.otherwise).value(result, side)

    def sql(self, side):
        return Case(When(self.cond.sql(side), then=self.then.sql(side)), default=self.otherwise.sql(side))


@dataclass(frozen=True)
class _Minus(Term):
    a: Term
    b: Term

    def value(self, result, side):
        return self.a.value(result, side) - self.b.value(result, side)

    def sql(self, side):
        return self.a.sql(side) - self.b.sql(side)


@dataclass(frozen=True)
class Difference(Term):
    """A figure that is the difference of two others of the same row (GB-9's VP
    difference): summed as those two and subtracted once, not summed itself."""

    a: Term
    b: Term
    of: tuple[str, str]  # the keys of ``a`` and ``b`` in the game's terms

    def value(self, result, side):
        return self.a.value(result, side) - self.b.value(result, side)

    def sql(self, side):
        return self.a.sql(side) - self.b.sql(side)


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
