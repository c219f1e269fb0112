"""Reads of a Dungeon Bowl game's report for the game page (DB-9 to DB-13, DB-16):
what each player did and the rolls the game caused."""

from __future__ import annotations

from django.contrib.contenttypes.models import ContentType

from league.dungeonbowl.models import DiceRoll, GameReport


def game_panel(result) -> dict:
    """What each player did in ``result`` and the rolls it caused: three queries."""
    report = GameReport.objects.filter(result=result).first()
    if report is None:
        return {}
    lines = list(report.players.select_related("player__position"))
    rolls = list(DiceRoll.objects.filter(
        cause_type=ContentType.objects.get_for_model(result), cause_id=result.pk
    ).select_related("team", "entered_by"))
    return {
        "report": report,
        "home_lines": [line for line in lines if line.side == "home"],
        "away_lines": [line for line in lines if line.side == "away"],
        "rolls": rolls,
    }
