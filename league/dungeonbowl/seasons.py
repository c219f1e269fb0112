"""Where a Dungeon Bowl season stands in its year (DB-3): regular season, play-off
season, off-season. The play-offs module fixes the honours; the re-draft module
runs the off-season; both read the season's state from here."""

from __future__ import annotations

from league.dungeonbowl.models import Honour, Placing
from league.models import Fixture, Result, Season


def season_over(season: Season) -> bool:
    """DB-3: a season is over once its champion is crowned (DB-14), or, in a league
    without play-offs, once every regular fixture has an approved result. Its
    off-season (DB-15 re-drafting) starts then."""
    if Honour.objects.filter(season=season, placing=Placing.CHAMPION).exists():
        return True
    settings = season.league.rules.settings
    if settings is not None and settings.playoffs:
        return False
    regular = Fixture.objects.filter(round__season=season, stage=Fixture.Stage.REGULAR)
    # LG-2: a game a withdrawal cancelled is never played, so it keeps no season open.
    return regular.exists() and not regular.to_play().exclude(result__status=Result.Status.APPROVED).exists()


def trophy_holder_id(league) -> int | None:
    """DB-14: the id of the team holding the Dungeon Bowl Trophy, the newest
    champion of the league, or None before the first is crowned."""
    return (
        Honour.objects.filter(season__league=league, placing=Placing.CHAMPION)
        .order_by("-season__start_date", "-season__pk")
        .values_list("team_id", flat=True)
        .first()
    )
