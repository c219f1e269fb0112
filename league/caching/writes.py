"""How a service says what it writes: the one way writes reach the cache.

Every saved or deleted row of a tracked model gives its seasons a new version
(``versions.track``: the engine's models, each game's and layer's declared ones): that is the cache's own
bookkeeping and asks nothing of a service. What a service says:

- ``results_write``: a write to a season's results, whose season's history
  (league/standings/history.py) is carried to the version the write leaves
  instead of being built again by the next page: unchanged by a report, a
  confirmation or a dispute, with the approved result added by an approval;
- ``result_withdrawn``: the write takes an approved result out (a correction), so
  nothing is carried and the next page builds the history;
- ``changed``: a bulk write, which sends no signals, changed what the seasons it
  names show;
- ``one_version_per_season``: a block that saves many rows (an import) gives each
  season it touches one new version at its end, not one per row.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from django.db.models import Q

from league.caching import versions

one_version_per_season = versions.deferred
result_withdrawn = versions.dropped

# How a season's kept position history is carried to the version a write leaves:
# league/standings/history.py ``advance``, named once from LeagueConfig.ready(), as
# the standings sit above the cache they keep their history in.
_carry: list[Callable[[int, Any, Any], None]] = []


def carry_history_with(advance: Callable[[int, Any, Any], None]) -> None:
    """``advance(season_id, version_before, added_result)`` carries a season's
    history across a write to its results (``results_write``)."""
    _carry[:] = [advance]


def results_write(*, adds: Callable[[Any], Any] | None = None):
    """A service writing a season's results, inside its transaction (under
    ``transaction.atomic``). The versions its first write starts from are read
    with the season's row locked, last in the lock order (league/locks.py), as that
    write's own new version would lock it. Once the service returns, the season's
    history kept for those versions, if any, is kept for the version the write
    leaves (``carry_history_with``: the history's ``advance``) with ``adds(returned)``, the approved result it
    adds to the table (None: the table is unchanged). A write inside another joins
    it: the outer one carries the history."""

    def decorate(service):
        @functools.wraps(service)
        def write(*args, **kwargs):
            with versions.carrying() as carried:
                returned = service(*args, **kwargs)
                if carried is not None and carried.before and not carried.dropped:
                    added = adds(returned) if adds is not None else None
                    for season_id, before in carried.before.items():
                        for advance in _carry:
                            advance(season_id, before, added)
            return returned

        return write

    return decorate


def changed(seasons) -> None:
    """A bulk write (``bulk_create``, ``update``, a raw insert: no signals) changed
    what ``seasons`` show: a season, or a ``Q`` selecting seasons."""
    versions.bump(seasons if isinstance(seasons, Q) else Q(pk=seasons.pk))
