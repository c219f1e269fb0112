"""The DreadBall panel on the coach's page (DR-5): the coach's team and roster."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.template.loader import render_to_string

from league.dreadball.models import DreadBallTeam


def roster_panel(context: Mapping[str, Any]) -> str:
    """Two queries whatever the roster's size: the team with its published team,
    then its players."""
    entry = context.get("entry")
    if entry is None:
        return ""
    team = DreadBallTeam.objects.select_related("team_type").filter(entry=entry).first()
    players = list(team.players.order_by("role", "name", "pk")) if team is not None else []
    return render_to_string(
        "dreadball/_roster_panel.html",
        {"team": team, "players": players, "total_cost": sum(p.cost for p in players), "entry": entry},
    )
