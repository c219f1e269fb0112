"""The Big League's rows in a league's file (league/leaguefiles/): the catalogue it
shares with every campaign (Guilds, plot cards, sponsorships, Moments: matched by
name, created when missing), each season's campaign, its coaches, the CP and
Favour ledgers, Moments reached, cards owned and dealt, decks, achievements,
sponsorships, loans, offers, notices and titles."""

from functools import partial

from league.games import ExportRows
from league.leaguefiles.registry import Part as AnyPart
from campaigns.models import (
    Achievement, Campaign, CampaignCoach, CampaignPointLine, CardOffer, Deck, FavourLine, Guild, Loan, Moment,
    MomentUnlock, Notice, OwnedCard, PlotCard, Sponsorship, SponsorshipPurchase, Title,
)

# Only in the files of this game's leagues.
Part = partial(AnyPart, game_systems=frozenset({"guildball"}))


def export_rows() -> ExportRows:
    def everything(model):
        return lambda league: model.objects.all()

    def of_coach(model, path="coach__"):
        return lambda league: model.objects.filter(**{f"{path}campaign__season__league": league})

    return ExportRows((
        Part(Guild, everything(Guild), key=("name",)),
        Part(PlotCard, everything(PlotCard), key=("name",)),
        Part(Sponsorship, everything(Sponsorship), key=("name",)),
        Part(Moment, everything(Moment), key=("threshold",)),
        Part(Campaign, lambda league: Campaign.objects.filter(season__league=league)),
        Part(CampaignCoach, of_coach(CampaignCoach, "")),
        Part(MomentUnlock, of_coach(MomentUnlock)),
        Part(OwnedCard, of_coach(OwnedCard)),
        Part(Deck, of_coach(Deck)),
        Part(Deck.cards.through, of_coach(Deck.cards.through, "deck__coach__")),
        Part(Achievement, of_coach(Achievement)),
        Part(SponsorshipPurchase, of_coach(SponsorshipPurchase)),
        Part(Loan, of_coach(Loan, "borrower__")),
        Part(CardOffer, of_coach(CardOffer, "proposer__")),
        Part(CampaignPointLine, of_coach(CampaignPointLine)),
        Part(FavourLine, of_coach(FavourLine)),
        Part(Notice, of_coach(Notice)),
        Part(Title, lambda league: Title.objects.filter(campaign__season__league=league)),
    ))
