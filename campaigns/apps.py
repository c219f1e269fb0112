from django.apps import AppConfig


class CampaignsConfig(AppConfig):
    name = "campaigns"
    verbose_name = "The Big League campaigns"

    def ready(self) -> None:
        # The engine reads its layers from one explicit list (league.layers); the
        # Big League adds itself to it here.
        from django.db.models import Q

        from campaigns.rulebook import SECTION
        from campaigns.layer import LAYER
        from django.db.models.signals import m2m_changed

        from campaigns.models import (
            Achievement, Campaign, CampaignCoach, CampaignPointLine, CardOffer, Deck, FavourLine, Guild, Loan, Moment,
            MomentUnlock, Notice, OwnedCard, PlotCard, Sponsorship, SponsorshipPurchase, Title,
        )
        from league import layers
        from league.caching import versions
        from league.rules import rulebook
        from league.profiles import titles as profile_titles
        from campaigns import titles

        layers.register(LAYER)
        # Who follows its kinds of fact (league/facts/).
        from campaigns import followers

        followers.register()
        # The profile's titles: the three of each Final Day (GB-3).
        profile_titles.register("The Big League", titles.titles_won)
        # Its rows in a league's file (league/transfer/).
        from campaigns.transfer import register_rows

        register_rows()
        rulebook.register(SECTION)
        # Its leaderboard and its two titles on the records pages (league/records).
        from campaigns import boards

        boards.register()
        # Its read endpoints on the API (/api/v1/).
        from league.api import registry
        from campaigns import api as campaigns_api

        registry.add(campaigns_api.router)
        # The league page's panel (title race, Final Day titles) is rendered into the
        # page's cached body: every row it reads bumps the season's version.
        versions.track(Campaign, lambda campaign: Q(pk=campaign.season_id))
        versions.track(CampaignCoach, lambda coach: Q(campaign__pk=coach.campaign_id))
        versions.track(Title, lambda title: Q(campaign__pk=title.campaign_id))
        for ledger in (CampaignPointLine, FavourLine):
            versions.track(ledger, lambda line: Q(campaign__coaches__pk=line.coach_id))
        # The organiser's dashboard keeps the Moments waiting for the Longshanks per
        # version (league/web/dashboard.py): confirming one bumps it.
        versions.track(MomentUnlock, lambda unlock: Q(campaign__coaches__pk=unlock.coach_id))
        # A coach's campaign page is kept per version too: everything it
        # shows bumps the season's version when it changes, the catalogue (edited in
        # the admin) every campaign's.
        for owned in (OwnedCard, Deck, Achievement, SponsorshipPurchase, Notice):
            versions.track(owned, lambda row: Q(campaign__coaches__pk=row.coach_id))
        versions.track(Loan, lambda loan: Q(campaign__coaches__pk=loan.borrower_id))
        versions.track(CardOffer, lambda offer: Q(campaign__coaches__pk=offer.proposer_id))
        for catalogue in (Guild, PlotCard, Sponsorship, Moment):
            versions.track(catalogue, lambda _: Q(campaign__isnull=False))
        m2m_changed.connect(_deck_cards_changed, sender=Deck.cards.through, dispatch_uid="campaigns-deck-cards")


def _deck_cards_changed(sender, instance, action, **kwargs) -> None:
    """A deck's cards changed (``deck.cards.set``): its coach's season has a new version."""
    from django.db.models import Q

    from campaigns.models import Deck
    from league.caching import versions

    if action in ("post_add", "post_remove", "post_clear"):
        coach_ids = [instance.coach_id] if isinstance(instance, Deck) else list(
            Deck.objects.filter(cards=instance).values_list("coach_id", flat=True))
        versions.bump(Q(campaign__coaches__pk__in=coach_ids))
