"""The Big League's catalogue, shared by every campaign: the guilds, the plot cards
(GB-11), the Moments they unlock (GB-12 to GB-14) and the sponsorships (GB-21)."""

from __future__ import annotations

from django.db import models
from django.db.models import Q

from campaigns.rules import MAX_ADJUSTMENT


class Guild(models.Model):
    name = models.CharField(max_length=60, unique=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class PlotCard(models.Model):
    """One plot card of the catalogue (GB-15, RULES.md Catalogue)."""

    class Kind(models.TextChoices):
        CORE = "core", "Season Two core Guild Plot"
        COMMON = "common", "Common Campaign Plot"
        RARE = "rare", "Season Two Rare Campaign Plot"
        GUILD = "guild", "Guild campaign plot"

    name = models.CharField(max_length=80, unique=True)
    kind = models.CharField(max_length=10, choices=Kind.choices)
    guild = models.ForeignKey(Guild, null=True, blank=True, on_delete=models.PROTECT, related_name="cards")
    is_rare = models.BooleanField("rare", default=False)
    cp_reward = models.PositiveSmallIntegerField("CP", default=0)
    favour_reward = models.PositiveSmallIntegerField("Favours", default=0)
    summary = models.CharField(max_length=200, help_text="What achieves the card, in a line.")
    order = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["kind", "guild__name", "order", "name"]
        constraints = [
            models.CheckConstraint(
                condition=Q(kind="guild", guild__isnull=False) | (~Q(kind="guild") & Q(guild__isnull=True)),
                name="plotcard_guild_only_for_guild_cards",
            ),
            models.CheckConstraint(
                condition=~Q(kind="rare") | Q(is_rare=True), name="plotcard_season_rares_are_rare"
            ),
            # A card's reward is a ledger line, which stays within MAX_ADJUSTMENT.
            models.CheckConstraint(
                condition=Q(cp_reward__lte=MAX_ADJUSTMENT, favour_reward__lte=MAX_ADJUSTMENT),
                name="plotcard_rewards_bounded",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def reward_label(self) -> str:
        parts = []
        if self.cp_reward:
            parts.append(f"{self.cp_reward} CP")
        if self.favour_reward:
            parts.append(f"{self.favour_reward} Favour{'s' if self.favour_reward != 1 else ''}")
        return " + ".join(parts) or "in-game only"


class Sponsorship(models.Model):
    """GB-21: the nine sponsorships a coach can buy for one Favour each."""

    name = models.CharField(max_length=80, unique=True)
    order = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["order", "name"]

    def __str__(self) -> str:
        return self.name


class Moment(models.Model):
    """GB-12: one row of the Moments table. ``repeat_every`` makes a row repeat
    beyond its threshold (Driving the Advantage: every further 20 CP from 200)."""

    class Unlocks(models.TextChoices):
        GUILD = "guild", "1 Guild card"
        RARE = "rare", "1 Rare card"

    threshold = models.PositiveSmallIntegerField(unique=True, help_text="CP total that reaches it.")
    name = models.CharField(max_length=60)
    unlocks = models.CharField(max_length=5, choices=Unlocks.choices)
    repeat_every = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["threshold"]

    def __str__(self) -> str:
        return f"{self.threshold} CP: {self.name}"
