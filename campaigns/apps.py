from django.apps import AppConfig
from django.db.models import Q
from django.db.models.signals import m2m_changed


class CampaignsConfig(AppConfig):
    name = "campaigns"
    verbose_name = "The Big League campaigns"

    def ready(self) -> None:
        # The engine reads its layers from their declarations (league/games.py): the
        # Big League declares itself here. Imported here: the declaration names the
        # app's models, loaded only now.
        from campaigns import game
        from campaigns.models import Deck
        from league import games

        games.register(game.declaration())
        m2m_changed.connect(_deck_cards_changed, sender=Deck.cards.through, dispatch_uid="campaigns-deck-cards")


def _deck_cards_changed(sender, instance, action, **kwargs) -> None:
    """A deck's cards changed (``deck.cards.set``): its coach's season has a new version."""
    # Imported here: apps.py loads before any model (Django's app loading), and this
    # receiver, connected from ready(), sits beside it.
    from campaigns.models import Deck
    from league.caching import versions

    if action in ("post_add", "post_remove", "post_clear"):
        coach_ids = [instance.coach_id] if isinstance(instance, Deck) else list(
            Deck.objects.filter(cards=instance).values_list("coach_id", flat=True))
        versions.bump(Q(campaign__coaches__pk__in=coach_ids))
