"""DreadBall's read endpoint (/api/v1/leagues/<slug>/dreadball/teams/): a season's
teams with their rosters. Mounted on the API by the game's declaration
(league/dreadball/game.py). No ``from __future__ import annotations``: django-ninja
reads the parameters' types."""

from django.http import Http404
from ninja import Query, Router, Schema

from league.api.answers import Page, PageQuery, league_get, page_of, season_for
from league.dreadball.models import DreadBallTeam
from league.dreadball.published import GAME_SYSTEM

router = Router(tags=["DreadBall"])


class RosterPlayerOut(Schema):
    name: str
    role: str
    move: int
    cost: int


class DreadBallTeamOut(Schema):
    name: str
    team_type: str
    coach_id: int
    coach: str
    players: list[RosterPlayerOut]


class TeamQuery(PageQuery):
    season: str = ""


@league_get(router, "/leagues/{slug}/dreadball/teams/", Page[DreadBallTeamOut], kept=False,
            summary="A season's DreadBall teams and rosters", url_name="dreadball_teams")
def teams(request, slug: str, params: Query[TeamQuery]):
    """Every team of ``season`` (the current one without it) with its roster: three
    queries whatever the number of teams."""
    league, season = season_for(slug, params.season)
    if league.game_system != GAME_SYSTEM:
        raise Http404(f"{league} is not a DreadBall league.")
    found = (DreadBallTeam.objects.filter(entry__season=season).select_related("entry__coach", "team_type")
             .prefetch_related("players").order_by("name", "pk"))
    return page_of(found, params, lambda t: {
        "name": t.name, "team_type": t.team_type.name, "coach_id": t.entry.coach_id, "coach": t.entry.coach.name,
        "players": [{"name": p.name, "role": p.role, "move": p.move, "cost": p.cost}
                    for p in sorted(t.players.all(), key=lambda p: p.pk)],
    })
