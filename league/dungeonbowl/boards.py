"""Dungeon Bowl's leaderboards and titles (league/records): the players' touchdowns,
casualties, completions, interceptions, MVP awards and SPP (DB-11), the teams'
records and the Treasury they won (DB-10, DB-14), and the play-off winner who takes
the Dungeon Bowl Trophy (DB-14)."""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import Count, F, IntegerField, OuterRef, Q, Subquery, Sum, Value
from django.db.models.functions import Coalesce

from league.dungeonbowl.models import Honour, Placing, PlayerEffect, PlayerGame, Team, TeamSeason, TreasuryLine
from league.models import Result, Season
from league.records import titles
from league.records.boards import Board, Column, Scope, SideTotals, counted_results, drawn, lost, won


def _players(scope: Scope):
    # SPP from the ledger of what each game gave (PlayerEffect, DB-11), which keeps
    # the league's SPP values as they stood when the game was approved.
    spp = Coalesce(Subquery(
        PlayerEffect.objects.filter(counted_results(scope, "result"), player=OuterRef("player_id")).order_by()
        .values("player").annotate(total=Sum("spp")).values("total"), output_field=IntegerField()), Value(0))
    return (
        PlayerGame.objects.filter(counted_results(scope, "report__result"))
        .values("player_id", player_name=F("player__name"), team=F("player__team__name"),
                coach_id=F("player__team__coach_id"), coach=F("player__team__coach__name"))
        .annotate(
            td=Sum("touchdowns"), cas=Sum("casualties"), comp=Sum("completions"), ints=Sum("interceptions"),
            mvps=Count("pk", filter=Q(mvp=True)), spp=spp,
        )
    )


PLAYERS = Board(
    key="players", title="Players", game="dungeonbowl", named="Player",
    columns=(Column("team", "Team", text=True), Column("td", "Touchdowns"), Column("cas", "Casualties"),
             Column("comp", "Completions"), Column("ints", "Interceptions"), Column("mvps", "MVP"),
             Column("spp", "SPP")),
    rows=_players, order="spp", name_field="player_name",
    about="From the approved game reports of league and play-off games; SPP are those each game gave, "
          "as the ledger of the player's games holds them.",
)

# DB-10, DB-14: gold a team won: winnings and the Treasure Room bonus of its games,
# and the season's prizes, with the lines that took any of them back.
WON = (TreasuryLine.Kind.WINNINGS, TreasuryLine.Kind.TREASURE_ROOM, TreasuryLine.Kind.PRIZE)


def _teams(scope: Scope):
    results = Result.objects.filter(counted_results(scope))
    team = lambda side: f"fixture__{side}__dungeonbowl__team"  # noqa: E731
    caused = (
        Q(cause_type__app_label="league", cause_type__model="result",
          cause_id__in=results.values("pk"))
        | Q(cause_type__app_label="league", cause_type__model="season",
            cause_id__in=Season.objects.filter(scope.seasons()).values("pk"))
    )
    treasury = Coalesce(Subquery(
        TreasuryLine.objects.filter(caused, Q(kind__in=WON) | Q(reverses__kind__in=WON), team=OuterRef("pk"))
        .order_by().values("team").annotate(total=Sum("amount")).values("total"), output_field=IntegerField()), Value(0))
    teams = (
        Team.objects.filter(pk__in=TeamSeason.objects.filter(scope.seasons("entry__season")).values("team_id"))
        .values("name", "coach_id", owner=F("pk"), coach_name=F("coach__name"))
        .annotate(treasury=treasury)
    )
    return SideTotals(results, team, {
        "played": lambda side: Count("pk"),
        "won": lambda side: Count("pk", filter=won(side)),
        "drawn": lambda side: Count("pk", filter=drawn()),
        "lost": lambda side: Count("pk", filter=lost(side)),
    }, teams)


TEAMS = Board(
    key="teams", title="Teams", game="dungeonbowl", named="Team",
    columns=(Column("played", "Played"), Column("won", "W"), Column("drawn", "D"), Column("lost", "L"),
             Column("treasury", "Treasury won (gp)")),
    rows=_teams, order="won", coach_field="coach_name", name_field="name",
    about="Records of league and play-off games (a concession counts as played); Treasury won is the winnings, "
          "Treasure Room bonuses and prizes paid into the Treasury, less any taken back by a correction.",
)


def trophy_winners(season_ids: list[int]) -> Iterable[titles.Honour]:
    """DB-14: the play-off winner, who takes the Dungeon Bowl Trophy."""
    found = (
        Honour.objects.filter(season_id__in=season_ids, placing=Placing.CHAMPION)
        .values_list("season_id", "team__coach_id", "team__coach__name", "team__name").order_by("season_id")
    )
    for season_id, coach_id, coach, team in found:
        yield titles.Honour(season_id, "Play-off winner and the Dungeon Bowl Trophy", coach_id, coach, team)
