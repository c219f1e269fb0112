"""Guild Ball's per-league settings (GB-8)."""

from __future__ import annotations

from django.db import models
from django.db.models import Q

VP_TARGETS = [(6, "6 VP (quick game)"), (8, "8 VP (quick game)"), (12, "12 VP (standard)")]


class GuildBallSettings(models.Model):
    league = models.OneToOneField("league.League", on_delete=models.CASCADE, related_name="guildball_settings")
    vp_target = models.PositiveSmallIntegerField(
        "VP target", default=12, choices=VP_TARGETS, help_text="GB-8: the Victory Points that win a game."
    )

    class Meta:
        verbose_name = "Guild Ball settings"
        verbose_name_plural = "Guild Ball settings"
        constraints = [models.CheckConstraint(condition=Q(vp_target__in=[6, 8, 12]), name="guildball_vp_target_valid")]

    def __str__(self) -> str:
        return f"games to {self.vp_target} VP"
