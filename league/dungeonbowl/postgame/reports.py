"""A game report's players: who can be named on the form, and storing what the
report says (the engine calls ``save_report`` through the rules' ``save_details``
when a result is reported, entered or corrected)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.core.exceptions import ValidationError
from django.db.models import Q

from league.dungeonbowl.models import GameReport, Player, PlayerGame, Team, TeamSeason
from league.dungeonbowl.units import gp
from league.rules.base import SIDES, Verdict


def fixture_players(fixture) -> dict[str, list[tuple[int, str]]]:
    """side -> [(player id, "#7 Grimm (Troll Slayer)")] in one query: the players on
    each team's draft list who do not miss this game, and anyone already in the
    fixture's report (so a correction still shows a player who died in it)."""
    entries = {fixture.home_id: "home", fixture.away_id: "away"}
    players = (
        Player.objects.filter(team__seasons__entry_id__in=[e for e in entries if e])
        .filter(Q(status=Player.Status.ACTIVE, miss_next_game=False) | Q(games__report__result__fixture=fixture))
        .select_related("position")
        .values("pk", "number", "name", "position__name", "team__seasons__entry_id")
        .distinct()
        .order_by("number", "pk")
    )
    out: dict[str, list[tuple[int, str]]] = {"home": [], "away": []}
    for p in players:
        side = entries.get(p["team__seasons__entry_id"])
        if side:
            out[side].append((p["pk"], f"#{p['number']} {p['name']} ({p['position__name']})"))
    return out


def _check_wizard_gold(result, teams: dict[str, int], wizard: dict[str, bool]) -> None:
    """DB-6: a team hiring its College Wizard has the price in its Treasury when the
    game is reported (approval pays it, and checks again)."""
    for team in Team.objects.filter(pk__in=[teams[side] for side in SIDES if wizard.get(side) and side in teams]
                                    ).select_related("college"):
        balance = team.treasury()
        if balance < team.college.wizard_cost:
            raise ValidationError(
                f"{team}'s Treasury holds {gp(balance)}; the {team.college.wizard} costs {gp(team.college.wizard_cost)}, "
                f"{gp(team.college.wizard_cost - balance)} short."
            )


def team_ids_by_side(fixture) -> dict[str, int]:
    found = dict(TeamSeason.objects.filter(entry_id__in=[fixture.home_id, fixture.away_id]).values_list("entry_id", "team_id"))
    return {side: found[entry] for side, entry in (("home", fixture.home_id), ("away", fixture.away_id)) if entry in found}


def college_wizards(fixture) -> dict[str, tuple[str, int]]:
    """side -> (the College Wizard its team hires, the price), one query (DB-6)."""
    sides = {fixture.home_id: "home", fixture.away_id: "away"}
    found = TeamSeason.objects.filter(entry_id__in=[e for e in sides if e]).values_list(
        "entry_id", "team__college__wizard", "team__college__wizard_cost")
    return {sides[entry]: (wizard, cost) for entry, wizard, cost in found}


def save_report(result, verdict: Verdict) -> GameReport:
    """Write (or rewrite, for a correction) the report and its player lines. Every
    player must belong to the side's team in this season."""
    details = verdict.details
    teams = team_ids_by_side(result.fixture)
    lines = details.get("players") or {}
    wanted = {line["player"] for side in SIDES for line in lines.get(side, [])}
    team_of = dict(Player.objects.filter(pk__in=wanted).values_list("pk", "team_id"))
    for side in SIDES:
        for line in lines.get(side, []):
            if team_of.get(line["player"]) != teams.get(side):
                raise ValidationError(f"Player {line['player']} does not play for the {side} team of this fixture.")
    gather = details.get("gather") or {}
    journeymen = details.get("journeymen") or {}
    cas = details.get("cas") or {}
    wizard = details.get("wizard") or {}
    if any(wizard.values()):
        _check_wizard_gold(result, teams, wizard)
    report, _ = GameReport.objects.update_or_create(
        result=result,
        defaults={
            "ending": details.get("ending", ""),
            "home_cas": cas.get("home", 0), "away_cas": cas.get("away", 0),
            "home_gather": gather.get("home", 0), "away_gather": gather.get("away", 0),
            "home_journeymen": journeymen.get("home", 0), "away_journeymen": journeymen.get("away", 0),
            "home_wizard": bool(wizard.get("home")), "away_wizard": bool(wizard.get("away")),
            "dice": details.get("dice"),
        },
    )
    report.players.all().delete()
    PlayerGame.objects.bulk_create(
        PlayerGame(report=report, side=side, player_id=line["player"], **{k: v for k, v in line.items() if k != "player"})
        for side in SIDES
        for line in lines.get(side, [])
        if kept_line(line)
    )
    return report


def kept_line(line: Mapping[str, Any]) -> bool:
    """A player line is stored when the player did something or was hurt; the form's
    untouched lines are not."""
    return any(line[k] for k in ("touchdowns", "completions", "deflections", "interceptions", "casualties", "mvp", "injury"))
