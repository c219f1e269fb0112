"""Recording a fact: the one way out of a write (STYLE habit 20).

``record`` writes a ``Fact`` row (one INSERT); ``result_step`` writes the
fixture's history row, which is the fact of a result's step; ``happened`` is for
a write whose own rows are the fact already (a game's or a layer's). Each then
calls the followers of its kind (league/facts/registry.py) in the caller's
transaction, so what they queue commits or rolls back with the write.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import models

from league.facts import kinds, registry
from league.facts.models import Fact
from league.facts.registry import Recorded
from league.models import Fixture, League, Result, ResultEvent, Season


def _account(by):
    return by if by is not None and by.is_authenticated else None


def _tell(fact: Recorded) -> Recorded:
    for _, follower in registry.followers(fact.kind):
        follower(fact)
    return fact


def record(kind: str, *, by, league: League | None = None, season: Season | None = None,
           concerns: Mapping[str, Any] | None = None, **about: Any) -> Recorded:
    """``kind`` happened (``by``: the account, or None for the site's own jobs) in
    ``league`` (and ``season``): one Fact row with the ids it ``concerns``, then
    its followers, told ``about`` the objects the write holds."""
    league_id = league.pk if league is not None else season.league_id if season is not None else None
    row = Fact.objects.create(kind=kind, league_id=league_id, season=season, by=_account(by),
                              concerns=dict(concerns or {}))
    return _tell(Recorded(kind=kind, row=row, by=row.by, league_id=league_id, league=league, season=season,
                          about=about))


def result_step(*, fixture: Fixture, result: Result | None, action: str, by, note: str = "",
                **about: Any) -> ResultEvent:
    """A step of a match's result (or a fixture's rearrangement): the fixture's
    history row, as it stood (the scores and summary of ``result``), is the fact;
    then the followers of its kind (``kinds.STEPS``). ``fixture``'s round and
    season are loaded (the locked fixture's are)."""
    event = ResultEvent.objects.create(
        fixture=fixture, action=action, by=_account(by), note=note,
        home_score=result.home_score if result is not None else None,
        away_score=result.away_score if result is not None else None,
        summary=result.summary if result is not None else "",
    )
    season = fixture.round.season
    _tell(Recorded(kind=kinds.STEPS[action], row=event, by=event.by, league_id=season.league_id, season=season,
                   fixture=fixture, result=result, about=about))
    return event


def happened(kind: str, *, rows: list[models.Model], by, league_id: int | None, season: Season | None = None,
             **about: Any) -> Recorded:
    """``kind`` happened and the write's own ``rows`` keep it (a layer's ledger
    lines, a game's new fixtures): no row more, only its followers."""
    return _tell(Recorded(kind=kind, row=rows, by=_account(by), league_id=league_id, season=season, about=about))
