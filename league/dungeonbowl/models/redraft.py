"""The off-season (DB-15): a team's re-draft after a season, step by step, and the
dice it rolled (DB-16). The team as it ended the season is kept as a snapshot, so
a re-draft never hides what the team was; players who leave keep their rows with
a status. Imported by ``models`` so the app registers them."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from league.dungeonbowl.models.teams import MAX_GP, DiceRoll, Player, Team, TreasuryLine


class RedraftStep(models.IntegerChoices):
    """The step a re-draft waits on; RETIRED when the coach does not re-draft."""

    RETIRED = 0, "Not re-drafted: the team retires"
    SCOUTING = 1, "Scouting"
    RECOVERY = 2, "R&R"
    FUNDS = 3, "Raise funds"
    DRAFT = 4, "Re-draft"
    DONE = 5, "Re-drafted"


class Redraft(models.Model):
    """DB-15: one team's off-season after ``season``. Created by the first step a
    coach or the commissioner takes (a GET never writes); ``step`` moves forward one
    transaction at a time and only the commissioner takes it back."""

    Step = RedraftStep

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="redrafts")
    season = models.ForeignKey("league.Season", on_delete=models.CASCADE, related_name="dungeonbowl_redrafts",
                               help_text="The season that ended.")
    step = models.PositiveSmallIntegerField(choices=RedraftStep.choices, default=RedraftStep.SCOUTING)
    snapshot = models.JSONField(help_text="The team as it ended the season: players, re-rolls, Treasury.")
    # Raise funds (step 3), the inputs of redraft_rules.redraft_budget:
    treasury = models.IntegerField(null=True, blank=True, help_text="The Treasury carried into the budget.")
    games_played = models.PositiveSmallIntegerField(null=True, blank=True)
    league_wins = models.PositiveSmallIntegerField(null=True, blank=True)
    players_scouted = models.PositiveSmallIntegerField(null=True, blank=True)
    cap = models.BooleanField(default=False, help_text="The league's 1,300,000 gp cap was on when funds were raised.")
    budget = models.PositiveIntegerField(null=True, blank=True)
    emptied = models.OneToOneField(TreasuryLine, null=True, blank=True, on_delete=models.PROTECT, related_name="+",
                                   help_text="The ledger line that emptied the Treasury.")
    opened = models.OneToOneField(TreasuryLine, null=True, blank=True, on_delete=models.PROTECT, related_name="+",
                                  help_text="The ledger line with the unspent budget (step 4).")
    drafted = models.JSONField(null=True, blank=True, help_text="What step 4 changed, so a correction undoes exactly that.")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["team", "-season__start_date", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["team", "season"], name="dbredraft_once_per_team_and_season"),
            models.CheckConstraint(condition=Q(step__gte=0, step__lte=5), name="dbredraft_step_valid"),
            models.CheckConstraint(condition=Q(budget__lte=MAX_GP), name="dbredraft_budget_in_range"),
            models.CheckConstraint(condition=Q(treasury__gte=0, treasury__lte=MAX_GP), name="dbredraft_treasury_in_range"),
            models.CheckConstraint(
                condition=Q(step__lte=3, budget__isnull=True, emptied__isnull=True)
                | Q(step__gte=4, budget__isnull=False, emptied__isnull=False),
                name="dbredraft_budget_once_funds_are_raised",
            ),
            models.CheckConstraint(
                condition=Q(step=5, opened__isnull=False, drafted__isnull=False)
                | (~Q(step=5) & Q(opened__isnull=True, drafted__isnull=True)),
                name="dbredraft_opened_once_redrafted",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.team} after {self.season.name}: {self.get_step_display()}"


class RedraftRoll(models.Model):
    """A scouting or Niggling Injury roll of a re-draft (the roll itself is in the
    league's dice log, DB-16). A correction marks it no longer ``current``; the row
    and the roll stay."""

    class Purpose(models.TextChoices):
        SCOUTING = "scouting", "scouting"
        NIGGLING = "niggling", "Niggling Injury recovery"

    redraft = models.ForeignKey(Redraft, on_delete=models.CASCADE, related_name="rolls")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="redraft_rolls")
    roll = models.OneToOneField(DiceRoll, on_delete=models.PROTECT, related_name="redraft_roll")
    purpose = models.CharField(max_length=10, choices=Purpose.choices)
    effect = models.BooleanField(help_text="Scouting: the player left (a 6). Niggling: the injury was removed (4+).")
    current = models.BooleanField(default=True)

    class Meta:
        ordering = ["redraft", "purpose", "player__number", "id"]
        constraints = [
            models.CheckConstraint(condition=Q(purpose__in=["scouting", "niggling"]), name="dbredraftroll_purpose_valid"),
        ]

    def __str__(self) -> str:
        return f"{self.player}: {self.get_purpose_display()} {self.roll.values}"
