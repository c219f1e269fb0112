from django.apps import AppConfig


class CampaignsConfig(AppConfig):
    name = "campaigns"
    verbose_name = "The Big League campaigns"

    def ready(self) -> None:
        # The engine reads its layers from one explicit list (league.layers); the
        # Big League adds itself to it here.
        from django.db.models import Q

        from campaigns.layer import LAYER
        from campaigns.models import Campaign, CampaignCoach, CampaignPointLine, FavourLine, MomentUnlock, Title
        from league import layers, versions

        layers.register(LAYER)
        # The league page's panel (title race, Final Day titles) is rendered into the
        # page's cached body: every row it reads bumps the season's version.
        versions.track(Campaign, lambda campaign: Q(pk=campaign.season_id))
        versions.track(CampaignCoach, lambda coach: Q(campaign__pk=coach.campaign_id))
        versions.track(Title, lambda title: Q(campaign__pk=title.campaign_id))
        for ledger in (CampaignPointLine, FavourLine):
            versions.track(ledger, lambda line: Q(campaign__coaches__pk=line.coach_id))
        # The organiser's dashboard keeps the Moments waiting for the Longshanks per
        # version (league/dashboard.py, issue 23): confirming one bumps it.
        versions.track(MomentUnlock, lambda unlock: Q(campaign__coaches__pk=unlock.coach_id))
