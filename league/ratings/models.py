"""Ratings per game system (RULES.md section 4): the current rating of each coach
and the rating after each week they played, derived from approved results by
league/ratings/services.py and never written otherwise."""

from __future__ import annotations

import uuid

from django.db import models
from django.db.models import Q

from league.models import Coach
from league.ratings import glicko2


class RatedGame(models.Model):
    """One row per game system that has ratings: the row a recomputation locks
    (two recomputations of one game run one after the other), the earliest week
    whose ratings wait for one (``pending_since``, marked by the write that changed
    a counted result) and the version its ranking pages are kept by (a new UUID on
    every mark, every recomputation and every change of a coach's name)."""

    game_system = models.CharField(max_length=20, primary_key=True)
    version = models.UUIDField(default=uuid.uuid4)
    pending_since = models.DateField(
        null=True, blank=True,
        help_text="The Monday from which the ratings wait for a recomputation (RT-2); empty when up to date.",
    )

    def __str__(self) -> str:
        return self.game_system


class Rating(models.Model):
    """RT-1/RT-3: a coach's rating in one game system after the latest week with a
    counted game of that game anywhere on the site."""

    coach = models.ForeignKey(Coach, on_delete=models.CASCADE, related_name="ratings")
    game_system = models.CharField(max_length=20)
    rating = models.FloatField()
    rd = models.FloatField()
    volatility = models.FloatField()
    games = models.PositiveIntegerField()
    last_week = models.DateField(help_text="The Monday of the last week the coach played a counted game.")

    class Meta:
        ordering = ["-rating", "coach__name", "coach_id"]
        constraints = [
            models.UniqueConstraint(fields=["coach", "game_system"], name="rating_one_per_coach_per_game"),
            models.CheckConstraint(condition=Q(rd__gt=0) & Q(volatility__gt=0), name="rating_rd_volatility_positive"),
        ]
        indexes = [models.Index(fields=["game_system", "-rating"], name="rating_game_rank")]

    def __str__(self) -> str:
        return f"{self.coach_id} {self.game_system}: {self.rating:.0f}"

    @property
    def provisional(self) -> bool:
        return glicko2.provisional(self.rd)


class RatingWeek(models.Model):
    """A coach's rating after a week (its Monday) in which they played: the history
    a chart draws and the state a recomputation starts from. ``games`` counts the
    coach's games up to and including this week."""

    coach = models.ForeignKey(Coach, on_delete=models.CASCADE, related_name="rating_weeks")
    game_system = models.CharField(max_length=20)
    week = models.DateField()
    rating = models.FloatField()
    rd = models.FloatField()
    volatility = models.FloatField()
    games = models.PositiveIntegerField()

    class Meta:
        ordering = ["game_system", "coach", "week"]
        constraints = [
            models.UniqueConstraint(fields=["game_system", "coach", "week"], name="ratingweek_one_per_coach_week"),
        ]
        indexes = [models.Index(fields=["game_system", "week"], name="ratingweek_game_week")]

    def __str__(self) -> str:
        return f"{self.coach_id} {self.game_system} {self.week}: {self.rating:.0f}"
