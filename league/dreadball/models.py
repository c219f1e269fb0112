"""DreadBall's own data (RULES.md DR-3 to DR-5): a league's points settings, the
details of each result, the published teams and each coach's team and roster.

Every number is bounded here by a named CheckConstraint, in the forms and in the
services (STYLE habit 15)."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import F, Q

# DR-4: points are league settings; a sanity ceiling keeps a typo out of the table.
MAX_POINTS = 10
# DR-3: a win is by 1 to 7; 7 is a landslide and ends the game at once (DR-2).
MAX_DIFFERENCE = 7
LANDSLIDE_DIFFERENCE = 7
# DR-2: the game lasts 14 Rushes unless a landslide ends it sooner.
REGULATION_RUSHES = 14
# DR-3 Decision: Sudden Death can run on; 30 Rushes in all is far beyond any real game.
MAX_RUSH = 30
# Derived from DR-1 and DR-2: Sudden Death starts level, a Rush ends with its first
# Strike (worth 1 to 4) and the game ends at the end of the Visiting team's Rush as
# soon as one side is ahead, so a Sudden Death game is won by at most 4.
SUDDEN_DEATH_MAX_DIFFERENCE = 4

# DR-5: players' stats. Move is hexes; the others are dice targets (4 means 4+).
MAX_MOVE = 9
MIN_TARGET, MAX_TARGET = 2, 6
MAX_COST = 50  # mc; a sanity bound well above any single player's price
MAX_ROSTER = 20  # players of one position on a team: a sanity bound above any Team Card's limit


def _points_field(label: str, default: int, help_text: str) -> models.PositiveSmallIntegerField:
    return models.PositiveSmallIntegerField(
        label,
        default=default,
        validators=[MinValueValidator(0), MaxValueValidator(MAX_POINTS)],
        help_text=help_text,
    )


class DreadBallSettings(models.Model):
    """DR-4 Decision: League Points per result, 3/2/1/0 unless the league says otherwise."""

    league = models.OneToOneField("league.League", on_delete=models.CASCADE, related_name="dreadball_settings")
    landslide_win = _points_field("points for a landslide win", 3, "DR-4: a win by 7.")
    win = _points_field("points for another win", 2, "DR-4: a win by 1 to 6, after 14 Rushes or in Sudden Death.")
    draw = _points_field("points for a draw", 1, "DR-4: only when neither team can score in Sudden Death (DR-2).")
    loss = _points_field("points for a loss", 0, "DR-4: also each side's points for an abandoned match.")
    head_to_head_first = models.BooleanField(
        "head-to-head first", default=False,
        help_text="DR-4: a house rule. Among teams level on League Points, the League Points they earned in their "
                  "games against each other decide first, then Strike Difference and landslides won.",
    )

    class Meta:
        verbose_name = "DreadBall settings"
        verbose_name_plural = "DreadBall settings"
        constraints = [
            models.CheckConstraint(condition=Q(**{f"{name}__lte": MAX_POINTS}), name=f"dreadball_{name}_points_bounded")
            for name in ("landslide_win", "win", "draw", "loss")
        ]

    def __str__(self) -> str:
        return f"landslide {self.landslide_win}, win {self.win}, draw {self.draw}, loss {self.loss}"


class DreadBallResult(models.Model):
    """What a DreadBall result records beyond the engine's outcome (DR-3). An
    abandoned match has none: it is a loss for both with no Strike Difference.

    The checks mirror the DR-3 Decision, so no row can say what no game could end in."""

    result = models.OneToOneField("league.Result", on_delete=models.CASCADE, related_name="dreadball_detail")
    difference = models.PositiveSmallIntegerField(
        help_text="DR-3: the final score difference, 0 for a draw or a Sudden Death win with only one team able to throw."
    )
    landslide = models.BooleanField(help_text="DR-3: exactly when the difference is 7.")
    rush = models.PositiveSmallIntegerField(help_text="DR-3: the Rush the game ended in, counted from the start.")
    sudden_death = models.BooleanField(help_text="DR-2: level after 14 Rushes.")

    class Meta:
        verbose_name = "DreadBall result"
        constraints = [
            models.CheckConstraint(condition=Q(difference__lte=MAX_DIFFERENCE), name="dreadball_difference_bounded"),
            models.CheckConstraint(condition=Q(rush__gte=1, rush__lte=MAX_RUSH), name="dreadball_rush_bounded"),
            models.CheckConstraint(
                condition=Q(landslide=True, difference=LANDSLIDE_DIFFERENCE)
                | Q(landslide=False, difference__lt=LANDSLIDE_DIFFERENCE),
                name="dreadball_landslide_is_difference_7",
            ),
            models.CheckConstraint(
                condition=Q(sudden_death=True, rush__gt=REGULATION_RUSHES)
                | Q(sudden_death=False, rush__lte=REGULATION_RUSHES),
                name="dreadball_sudden_death_after_rush_14",
            ),
            models.CheckConstraint(
                condition=Q(rush__gte=REGULATION_RUSHES) | Q(landslide=True), name="dreadball_early_end_is_landslide"
            ),
            # A difference of 0 is a draw or a Sudden Death win with only one team able
            # to throw (DR-3 Decision): either way Sudden Death was played.
            models.CheckConstraint(
                condition=Q(difference__gt=0) | Q(sudden_death=True), name="dreadball_draw_needs_sudden_death"
            ),
            models.CheckConstraint(
                condition=Q(sudden_death=False) | Q(difference__lte=SUDDEN_DEATH_MAX_DIFFERENCE),
                name="dreadball_sudden_death_difference_bounded",
            ),
        ]

    def __str__(self) -> str:
        return f"difference {self.difference}, Rush {self.rush}{', Sudden Death' if self.sudden_death else ''}"


class TeamType(models.Model):
    """DR-5: a published team (the boxed game's two, then any a superuser adds).
    Those without a ``league`` are every league's, the superuser's to add; one with
    a league is its organiser's, offered to that league only, beside the others."""

    name = models.CharField(max_length=80)
    race = models.CharField(max_length=80, help_text="The race or faction its players are: Robots, Yndij ...")
    notes = models.TextField(blank=True)
    league = models.ForeignKey(
        "league.League", null=True, blank=True, on_delete=models.CASCADE, related_name="dreadball_team_types",
        help_text="Empty: every league's. A league's own published team is its organiser's to edit.",
    )

    class Meta:
        ordering = ["name"]
        verbose_name = "published team"
        constraints = [
            models.UniqueConstraint(fields=["name"], condition=Q(league__isnull=True),
                                    name="dreadball_team_type_name_unique_site_wide"),
            models.UniqueConstraint(fields=["league", "name"], name="dreadball_team_type_name_unique_in_league"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.race})"


class Role(models.TextChoices):
    GUARD = "guard", "Guard"
    JACK = "jack", "Jack"
    STRIKER = "striker", "Striker"


def _target_field(label: str) -> models.PositiveSmallIntegerField:
    return models.PositiveSmallIntegerField(
        label, validators=[MinValueValidator(MIN_TARGET), MaxValueValidator(MAX_TARGET)], help_text="4 means 4+."
    )


def _player_bounds(prefix: str) -> list[models.CheckConstraint]:
    """DR-5: a player's role, Move, cost and target numbers within the game's bounds,
    for a roster player and a published roster line alike."""
    return [
        models.CheckConstraint(condition=Q(role__in=["guard", "jack", "striker"]), name=f"{prefix}_role_valid"),
        models.CheckConstraint(condition=Q(move__gte=1, move__lte=MAX_MOVE), name=f"{prefix}_move_bounded"),
        models.CheckConstraint(condition=Q(cost__lte=MAX_COST), name=f"{prefix}_cost_bounded"),
        *(
            models.CheckConstraint(
                condition=Q(**{f"{stat}__gte": MIN_TARGET, f"{stat}__lte": MAX_TARGET}), name=f"{prefix}_{stat}_bounded"
            )
            for stat in ("strength", "agility", "speed", "skill", "armour")
        ),
    ]


class PublishedPlayer(models.Model):
    """DR-5: one line of a published team's roster, entered once by an organiser
    from its Team Card (the seed prints none, so nothing is stored until someone
    enters it): a position with its role, stats and cost, how many players of it a
    team starts with and the most a team may field. A team made from the published
    team starts with these players (league/dreadball/services.py register_team)."""

    team_type = models.ForeignKey(TeamType, on_delete=models.CASCADE, related_name="roster")
    order = models.PositiveSmallIntegerField(default=0)
    name = models.CharField("position", max_length=60)
    role = models.CharField(max_length=7, choices=Role.choices)
    move = models.PositiveSmallIntegerField(validators=[MinValueValidator(1), MaxValueValidator(MAX_MOVE)])
    strength = _target_field("strength")
    agility = _target_field("agility")
    speed = _target_field("speed")
    skill = _target_field("skill")
    armour = _target_field("armour")
    cost = models.PositiveSmallIntegerField(
        "cost (mc)", validators=[MaxValueValidator(MAX_COST)], help_text="Millions of credits."
    )
    starting = models.PositiveSmallIntegerField(
        "starting players", default=1, validators=[MaxValueValidator(MAX_ROSTER)],
        help_text="How many of this position a team made from the published team starts with.",
    )
    maximum = models.PositiveSmallIntegerField(
        "at most", default=1, validators=[MinValueValidator(1), MaxValueValidator(MAX_ROSTER)],
        help_text="The most of this position a team may field (the Team Card's limit).",
    )

    class Meta:
        ordering = ["team_type", "order", "id"]
        verbose_name = "published roster line"
        constraints = [
            models.UniqueConstraint(fields=["team_type", "name"], name="dreadball_published_position_unique"),
            *_player_bounds("dreadball_published"),
            models.CheckConstraint(
                condition=Q(maximum__gte=1, maximum__lte=MAX_ROSTER, starting__lte=F("maximum")),
                name="dreadball_published_starting_within_limit",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.team_type.name}: {self.name}"

    def clean(self) -> None:
        if self.starting is not None and self.maximum is not None and self.starting > self.maximum:
            raise ValidationError({"starting": f"A team starts with at most the limit of {self.maximum}."})


class DreadBallTeam(models.Model):
    """A coach's team for one season (DR-5). ``Entry.team`` carries its name for
    the engine's pages and feeds."""

    entry = models.OneToOneField("league.Entry", on_delete=models.CASCADE, related_name="dreadball_team")
    name = models.CharField(max_length=100)
    team_type = models.ForeignKey(TeamType, on_delete=models.PROTECT, related_name="teams", verbose_name="published team")

    class Meta:
        ordering = ["name"]
        verbose_name = "DreadBall team"

    def __str__(self) -> str:
        return self.name


class RosterPlayer(models.Model):
    """A player on a coach's roster (DR-5): role, stats and cost in mc."""

    team = models.ForeignKey(DreadBallTeam, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(max_length=80)
    role = models.CharField(max_length=7, choices=Role.choices)
    move = models.PositiveSmallIntegerField(validators=[MinValueValidator(1), MaxValueValidator(MAX_MOVE)])
    strength = _target_field("strength")
    agility = _target_field("agility")
    speed = _target_field("speed")
    skill = _target_field("skill")
    armour = _target_field("armour")
    cost = models.PositiveSmallIntegerField(
        "cost (mc)", validators=[MaxValueValidator(MAX_COST)], help_text="Millions of credits."
    )

    class Meta:
        ordering = ["team", "role", "name", "id"]
        constraints = [
            models.UniqueConstraint(fields=["team", "name"], name="dreadball_player_name_unique_in_team"),
            *_player_bounds("dreadball_player"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.get_role_display()})"
