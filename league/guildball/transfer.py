"""Guild Ball's rows in a league's file (league/leaguefiles/): its settings."""

from functools import partial

from league.games import ExportRows
from league.leaguefiles.registry import Part as AnyPart
from league.guildball.models import GuildBallSettings

# Only in the files of this game's leagues.
Part = partial(AnyPart, game_systems=frozenset({"guildball"}))


def export_rows() -> ExportRows:
    return ExportRows((Part(GuildBallSettings, lambda league: GuildBallSettings.objects.filter(league=league)),))
