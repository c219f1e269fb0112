"""Dungeon Bowl's play-off season (DB-5b, imported by ``models``): each play-off
fixture's place in the bracket, and the ties at qualifying places the commissioner
settled before seeding, each with its reason or its logged roll (DB-16)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q


class PlayoffSlot(models.IntegerChoices):
    """DB-5b: two semi-finals, then the final and the match for third place."""

    SEMI_1 = 1, "semi-final 1"
    SEMI_2 = 2, "semi-final 2"
    FINAL = 3, "final"
    THIRD = 4, "third place"


SEMI_FINALS = (PlayoffSlot.SEMI_1, PlayoffSlot.SEMI_2)
# What a play-off game and its round are called on every page, feed and calendar
# (the engine's Fixture.label and Round.label): never "Round 7".
GAME_TITLES = {slot: slot.label[0].upper() + slot.label[1:] for slot in PlayoffSlot}
SEMI_FINALS_ROUND = "Semi-finals"
FINALS_ROUND = "Final and third place"
# The stage names of playoffs.json and the bracket's text alternative.
STAGE_NAMES = {PlayoffSlot.SEMI_1: "semi-final", PlayoffSlot.SEMI_2: "semi-final",
               PlayoffSlot.FINAL: "final", PlayoffSlot.THIRD: "third place"}


class PlayoffGame(models.Model):
    """A play-off fixture (the engine's ``Fixture`` with stage ``playoff``) and its
    slot in the season's bracket. Created by the write that makes it needed:
    starting the play-offs, or approving the second semi-final."""

    Slot = PlayoffSlot

    season = models.ForeignKey("league.Season", on_delete=models.CASCADE, related_name="dungeonbowl_playoffs")
    fixture = models.OneToOneField("league.Fixture", on_delete=models.CASCADE, related_name="dungeonbowl_playoff")
    slot = models.PositiveSmallIntegerField(choices=PlayoffSlot.choices)

    class Meta:
        ordering = ["season", "slot"]
        constraints = [
            models.UniqueConstraint(fields=["season", "slot"], name="dbplayoff_one_fixture_per_slot"),
            models.CheckConstraint(condition=Q(slot__gte=1, slot__lte=4), name="dbplayoff_slot_1_to_4"),
        ]

    def __str__(self) -> str:
        return f"{self.season}: {self.get_slot_display()}"

    @property
    def stage(self) -> str:
        return STAGE_NAMES[self.slot]


class PlayoffTie(models.Model):
    """DB-5b: teams level on every figure at a place that decides the play-offs,
    put in order by the commissioner with a reason, or by a roll of a D6 each (the
    rolls are ``DiceRoll`` rows caused by this tie, DB-16)."""

    class How(models.TextChoices):
        REASON = "reason", "the commissioner's decision"
        ROLL = "roll", "a roll"

    season = models.ForeignKey("league.Season", on_delete=models.CASCADE, related_name="dungeonbowl_playoff_ties")
    where = models.CharField(max_length=120, help_text='A division, "division winners" or "second-placed teams".')
    places = models.CharField(max_length=40)
    teams = models.JSONField(help_text="The teams' names, best first.")
    how = models.CharField(max_length=6, choices=How.choices)
    reason = models.CharField(max_length=300, blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["season", "created_at", "id"]
        constraints = [
            models.CheckConstraint(condition=Q(how__in=["reason", "roll"]), name="dbplayofftie_how_valid"),
            models.CheckConstraint(condition=Q(how="roll") | ~Q(reason=""), name="dbplayofftie_reason_given"),
        ]

    def __str__(self) -> str:
        return f"{self.where}, places {self.places}: {', '.join(self.teams)} ({self.get_how_display()})"
