"""Ringball's read endpoint (/api/v1/leagues/<slug>/ringball/crews/): the league's
crews, kept per version of its seasons (a crew is a tracked row). No ``from
__future__ import annotations``: django-ninja reads the parameters' types."""

from django.http import Http404
from ninja import Query, Router, Schema

from league.api.answers import Page, PageQuery, league_for, league_get, page_of
from tests.fourth_game.models import Crew

router = Router(tags=["Ringball"])


class CrewOut(Schema):
    name: str
    coach_id: int
    coach: str


@league_get(router, "/leagues/{slug}/ringball/crews/", Page[CrewOut], summary="A Ringball league's crews",
            url_name="ringball_crews")
def crews(request, slug: str, params: Query[PageQuery]):
    league = league_for(slug)
    if league.game_system != "ringball":
        raise Http404(f"{league} is not a Ringball league.")
    found = Crew.objects.filter(league=league).select_related("coach").order_by("name", "pk")
    return page_of(found, params, lambda crew: {"name": crew.name, "coach_id": crew.coach_id, "coach": crew.coach.name})
