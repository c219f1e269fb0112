"""The engine's read endpoints: leagues, seasons, divisions, standings, rounds,
fixtures, results and coaches. Every list is paginated (``limit`` at most 100)."""

from __future__ import annotations

from django.http import HttpRequest
from ninja.pagination import LimitOffsetPagination, paginate

from league import selectors
from league.api.schemas import LeagueOut, SeasonBrief
from league.api.site import api


def _league_out(league) -> dict:
    current = getattr(league, "current", None)
    return {
        "slug": league.slug,
        "name": league.name,
        "game": league.game_system,
        "description": league.description,
        "current_season": None if current is None else SeasonBrief(
            name=current.name, start_date=current.start_date, coaches=current.coach_count,
        ),
    }


class LeaguePage(LimitOffsetPagination):
    """A page of leagues, each with its current season (one query for the page)."""

    def paginate_queryset(self, queryset, pagination, request=None, **params):
        page = super().paginate_queryset(queryset, pagination, request=request, **params)
        leagues = list(page["items"])
        selectors.attach_current_seasons(leagues)
        page["items"] = [_league_out(league) for league in leagues]
        return page


@api.get("/leagues/", response=list[LeagueOut], tags=["leagues"], summary="Leagues, searchable by name")
@paginate(LeaguePage)
def leagues(request: HttpRequest, q: str = ""):
    """Every league by name; ``q`` searches names and slugs (as the league list does)."""
    return selectors.league_search(q.strip()[:100])
