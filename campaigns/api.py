"""The Big League's read endpoint (/api/v1/leagues/<slug>/campaign/): the campaign
table of a season, the figures of campaign.json (League, Campaign Points, Moments and
Favours gained, spent and held per coach, and the title leaders). A coach's ledger
lines are shown only to that coach and the organiser on the site, so the anonymous
API gives the table's totals, not the lines. Mounted by the layer's declaration
(campaigns/game.py). No ``from __future__ import annotations``: django-ninja
reads the parameters' types."""

from django.http import Http404
from ninja import Query, Router, Schema

from campaigns import selectors
from league.api.answers import league_get, season_for

router = Router(tags=["Big League"])


class CampaignRow(Schema):
    coach: str
    guild: str | None
    lp: int
    cp: int
    moments: int
    favours_gained: int
    favours_spent: int
    favours_balance: int


class Leaders(Schema):
    league_champion: list[str]
    master_strategos: list[str]
    master_of_shadows: list[str]


class CampaignTable(Schema):
    league: str
    season: str
    coaches: list[CampaignRow]
    leaders: Leaders


class SeasonQuery(Schema):
    season: str = ""


@league_get(router, "/leagues/{slug}/campaign/", CampaignTable, summary="A Big League season's campaign table",
            url_name="bigleague_campaign")
def campaign(request, slug: str, params: Query[SeasonQuery]):
    league, season = season_for(slug, params.season)
    if league.game_system != "guildball":
        raise Http404(f"{league} is not a Big League.")
    return selectors.campaign_feed(selectors.campaign_of(season))
