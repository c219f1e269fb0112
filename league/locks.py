"""One lock order for every write that locks more than one row (STYLE habit 16).

Two transactions that lock the same rows in different orders can each wait for
the other: PostgreSQL then kills one with "deadlock detected" (a 500). A load
test measured 26 of them in 210 simultaneous approve/record/reopen requests, because
``record_result`` locked the fixture, then the coaches, then the result, while
``approve_result`` and ``reopen_result`` locked the result, then the coaches.

Every service takes its locks in this order, and only a suffix of it when it
needs fewer rows:

1. the fixture (``Fixture``), which every workflow step on a match goes through
   first, so two steps on one match queue up here;
2. its result (``Result``), when there is one;
3. the sides' rows, each kind in primary-key order: first the game's own
   (``GameRules.lock_sides``: Dungeon Bowl's teams), then each layer's
   (``Layer.lock_sides``: a Big League campaign's coaches). A spend or a deal
   between coaches locks only these rows, again in primary-key order
   (``rows_in_order``);
4. the season's version last: every write of a tracked row bumps it with an
   UPDATE of the season (league/caching/versions.py), so all the locks above are taken
   before the first write, and nothing is locked after a write. A layer that
   rewrites rows of other matches than the one it was called for (the Big
   League's GB-18 Favours of later matches) takes this row before it reads them
   (``season``): the lock the bump would take anyway, taken earlier, so two
   approvals in one season cannot both rewrite one later match's lines.

After all of these, at the end of a write that changes which results count
(league/services/results.py, a merge), the game's ratings row (``RatedGame``,
league/ratings/services.py) is locked by the UPDATE that marks its pending week:
always last. The task that then recomputes the game's ratings locks that row
alone, so it waits for no other lock and an approval waits for it only there.

A write on people rather than matches (a merge of two coach rows, a claim of a
coach's place: league/people/merges.py) locks the coach rows concerned first,
in primary-key order, ``FOR NO KEY UPDATE`` (a recomputation of the ratings
inserts rows pointing at them while it holds the ratings row), then writes; it
takes none of the locks above before them, and the ratings row last.

Side rows are locked ``FOR NO KEY UPDATE`` (``no_key=True``): the services change
balances by inserting ledger lines that point at those rows, and an insert's
foreign-key check (``FOR KEY SHARE``) must not wait for a lock that only guards
the balance. On SQLite, which has one writer at a time (league/settings.py),
``select_for_update`` is a no-op and the order costs nothing.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypeVar

from django.db import models

from league import layers
from league.models import Fixture, Result, Season
from league.rules import settings_relations

M = TypeVar("M", bound=models.Model)

# The league with its game's settings (``league.rules``, no query of its own) and
# both coaches with their accounts (the mail of a workflow step).
FIXTURE_RELATED = ("round__season__league", "home__coach__user", "away__coach__user")


def fixture_related() -> tuple[str, ...]:
    return FIXTURE_RELATED + tuple(f"round__season__league__{name}" for name in settings_relations())


def rows_in_order(queryset: models.QuerySet[M], pks: Iterable[int | None], *, related: Iterable[str] = ()) -> list[M]:
    """Lock the rows of ``queryset`` with these primary keys, lowest first (step 3),
    and return them in that order. Only the model's own rows are locked, not the
    rows ``related`` joins in."""
    wanted = sorted({pk for pk in pks if pk is not None})
    if not wanted:
        return []
    return list(
        queryset.select_for_update(of=("self",), no_key=True)
        .select_related(*related)
        .filter(pk__in=wanted)
        .order_by("pk")
    )


def fixture(fixture_id: int, *, sides: bool = True) -> tuple[Fixture, Result | None]:
    """Steps 1 to 3 for a workflow step on a match: the fixture, its result (None
    before a report) and, unless ``sides`` is False (a step that changes no
    balance: confirming, disputing, rearranging), every side row the game and its
    layers will write. Returns the fixture (with its round, season, league and
    both sides' coaches) and the result."""
    locked = Fixture.objects.select_for_update(of=("self",)).select_related(*fixture_related()).get(pk=fixture_id)
    result = Result.objects.select_for_update(of=("self",)).filter(fixture_id=locked.pk).first()
    # One object each, whichever way a caller reaches them (fixture.result, result.fixture).
    Fixture.result.related.set_cached_value(locked, result)
    if result is not None:
        result.fixture = locked
    if sides and not locked.is_bye:
        lock_sides(locked)
    return locked, result


def season(season_id: int) -> None:
    """Step 4 taken before the season's version is bumped: for a write that reads
    and rewrites rows beyond its own fixture's sides."""
    list(Season.objects.select_for_update(no_key=True).filter(pk=season_id).values_list("pk"))


def lock_sides(fixture: Fixture) -> None:
    """Step 3: the game's side rows, then each layer's."""
    league = fixture.round.season.league
    league.rules.lock_sides(fixture)
    layers.lock_sides(fixture)
