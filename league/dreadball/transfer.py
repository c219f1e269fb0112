"""DreadBall's rows in a league's file (league/leaguefiles/): settings, team types
(the published ones matched by name, the league's own created), rosters and each
result's details."""

from functools import partial

from django.db.models import Q

from league.games import ExportRows
from league.leaguefiles.registry import Part as AnyPart
from league.dreadball.models import (
    DreadBallResult, DreadBallSettings, DreadBallTeam, PublishedPlayer, RosterPlayer, TeamType,
)

# Only in the files of this game's leagues.
Part = partial(AnyPart, game_systems=frozenset({"dreadball"}))


def export_rows() -> ExportRows:
    def types(league):
        return Q(league=league) | Q(league__isnull=True)

    return ExportRows((
        Part(DreadBallSettings, lambda league: DreadBallSettings.objects.filter(league=league)),
        Part(TeamType, lambda league: TeamType.objects.filter(types(league)), key=("name", "league")),
        Part(PublishedPlayer, lambda league: PublishedPlayer.objects.filter(
            Q(team_type__league=league) | Q(team_type__league__isnull=True)), key=("name", "team_type")),
        Part(DreadBallTeam, lambda league: DreadBallTeam.objects.filter(entry__season__league=league)),
        Part(RosterPlayer, lambda league: RosterPlayer.objects.filter(team__entry__season__league=league)),
        Part(DreadBallResult, lambda league: DreadBallResult.objects.filter(result__fixture__round__season__league=league)),
    ))
