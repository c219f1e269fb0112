"""Where a Dungeon Bowl season stands in its year (DB-3): regular season, play-off
season, off-season. The play-offs module fixes the honours; the re-draft module
runs the off-season; both read the season's state from here."""

from __future__ import annotations

from django.db.models import Q

from league.dungeonbowl.models import Honour, Placing
from league.models import Fixture, Result, Season
from league.records.titles import Won, table_champions


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


def honours_won(coach_id: int) -> list[Won]:
    """DB-14: the placings the coach's teams earned (the champion holds the
    Trophy), one query; and League Champion, the top of the table, for a finished
    season that had no play-offs to crown one (league/records/titles.py)."""
    honours = Honour.objects.filter(team__coach_id=coach_id).select_related("season__league", "team")
    won = [
        Won("Champion, with the Dungeon Bowl Trophy" if honour.placing == Placing.CHAMPION
            else honour.get_placing_display(), honour.season_id, honour.season.name, honour.season.league.name,
            honour.season.league.slug, "dungeonbowl", honour.season.start_date, honour.team.name, rule="DB-14")
        for honour in honours
    ]
    crowned_otherwise = Q(dungeonbowl_honours__isnull=False) | Q(league__dungeonbowl_settings__playoffs__gt=0)
    return won + table_champions(coach_id, "dungeonbowl", exclude=crowned_otherwise, rule="DB-5a")
