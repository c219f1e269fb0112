"""Dungeon Bowl leagues built through the services, for tests and the demo's checks."""

from __future__ import annotations

from league.services import seasons as season_services
from league.dungeonbowl.teams import services
from league.dungeonbowl.models import College, DungeonBowlSettings, Team
from league.models import League, Season
from tests.support.factories import CoachFactory, LeagueFactory, SeasonFactory

FIRE = ["Troll Slayer", "Dwarf Blitzer", "Dwarf Runner", *["Dwarf Blocker Lineman"] * 4, "Gnoblar Lineman"]
SHADOWS = ["Dark Elf Blitzer", "Gutter Runner", "Dark Elf Runner", *["Dark Elf Lineman"] * 5]


def db_league(organiser, *, slug: str = "altdorf", **settings) -> League:
    league = LeagueFactory(name="Altdorf Colleges", slug=slug, game_system="dungeonbowl", organisers=[organiser])
    DungeonBowlSettings.objects.create(league=league, **settings)
    return league


def db_team(league: League, name: str, *, college: str = "college-of-fire", coach=None, rerolls: int = 2) -> Team:
    coach = coach or CoachFactory(name=f"Coach of {name}")
    picks = FIRE if college == "college-of-fire" else SHADOWS
    return services.submit_draft(
        league=league, coach=coach, name=name, college=College.objects.get(slug=college), picks=picks,
        rerolls=rerolls, by=coach.user,
    )


def db_season(organiser, *, teams: int = 4, divisions: int = 0, league: League | None = None, prefix: str = "Team",
              **settings) -> Season:
    """A season of ``teams`` drafted teams (alternating colleges), entered and
    with fixtures generated (within divisions when asked)."""
    league = league or db_league(organiser, **settings)
    season = SeasonFactory(league=league, name="Season 1")
    for i in range(teams):
        team = db_team(league, f"{prefix} {i + 1:02d}", college="college-of-fire" if i % 2 == 0 else "college-of-shadows")
        services.enter_team(team=team, season=season, by=organiser)
    if divisions:
        season_services.draw_season_divisions(season=season, by=organiser, count=divisions, seed=3)
    season_services.generate_fixtures(season=season, seed=5)
    return season
