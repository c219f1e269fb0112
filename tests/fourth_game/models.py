from django.db import models


class RingballSettings(models.Model):
    """A league's Ringball options: the League Points of a win (a draw is 1)."""

    league = models.OneToOneField("league.League", on_delete=models.CASCADE, related_name="ringball_settings")
    win_points = models.PositiveSmallIntegerField(default=2)

    def __str__(self) -> str:
        return f"Ringball settings of {self.league}"


class Crew(models.Model):
    """A coach's crew in a Ringball league, named before or after entering a season:
    shown on the league page (a panel) and the API, carried in the league's file."""

    league = models.ForeignKey("league.League", on_delete=models.CASCADE, related_name="ringball_crews")
    coach = models.ForeignKey("league.Coach", on_delete=models.CASCADE, related_name="ringball_crews")
    name = models.CharField(max_length=60)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["league", "coach"], name="ringball_one_crew_per_coach")]

    def __str__(self) -> str:
        return self.name
