"""What a coach holds: the Moments reached (GB-12, GB-13), the cards in their pool
(GB-15), the deck for a fixture (GB-16) and the plot cards achieved in a match
(GB-17)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from campaigns.models.campaign import CampaignCoach
from campaigns.models.catalogue import PlotCard, Moment
from campaigns.rules import MAX_CP_TOTAL


class MomentUnlock(models.Model):
    """GB-12/GB-13: a Moment a coach has reached. The Longshanks confirms it, then
    the coach picks the card. The row stays if a correction takes the CP total back
    below the threshold: the page shows it as no longer reached."""

    coach = models.ForeignKey(CampaignCoach, on_delete=models.CASCADE, related_name="unlocks")
    # An integer, not a smallint: a repeating Moment reaches any threshold up to
    # MAX_CP_TOTAL (PostgreSQL's smallint stopped at 32,767: a 500).
    threshold = models.PositiveIntegerField()
    name = models.CharField(max_length=60)
    unlocks = models.CharField(max_length=5, choices=Moment.Unlocks.choices)
    reached_at = models.DateTimeField(default=timezone.now)
    confirmed_at = models.DateTimeField(null=True, blank=True)
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["coach", "threshold"]
        constraints = [
            models.UniqueConstraint(fields=["coach", "threshold"], name="unlock_once_per_threshold"),
            models.CheckConstraint(condition=Q(threshold__lte=MAX_CP_TOTAL), name="unlock_threshold_bounded"),
        ]

    def __str__(self) -> str:
        return f"{self.coach}: {self.name} ({self.threshold} CP)"


class OwnedCard(models.Model):
    """A Guild or Rare card in a coach's pool beyond the base pool (GB-15): picked at
    a Moment, bought or swapped. ``gone_at`` is set when it leaves by sale or swap."""

    class Source(models.TextChoices):
        START = "start", "starting pick"
        MOMENT = "moment", "Moment unlock"
        BOUGHT = "bought", "bought"
        SWAPPED = "swapped", "swapped"

    coach = models.ForeignKey(CampaignCoach, on_delete=models.CASCADE, related_name="owned_cards")
    card = models.ForeignKey(PlotCard, on_delete=models.PROTECT, related_name="+")
    source = models.CharField(max_length=8, choices=Source.choices)
    unlock = models.OneToOneField(
        MomentUnlock, null=True, blank=True, on_delete=models.PROTECT, related_name="picked"
    )
    acquired_at = models.DateTimeField(default=timezone.now)
    gone_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["card__name"]
        constraints = [
            models.UniqueConstraint(
                fields=["coach", "card"], condition=Q(gone_at__isnull=True), name="owned_card_once_in_pool"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.card} ({self.coach})"

    @property
    def is_locked(self) -> bool:
        """GB-14: the starting pick can never change hands."""
        return self.source == self.Source.START


class Deck(models.Model):
    """GB-16: the 12 distinct pool cards a coach registers for one fixture."""

    coach = models.ForeignKey(CampaignCoach, on_delete=models.CASCADE, related_name="decks")
    fixture = models.ForeignKey("league.Fixture", on_delete=models.CASCADE, related_name="campaign_decks")
    cards = models.ManyToManyField(PlotCard, related_name="+")
    registered_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-fixture__round__number"]
        constraints = [models.UniqueConstraint(fields=["coach", "fixture"], name="deck_one_per_coach_per_fixture")]

    def __str__(self) -> str:
        return f"{self.coach}'s deck for {self.fixture}"


class Achievement(models.Model):
    """GB-17: a campaign plot card a coach achieved in a fixture (from their deck)."""

    fixture = models.ForeignKey("league.Fixture", on_delete=models.CASCADE, related_name="campaign_achievements")
    coach = models.ForeignKey(CampaignCoach, on_delete=models.CASCADE, related_name="achievements")
    card = models.ForeignKey(PlotCard, on_delete=models.PROTECT, related_name="+")
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    recorded_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["fixture", "coach", "card__name"]
        constraints = [
            models.UniqueConstraint(fields=["fixture", "coach", "card"], name="achievement_once_per_card_per_match")
        ]

    def __str__(self) -> str:
        return f"{self.coach}: {self.card} in {self.fixture}"
