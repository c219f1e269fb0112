"""Reads for the Dungeon Bowl team pages and the coach's next steps, each a fixed number
of queries whatever the league's size."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Q, Count, IntegerField, Min, OuterRef, Subquery, Sum
from django.db.models.functions import Coalesce
from django.shortcuts import get_object_or_404
from django.urls import reverse

from league.dungeonbowl.teams import player_rules, rules as team_rules
from league.dungeonbowl.models import (
    GAME_SYSTEM, Honour, Player, Position, RedraftStep, Team, TeamSeason, TreasuryLine,
)
from league.dungeonbowl.playoffs.rules import PLACING_NAMES
from league.dungeonbowl.redraft.selectors import waiting_redrafts
from league.dungeonbowl.seasons import trophy_holder_id
from league.dungeonbowl.units import gp
from league.models import Entry, Result


def entered_team_name(league, coach) -> str:
    """The team name ``coach`` was entered with in ``league`` (the organiser's
    invitation or added coach, a join), newest season first, unless a team of theirs
    already has it: the team they found starts with that name. One query."""
    if coach is None:
        return ""
    return (
        Entry.objects.filter(season__league=league, coach=coach).exclude(team="")
        .exclude(team__in=Team.objects.filter(league=league, coach=coach).values("name"))
        .order_by("-season__start_date", "-id").values_list("team", flat=True).first()
    ) or ""


@dataclass
class TeamSheet:
    team: Team
    players: list[Player]
    lines: list[TreasuryLine]
    treasury: int
    value: team_rules.TeamValue
    division: str | None
    season: str | None
    trophy: bool = False  # DB-14: holds the Dungeon Bowl Trophy (an extra re-roll in TV)
    honours: list = field(default_factory=list)  # DB-14: its Honour rows, newest season first


def team_sheet(league, slug: str) -> TeamSheet:
    """The team, its draft list, its ledger, its latest season, its honours and
    whether it holds the Trophy: six queries."""
    team = get_object_or_404(Team.objects.select_related("coach", "college"), league=league, slug=slug)
    team.league = league
    players = list(team.players.on_draft_list().select_related("position").order_by("number"))
    lines = list(team.treasury_lines.select_related("created_by").order_by("-created_at", "-id"))
    latest = (
        TeamSeason.objects.filter(team=team).select_related("entry__division", "entry__season")
        .order_by("-entry__season__start_date", "-entry__season_id").first()
    )
    honours = list(Honour.objects.filter(team=team).select_related("season")
                   .order_by("-season__start_date", "-season_id"))
    trophy = trophy_holder_id(league) == team.pk
    value = team_rules.team_value(
        (team_rules.PlayerValue(p.value, p.miss_next_game) for p in players),
        rerolls=team.rerolls, reroll_cost=team.college.reroll_cost, trophy=trophy,
    )
    treasury = sum(line.amount for line in lines)
    balance = treasury
    for line in lines:  # newest first: each line shows the balance it left
        line.balance, balance = balance, balance - line.amount
    return TeamSheet(
        team, players, lines, treasury, value,
        latest.entry.division.name if latest and latest.entry.division_id else None,
        latest.entry.season.name if latest else None,
        trophy, honours,
    )


def journeyman_games(team: Team):
    """DB-12: the team's approved games in which it fielded Journeymen, newest first:
    the games a Journeyman may be hired permanently from. One query."""
    entries = TeamSeason.objects.filter(team=team).values("entry_id")
    return (
        Result.objects.filter(status=Result.Status.APPROVED)
        .filter(Q(fixture__home_id__in=entries, dungeonbowl_report__home_journeymen__gt=0)
                | Q(fixture__away_id__in=entries, dungeonbowl_report__away_journeymen__gt=0))
        .select_related("fixture__home", "fixture__away", "fixture__round", "dungeonbowl_report")
        .order_by("-fixture__date", "-pk")
    )


def team_json(sheet: TeamSheet) -> dict:
    """The team feed: gold in gp as integers; AG, PA and AV as the
    roster's target number (3 for 3+), PA null for "-"; ``trophy`` (true
    while it holds the Dungeon Bowl Trophy, whose re-roll ``team_value`` counts)
    and ``honours``, each ``{"season": name, "placing": "champion" | "runner-up" |
    "third"}``, newest season first (DB-14)."""
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
        "trophy": sheet.trophy,
        "honours": [{"season": h.season.name, "placing": PLACING_NAMES[h.placing]} for h in sheet.honours],
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


# The coach's "what to do next" ------------------------------------------------------------


@dataclass
class NextStep:
    verb: str  # "Draft", "Report", "Confirm", "Spend", "Advance"
    text: str
    url: str


def next_steps(coach) -> list[NextStep]:
    """What a coach's Dungeon Bowl teams wait on: a draft to submit, gold worth
    spending, SPP worth an advancement, a re-draft in the off-season (DB-15). Games to
    report or confirm are the engine's own list on the same page (listed here too,
    they would show twice). Six queries whatever the number of teams and
    players."""

    steps: list[NextStep] = []
    if coach is None:
        return steps
    treasury = TreasuryLine.objects.filter(team=OuterRef("pk")).values("team").annotate(total=Sum("amount")).values("total")
    cheapest = (Position.objects.filter(college=OuterRef("college")).values("college")
                .annotate(low=Min("cost")).values("low"))
    teams = list(
        Team.objects.filter(coach=coach, league__game_system=GAME_SYSTEM).select_related("league", "college")
        .annotate(
            gold=Coalesce(Subquery(treasury, output_field=IntegerField()), 0),
            cheapest=Coalesce(Subquery(cheapest, output_field=IntegerField()), 0),
            on_list=Count("players", filter=Q(players__status=Player.Status.ACTIVE)),
        ).order_by("league__name", "name")
    )
    low = player_rules.advancement_cost(player_rules.Advancement.CHOSEN_PRIMARY, 1)
    ready = list(
        Player.objects.on_draft_list()
        .filter(team__in=teams, spp__gte=low, advancements__lt=player_rules.MAX_ADVANCEMENTS)
        .select_related("position").order_by("team_id", "number")
    )
    redrafting = waiting_redrafts(teams)
    # Entered in a season with no team in its league yet (the Coaches
    # page, pasted names, a join link): found it, then draft it (DB-1, DB-6).
    teamless = (
        Entry.objects.filter(coach=coach, season__league__game_system=GAME_SYSTEM, dungeonbowl__isnull=True,
                             withdrawn_at__isnull=True)
        .exclude(season__league__in={team.league_id for team in teams}).select_related("season__league")
        .order_by("season__league__name", "-season__start_date")
    )
    for league_id, entry in {entry.season.league_id: entry for entry in reversed(list(teamless))}.items():
        league = entry.season.league
        steps.append(NextStep("Found your team", f"{league.name}, {entry.season.name}: you are entered; found your "
                              "team, then draft it.",
                              reverse("dungeonbowl:create_team", args=[league.slug])))
    for team in teams:
        page = reverse("dungeonbowl:team_detail", args=[team.league.slug, team.slug])
        if team.pk in redrafting:  # DB-15: the off-season's steps come before any spending
            steps.append(NextStep("Re-draft", f"{team.name} ({team.league.name}): the season is over; re-draft "
                                  f"the team, next step: {RedraftStep(redrafting[team.pk]).label}.",
                                  reverse("dungeonbowl:redraft", args=[team.league.slug, team.slug])))
            continue
        if team.draft_submitted_at is None:
            steps.append(NextStep("Draft", f"{team.name} ({team.league.name}): draft your players within the budget.",
                                  reverse("dungeonbowl:draft", args=[team.league.slug])))
            continue
        reroll = 2 * team.college.reroll_cost
        can_hire = team.on_list < team_rules.MAX_PLAYERS and team.cheapest and team.gold >= team.cheapest
        if can_hire or (team.gold >= reroll and team.rerolls < team_rules.MAX_REROLLS):
            steps.append(NextStep("Spend", f"{team.name} has {gp(team.gold)} in the Treasury: hire a player or "
                                  f"buy a re-roll ({gp(reroll)}).", page))
        for player in (p for p in ready if p.team_id == team.pk):
            cost = player_rules.advancement_cost(player_rules.Advancement.CHOSEN_PRIMARY, player.advancements + 1)
            if player.spp >= cost and player.position.primary:
                steps.append(NextStep("Advance", f"{team.name}: #{player.number} {player.name} has {player.spp} SPP "
                                      f"(a chosen primary skill costs {cost}).", page))
    return steps
