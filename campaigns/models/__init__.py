"""The Big League (RULES.md GB-1 to GB-26), one module per part, every model
importable from here:

- ``catalogue``: guilds, plot cards, Moments and sponsorships, shared by every
  campaign;
- ``campaign``: each campaign and its coaches, their notices and Final Day's titles;
- ``ledgers``: the CP and Favour lines;
- ``holdings``: Moments reached, cards owned, decks and achievements;
- ``dealing``: Wheeling & Dealing (sponsorship purchases, loans, card offers).

A Guild Ball season *is* the campaign: ``Campaign`` hangs off ``league.Season`` and
``CampaignCoach`` off ``league.Entry``. Balances are never stored: they are sums of
the append-only ledger lines (STYLE.md habit 5). Every write goes through the
services (``campaigns.setup``, then each concern's ``services``: ``moments``,
``decks``, ``ledgers`` with its ``imports``, ``dealing``, ``finalday``). The model
modules import each other in the order above and never this package, so nothing
imports back.
"""

from __future__ import annotations

from campaigns.models.campaign import Campaign, CampaignCoach, Notice, Title
from campaigns.models.catalogue import Guild, Moment, PlotCard, Sponsorship
from campaigns.models.dealing import CardOffer, Loan, ModelType, SponsorshipPurchase, Status
from campaigns.models.holdings import Achievement, Deck, MomentUnlock, OwnedCard
from campaigns.models.ledgers import CampaignPointLine, FavourLine, LedgerLine, LineKind

__all__ = [
    "Achievement", "Campaign", "CampaignCoach", "CampaignPointLine", "CardOffer", "Deck", "FavourLine", "Guild",
    "LedgerLine", "LineKind", "Loan", "ModelType", "Moment", "MomentUnlock", "Notice", "OwnedCard", "PlotCard",
    "Sponsorship", "SponsorshipPurchase", "Status", "Title",
]
