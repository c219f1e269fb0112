"""Guild Ball's rows in a league's file (league/transfer/): its settings."""

from functools import partial

from league.games import ExportRows
from league.transfer.registry import Part as AnyPart

# Only in the files of this game's leagues.
Part = partial(AnyPart, game_systems=frozenset({"guildball"}))


def export_rows() -> ExportRows:
    from league.guildball.models import GuildBallSettings

    return ExportRows((Part(GuildBallSettings, lambda league: GuildBallSettings.objects.filter(league=league)),))
