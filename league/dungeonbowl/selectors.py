"""Reads for the Dungeon Bowl pages, each a fixed number of queries whatever the
league's size."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.contenttypes.models import ContentType
from django.shortcuts import get_object_or_404

from league.dungeonbowl import rules
from league.dungeonbowl.league_models import GameReport, TeamSeason
from league.dungeonbowl.models import DiceRoll, Player, Team, TreasuryLine


@dataclass
class TeamSheet:
    team: Team
    players: list[Player]
    lines: list[TreasuryLine]
    treasury: int
    value: rules.TeamValue
    division: str | None
    season: str | None


def team_sheet(league, slug: str) -> TeamSheet:
    """The team, its draft list, its ledger and its latest season: five queries."""
    team = get_object_or_404(Team.objects.select_related("coach", "college"), league=league, slug=slug)
    team.league = league
    players = list(team.players.on_draft_list().select_related("position").order_by("number"))
    lines = list(team.treasury_lines.select_related("created_by").order_by("-created_at", "-id"))
    latest = (
        TeamSeason.objects.filter(team=team).select_related("entry__division", "entry__season")
        .order_by("-entry__season__start_date", "-entry__season_id").first()
    )
    value = rules.team_value(
        (rules.PlayerValue(p.value, p.miss_next_game) for p in players),
        rerolls=team.rerolls, reroll_cost=team.college.reroll_cost,
    )
    return TeamSheet(
        team, players, lines, sum(line.amount for line in lines), value,
        latest.entry.division.name if latest and latest.entry.division_id else None,
        latest.entry.season.name if latest else None,
    )


def team_json(sheet: TeamSheet) -> dict:
    """The team feed (issue 7): gold in gp as integers; AG, PA and AV as the
    roster's target number (3 for 3+), PA null for "-"."""
    team = sheet.team
    return {
        "league": team.league.slug,
        "team": team.name,
        "coach": team.coach.name,
        "college": team.college.name,
        "division": sheet.division,
        "treasury": sheet.treasury,
        "team_value": sheet.value.team_value,
        "current_team_value": sheet.value.current_team_value,
        "rerolls": team.rerolls,
        "players": [
            {
                "name": p.name, "number": p.number, "position": p.position.name, "value": p.value,
                "ma": p.ma, "st": p.st, "ag": p.ag, "pa": p.pa, "av": p.av, "skills": p.skills,
                "spp": p.spp, "mvp_awards": p.mvp_awards, "niggling_injuries": p.niggling_injuries,
                "miss_next_game": p.miss_next_game,
            }
            for p in sheet.players
        ],
    }


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
