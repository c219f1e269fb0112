"""A campaign and its coaches: the campaign a Guild Ball season runs as (GB-1), each
coach's place in it, what a coach is told on their campaign page, and the titles
fixed on Final Day (GB-3, GB-26)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from campaigns.models.catalogue import Guild


class Campaign(models.Model):
    """A Guild Ball season run as The Big League."""

    season = models.OneToOneField("league.Season", on_delete=models.CASCADE, related_name="campaign")
    created_at = models.DateTimeField(default=timezone.now)
    final_day_declared_at = models.DateTimeField(null=True, blank=True)
    final_day_declared_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    def __str__(self) -> str:
        return str(self.season)

    @property
    def is_over(self) -> bool:
        return self.final_day_declared_at is not None


class CampaignCoach(models.Model):
    """A coach's place in a campaign. Every Favour-spending transaction locks this
    row first (select_for_update) so two requests cannot both pass the GB-19/GB-20
    checks on the same balance."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="coaches")
    entry = models.OneToOneField("league.Entry", on_delete=models.CASCADE, related_name="campaign_coach")
    guild = models.ForeignKey(Guild, null=True, blank=True, on_delete=models.PROTECT, related_name="+")

    class Meta:
        ordering = ["entry__coach__name"]
        verbose_name = "campaign coach"
        verbose_name_plural = "campaign coaches"

    def __str__(self) -> str:
        return self.entry.coach.name

    @property
    def name(self) -> str:
        return self.entry.coach.name


class Notice(models.Model):
    """Something a coach is told on their campaign page (and by email where they
    have an address): a deal the rules closed, a card that could not change hands
    (GB-20, GB-23). Append-only, newest first."""

    coach = models.ForeignKey(CampaignCoach, on_delete=models.CASCADE, related_name="notices")
    text = models.CharField(max_length=500)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.coach}: {self.text}"


class Title(models.Model):
    """GB-3/GB-26: a title fixed on Final Day (shared titles have several rows)."""

    class Name(models.TextChoices):
        LEAGUE_CHAMPION = "league_champion", "League Champion"
        MASTER_STRATEGOS = "master_strategos", "Master Strategos"
        MASTER_OF_SHADOWS = "master_of_shadows", "Master of Shadows"

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="titles")
    title = models.CharField(max_length=20, choices=Name.choices)
    coach = models.ForeignKey(CampaignCoach, on_delete=models.CASCADE, related_name="titles")
    figure = models.IntegerField(help_text="LP, CP gained or Favours spent when it was declared.")

    class Meta:
        ordering = ["campaign", "title", "coach__entry__coach__name"]
        constraints = [models.UniqueConstraint(fields=["campaign", "title", "coach"], name="title_once_per_coach")]

    def __str__(self) -> str:
        return f"{self.get_title_display()}: {self.coach}"
