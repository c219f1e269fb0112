"""Dungeon Bowl's kinds of fact and who follows them (league/facts/registry.py),
given in its declaration (``game.py``): the engine imports no game."""

from __future__ import annotations

from league.dungeonbowl.playoffs.services import PLAYOFFS_SEEDED
from league.events import emit as events
from league.events import types as event_types
from league.facts.registry import Recorded
from league.games import Facts


def events_playoffs_seeded(fact: Recorded) -> None:
    """DB-5b: the league's subscribers hear of the semi-finals drawn."""
    season = fact.season
    events.emit(league_id=fact.league_id, events=[(event_types.PLAYOFFS_SEEDED, lambda: {
        "league": season.league.slug, "season": {"id": season.pk, "name": season.name},
        "semi_finals": [{"title": title, "home": home, "away": away, "date": date.isoformat()}
                        for title, home, away, date in fact.about["semi_finals"]],
    })])


FACTS = Facts(
    kinds={PLAYOFFS_SEEDED: "Dungeon Bowl's semi-finals are drawn (DB-5b)"},
    followers=((PLAYOFFS_SEEDED, "events", events_playoffs_seeded),),
)
