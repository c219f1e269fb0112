"""Guild Ball's rows in a league's file (league/transfer/): its settings."""

from league.transfer.registry import Part, register


def register_rows() -> None:
    from league.guildball.models import GuildBallSettings

    register(Part(GuildBallSettings, lambda league: GuildBallSettings.objects.filter(league=league)))
