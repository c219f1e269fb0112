"""The Big League as the engine reads it (league/games.py): a layer on Guild Ball
with its rule ids, its leaderboard and Final Day titles, its rows in a league's
file, its API endpoint, the rows its pages read and its hooks (campaigns/layer.py)."""

from __future__ import annotations

from django.db.models import Q

from campaigns import api
from campaigns.finalday import services as titles
from campaigns.boards import BIG_LEAGUE, final_day_titles
from campaigns.layer import LAYER
from campaigns.models import (
    Achievement, Campaign, CampaignCoach, CampaignPointLine, CardOffer, Deck, FavourLine, Guild, Loan, Moment,
    MomentUnlock, Notice, OwnedCard, PlotCard, Sponsorship, SponsorshipPurchase, Title,
)
from campaigns.rulebook import SECTION
from campaigns.transfer import export_rows
from campaigns.followers import FACTS
from league.games import Declaration
from league.records.titles import Titles


def _coach_of(row) -> Q:
    return Q(campaign__coaches__pk=row.coach_id)


def declaration() -> Declaration:
    return Declaration(
        name="The Big League",
        rule_entries=SECTION,
        boards=(BIG_LEAGUE,),
        # GB-3: the three of each Final Day (the League Champion is Guild Ball's).
        titles=Titles(champion=None, of_seasons=final_day_titles, won=titles.titles_won),
        export_rows=export_rows(),
        api=api.router,
        tracked={
            # The league page's panel (title race, Final Day titles) is rendered into the
            # page's cached body: every row it reads bumps the season's version.
            Campaign: lambda campaign: Q(pk=campaign.season_id),
            CampaignCoach: lambda coach: Q(campaign__pk=coach.campaign_id),
            Title: lambda title: Q(campaign__pk=title.campaign_id),
            CampaignPointLine: _coach_of,
            FavourLine: _coach_of,
            # The organiser's dashboard keeps the Moments waiting for the Longshanks per
            # version (league/web/dashboard.py): confirming one bumps it.
            MomentUnlock: _coach_of,
            # A coach's campaign page is kept per version too: everything it shows bumps
            # the season's version when it changes, the catalogue (edited in the admin)
            # every campaign's.
            **{owned: _coach_of for owned in (OwnedCard, Deck, Achievement, SponsorshipPurchase, Notice)},
            Loan: lambda loan: Q(campaign__coaches__pk=loan.borrower_id),
            CardOffer: lambda offer: Q(campaign__coaches__pk=offer.proposer_id),
            **{catalogue: lambda _: Q(campaign__isnull=False) for catalogue in (Guild, PlotCard, Sponsorship, Moment)},
        },
        # Its kinds of fact and who follows them (its mail, its signed events).
        facts=FACTS,
        layers=(LAYER,),
    )
