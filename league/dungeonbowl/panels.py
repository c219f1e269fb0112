"""What Dungeon Bowl adds to the engine's pages (league.layers)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.template.loader import render_to_string

from league.dungeonbowl.selectors import game_panel


def fixture_panel(context: Mapping[str, Any]) -> str:
    """The game page: what each player did and the rolls (three queries)."""
    result = context.get("result")
    if result is None:
        return ""
    panel = game_panel(result)
    if not panel:
        return ""
    fixture = context["fixture"]
    panel["sides"] = [(fixture.home.team or str(fixture.home), panel["home_lines"]),
                      (fixture.away.team or str(fixture.away), panel["away_lines"])]
    return render_to_string("dungeonbowl/_game_panel.html", panel)


def my_fixtures_panel(context: Mapping[str, Any]) -> str:
    """The coach's home: what their Dungeon Bowl teams wait on (two queries)."""
    from league.dungeonbowl.selectors import next_steps

    steps = next_steps(context.get("coach"), to_report=context.get("to_report", ()),
                       to_confirm=context.get("to_confirm", ()))
    if not steps:
        return ""
    return render_to_string("dungeonbowl/_next_steps.html", {"steps": steps})
