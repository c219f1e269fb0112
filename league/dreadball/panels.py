"""The DreadBall panel on the coach's page (DR-5): the coach's team and roster."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.template.loader import render_to_string

from league.dreadball.models import DreadBallTeam
from league.models import Entry


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


def _teamless(entries) -> list:
    return list(entries.filter(season__league__game_system="dreadball", dreadball_team__isnull=True,
                               withdrawn_at__isnull=True).select_related("season__league"))


def viewer_panel(context: Mapping[str, Any]) -> str:
    """The league page, for a logged-in coach entered in the season without a
    registered team (DR-5). One query; nothing for anyone else."""
    season, user = context.get("season"), context.get("user")
    if season is None or user is None or not user.is_authenticated:
        return ""
    entries = _teamless(Entry.objects.filter(season=season, coach__user=user))
    return render_to_string("dreadball/_register_your_team.html", {"entries": entries}) if entries else ""


def my_fixtures_panel(context: Mapping[str, Any]) -> str:
    """The coach's home: each DreadBall season they are entered in without a
    registered team (DR-5). One query."""
    coach = context.get("coach")
    if coach is None:
        return ""
    entries = _teamless(Entry.objects.filter(coach=coach).order_by("season__league__name", "-season__start_date"))
    return render_to_string("dreadball/_register_your_team.html", {"entries": entries}) if entries else ""
