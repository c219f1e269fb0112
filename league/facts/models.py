"""The fact row of a write that has no history row of its own (a join, a
withdrawal, a merge, a settings change ...): what happened, in which league and
season, by whom, when, and the ids it concerns. A step of a match's result is
kept by the fixture's history (``ResultEvent``) instead."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from league.models import League, Season


class Fact(models.Model):
    kind = models.CharField(max_length=40, help_text="What happened (league/facts/kinds.py, or a game's own kind).")
    league = models.ForeignKey(League, null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    season = models.ForeignKey(Season, null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                           related_name="+")
    at = models.DateTimeField(default=timezone.now)
    # Ids, not keys: what a fact names may be deleted since (a withdrawn entry,
    # an absorbed coach) and the fact still says it happened.
    concerns = models.JSONField(default=dict, blank=True, help_text="The ids of the rows it concerns, by name.")

    class Meta:
        ordering = ["at", "pk"]
        indexes = [models.Index(fields=["league", "at"], name="fact_by_league")]

    def __str__(self) -> str:
        return f"{self.kind} at {self.at:%Y-%m-%d %H:%M}"
