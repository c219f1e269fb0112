from django.db import models


class RingballSettings(models.Model):
    """A league's Ringball options: the League Points of a win (a draw is 1)."""

    league = models.OneToOneField("league.League", on_delete=models.CASCADE, related_name="ringball_settings")
    win_points = models.PositiveSmallIntegerField(default=2)

    def __str__(self) -> str:
        return f"Ringball settings of {self.league}"
