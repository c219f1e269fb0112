"""Emitting a league's events: followers of the facts a write records
(league/facts/subscriptions.py, a game's and a layer's own), called inside that
write, so each delivery row and its task are written in the write's transaction
(the outbox, league/outbox/tasks.py) and roll back with a refused write.

``emit`` is the one function every emitter calls: the engine's followers through
the helpers below, a game's or a layer's (a Dungeon Bowl's play-offs, a Big
League's Moments) directly, since the engine imports none of them. Nothing is written for
a league without a subscription to the kind (one query per emitting write).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from django.utils import timezone

from league.events import types
from league.events.delivery import deliver
from league.events.models import Delivery, Subscription
from league.models import Entry, Fixture, Result, Season
from league.outbox.quiet import is_quiet
from league.outbox import tasks
from league.outbox.links import site_root


Data = dict[str, Any] | Callable[[], dict[str, Any]]


def _wanted(league_id: int, kinds: set[str]) -> list[Subscription]:
    return [s for s in Subscription.objects.filter(league_id=league_id, active=True,
                                                   signature=Subscription.Signature.STANDARD).order_by("pk")
            if kinds & set(s.event_types)]


def emit(*, league_id: int, events: list[tuple[str, Data]]) -> int:
    """Queue each ``(type, data)`` of ``events`` to every active subscription of the
    league that chose that type; returns how many deliveries were queued. Run in the
    caller's transaction. ``data`` may be a function, called only when someone
    subscribed to the type (a league without subscriptions pays one query). Silent
    inside ``quiet()`` (league/outbox/quiet.py: the demo, the imports' bulk path), as mail is."""
    if not events or is_quiet():
        return 0
    unknown = {kind for kind, _ in events} - types.ALL
    if unknown:
        raise ValueError(f"unknown event types: {sorted(unknown)}")
    return _queue(_wanted(league_id, {kind for kind, _ in events}), events)


def _queue(subscriptions: list[Subscription], events: list[tuple[str, Data]]) -> int:
    now = timezone.now()
    rows = []
    for kind, data in events:
        wanting = [s for s in subscriptions if s.wants(kind)]
        if not wanting:
            continue
        body = json.dumps({"type": kind, "timestamp": now.isoformat(), "data": data() if callable(data) else data},
                          sort_keys=True)
        rows += [Delivery(subscription=s, event_type=kind, payload=body) for s in wanting]
    for row in rows:  # a handful: one per subscription (at most MAX_SUBSCRIPTIONS) and kind
        row.save()
        tasks.enqueue_with_write(deliver, delivery_id=row.pk)
    return len(rows)


# What the engine's writes emit --------------------------------------------------------


def _season_data(season: Season) -> dict[str, Any]:
    return {"league": season.league.slug, "season": {"id": season.pk, "name": season.name}}


def _fixture_data(fixture: Fixture) -> dict[str, Any]:
    season = fixture.round.season
    return {
        **_season_data(season),
        "fixture": {
            "id": fixture.pk, "title": fixture.title, "date": fixture.date.isoformat(),
            "home": str(fixture.home), "away": str(fixture.away) if fixture.away_id else None,
            "url": f"{site_root()}{fixture.get_absolute_url()}",
        },
    }


def _result_data(result: Result) -> dict[str, Any]:
    data = _fixture_data(result.fixture)
    data["result"] = {
        "status": result.status, "outcome": result.outcome,
        "home_score": result.home_score, "away_score": result.away_score,
        "summary": result.summary or result.get_outcome_display(),
    }
    return data


def _standings_data(season: Season) -> dict[str, Any]:
    league = season.league
    return {**_season_data(season), "url": f"{site_root()}{league.get_absolute_url()}"}


def result_changed(result: Result, kind: str) -> None:
    """A workflow step on ``result`` (reported, confirmed, disputed, approved,
    corrected). An approval or a correction also changes the table; the approval
    of the season's last open match ends the season (``_all_played``)."""
    if is_quiet():
        return
    season = result.fixture.round.season
    kinds = {kind, types.STANDINGS_CHANGED, types.SEASON_OVER}
    subscribed = _wanted(season.league_id, kinds)
    if not subscribed:
        return
    events: list[tuple[str, Data]] = [(kind, lambda: _result_data(result))]
    if kind in (types.RESULT_APPROVED, types.RESULT_CORRECTED):
        events.append((types.STANDINGS_CHANGED, lambda: _standings_data(season)))
    if kind == types.RESULT_APPROVED and any(s.wants(types.SEASON_OVER) for s in subscribed) and _all_played(season):
        events.append((types.SEASON_OVER, lambda: _standings_data(season)))
    _queue(subscribed, events)


def _all_played(season: Season) -> bool:
    """LG-3: every regular match has its approved result (a fixture cancelled by a
    withdrawal keeps no season open), the test that lets the next season open. A
    Dungeon Bowl season's play-offs come after it."""
    return not Fixture.objects.filter(round__season=season).regular().unplayed().exists()


def results_imported(season: Season) -> None:
    """Results of ``season`` written in bulk (an import): the table changed once,
    and the season may be over (LG-3), rather than an event a result."""
    if is_quiet():
        return
    subscribed = _wanted(season.league_id, {types.STANDINGS_CHANGED, types.SEASON_OVER})
    if not subscribed:
        return
    events: list[tuple[str, Data]] = [(types.STANDINGS_CHANGED, lambda: _standings_data(season))]
    if any(s.wants(types.SEASON_OVER) for s in subscribed) and _all_played(season):
        events.append((types.SEASON_OVER, lambda: _standings_data(season)))
    _queue(subscribed, events)


def standings_changed(season: Season) -> None:
    """A result stopped counting (reopened): the table is another."""
    emit(league_id=season.league_id, events=[(types.STANDINGS_CHANGED, lambda: _standings_data(season))])


def fixture_rearranged(fixture: Fixture, old_date) -> None:
    def data() -> dict[str, Any]:
        rearranged = _fixture_data(fixture)
        rearranged["fixture"]["was"] = old_date.isoformat()
        return rearranged

    emit(league_id=fixture.round.season.league_id, events=[(types.FIXTURE_REARRANGED, data)])


def _entry_data(entry: Entry, season: Season) -> dict[str, Any]:
    return {**_season_data(season), "entrant": {"id": entry.pk, "coach": entry.coach.name, "team": entry.team}}


def entrant_joined(entry: Entry, season: Season) -> None:
    emit(league_id=season.league_id, events=[(types.ENTRANT_JOINED, lambda: _entry_data(entry, season))])


def entrants_carried_over(season: Season) -> None:
    """A next season opened with the last one's entrants (LG-3, LG-4): each joins
    it, as an entrant the organiser adds would."""
    def joined(entry: Entry):
        return lambda: _entry_data(entry, season)

    if is_quiet():
        return
    subscribed = _wanted(season.league_id, {types.ENTRANT_JOINED})
    if subscribed:
        entries = season.entries.select_related("coach").order_by("pk")
        _queue(subscribed, [(types.ENTRANT_JOINED, joined(entry)) for entry in entries])


def entrant_withdrew(entry: Entry, season: Season, *, not_played: int) -> None:
    """LG-2: the entrant left; the table changes when fixtures of theirs are now not played."""
    data = _entry_data(entry, season)  # now: the entry may be deleted before the commit
    data["entrant"]["fixtures_not_played"] = not_played
    events: list[tuple[str, Data]] = [(types.ENTRANT_WITHDREW, data)]
    if not_played:
        events.append((types.STANDINGS_CHANGED, lambda: _standings_data(season)))
    emit(league_id=season.league_id, events=events)
