from django.apps import AppConfig
from django.db.models.signals import m2m_changed


class CampaignsConfig(AppConfig):
    name = "campaigns"
    verbose_name = "The Big League campaigns"

    def ready(self) -> None:
        # The engine reads its layers from their declarations (league/games.py): the
        # Big League declares itself here. Imported here: the declaration names the
        # app's models, loaded only now.
        from campaigns import game
        from campaigns.decks.services import deck_cards_changed
        from campaigns.models import Deck
        from league import games

        games.register(game.declaration())
        # A deck's cards are a many-to-many, whose changes no tracked row's save shows.
        m2m_changed.connect(deck_cards_changed, sender=Deck.cards.through, dispatch_uid="campaigns-deck-cards")
