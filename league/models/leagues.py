"""The league engine's play: leagues, seasons, divisions, entries, rounds,
fixtures, results and their history.

Nothing here is specific to one game: what a result means (draws, League Points,
tiebreakers) lives in each game's app (``league/<game>/rules.py``), registered in
``league.rules``.
"""

from __future__ import annotations

import datetime
import uuid

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import F, Q
from django.urls import reverse
from django.utils import timezone
from django.utils.functional import cached_property

from league.datebounds import EARLIEST, LATEST, MAX_ROUNDS, validate_match_date
from league.models.coaches import Coach
from league.rules import game_choices, rules_class  # game_choices: also named by migration 0002
from league.validators import new_webhook_secret, validate_signed_webhook_url, validate_webhook_url

# STYLE habit 15: what a person or a file can enter is bounded here too, by
# database checks (the forms and services say why in words first).
MAX_SCORE = 99  # a side's score in any game's unit (Guild Ball VP even with an override)
MAX_CADENCE_DAYS = 365


def _date_within_bounds(field: str) -> Q:
    """league/datebounds.py's range for a date column (a fixture rearranged to
    9999-12-31 broke every .ics feed that listed it)."""
    return Q(**{f"{field}__gte": EARLIEST, f"{field}__lte": LATEST})


class LeagueQuerySet(models.QuerySet):
    def organised_by(self, user) -> LeagueQuerySet:
        if user.is_superuser:
            return self
        return self.filter(organisers=user)


class League(models.Model):
    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=120, unique=True)
    game_system = models.CharField(max_length=20, choices=game_choices)  # no default game
    organisers = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name="organised_leagues")
    description = models.TextField(blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    discord_webhook = models.URLField(
        max_length=300, blank=True, validators=[validate_webhook_url],
        help_text="A Discord channel's webhook address: approved results and the new top of the table are posted there.",
    )
    webhook_url = models.URLField(
        max_length=300, blank=True, validators=[validate_signed_webhook_url],
        help_text="Any receiver's address (https): the same posts as JSON, signed with the secret below "
        "(header X-League-Signature: sha256=<HMAC-SHA256 of the body>).",
    )
    webhook_secret = models.CharField(
        max_length=64, blank=True, default=new_webhook_secret,
        help_text="The key the receiver checks the signature with. Keep it private.",
    )

    objects = LeagueQuerySet.as_manager()

    class Meta:
        ordering = ["name"]
        # The league list's order (league/selectors.py ``league_search``): a page of
        # 25 is read from the index, not sorted out of every league.
        indexes = [models.Index(fields=["name", "id"], name="league_list_order")]

    def save(self, *args, **kwargs):
        # A form may leave the secret empty (the admin's add form posted without it):
        # a league always has one, so its signed webhook can always be checked.
        if not self.webhook_secret:
            self.webhook_secret = new_webhook_secret()
            if (fields := kwargs.get("update_fields")) is not None:
                kwargs["update_fields"] = {*fields, "webhook_secret"}
        super().save(*args, **kwargs)

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("league:league_detail", args=[self.slug])

    @property
    def named_by_team(self) -> bool:
        """The game names sides by their team (Dungeon Bowl): its tables, fixture
        lists, results and feeds lead with the team, the coach under it. No query."""
        return rules_class(self.game_system).rows_named_by_team

    @cached_property
    def rules(self):
        """The league's game rules bound to its settings (one query, then cached on
        this instance)."""
        return rules_class(self.game_system).for_league(self)

    @property
    def allows_friendlies(self) -> bool:
        """Whether the organiser adds friendlies from the site (DB-5a); no query."""
        return rules_class(self.game_system).friendlies

    def is_organised_by(self, user) -> bool:
        if not user.is_authenticated:
            return False
        if user.is_superuser:
            return True
        return self.organisers.filter(pk=user.pk).exists()


class Season(models.Model):
    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(max_length=100)
    start_date = models.DateField(default=datetime.date.today, validators=[validate_match_date])
    cadence_days = models.PositiveSmallIntegerField(
        default=7,
        validators=[MinValueValidator(1), MaxValueValidator(MAX_CADENCE_DAYS)],
        help_text="GB-5: days between rounds (7 = one League Match a week).",
    )
    double_round_robin = models.BooleanField(
        default=False, help_text="GB-4: every coach meets every other coach twice, home and away."
    )
    schedule_seed = models.BigIntegerField(
        null=True, blank=True, help_text="The seed the fixture order was shuffled with, to reproduce it."
    )
    version = models.UUIDField(
        default=uuid.uuid4, editable=False, help_text="Changes with every write this season's pages show (league/caching/versions.py)."
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["league", "-start_date", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["league", "name"], name="season_name_unique_in_league"),
            models.CheckConstraint(condition=_date_within_bounds("start_date"), name="season_start_date_bounded"),
            models.CheckConstraint(
                condition=Q(cadence_days__gte=1, cadence_days__lte=MAX_CADENCE_DAYS), name="season_cadence_bounded"
            ),
        ]
        # The latest seasons of a game first (a hall of fame's finished seasons):
        # read in this order, the database stops at the first few that qualify
        # instead of testing every season of the site.
        indexes = [models.Index(fields=["start_date", "id"], name="season_by_start")]

    def __str__(self) -> str:
        return f"{self.league} – {self.name}"


class Division(models.Model):
    """DB-2: a season may be split into 2 to 4 divisions; fixtures are played and
    standings kept within each."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="divisions")
    name = models.CharField(max_length=60)

    class Meta:
        ordering = ["season", "name"]
        constraints = [models.UniqueConstraint(fields=["season", "name"], name="division_name_unique_in_season")]

    def __str__(self) -> str:
        return self.name


class Entry(models.Model):
    """A coach's place in one season, with the team (the Guild in Guild Ball) they field."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="entries")
    coach = models.ForeignKey(Coach, on_delete=models.PROTECT, related_name="entries")
    team = models.CharField(max_length=100, blank=True, help_text="The team or Guild the coach fields.")
    division = models.ForeignKey(Division, null=True, blank=True, on_delete=models.SET_NULL, related_name="entries")
    withdrawn_at = models.DateTimeField(
        null=True, blank=True,
        help_text="LG-2 Decision: when the entrant left the season; its approved results stand, its fixtures "
                  "without one are not played (Fixture.cancelled_by, league/services/entrants.py).",
    )

    class Meta:
        ordering = ["coach__name"]
        verbose_name_plural = "entries"
        constraints = [models.UniqueConstraint(fields=["season", "coach"], name="entry_one_per_coach_per_season")]

    def __str__(self) -> str:
        return self.coach.name


class Round(models.Model):
    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField(validators=[MinValueValidator(1), MaxValueValidator(MAX_ROUNDS)])
    date = models.DateField(validators=[validate_match_date])
    label = models.CharField(
        max_length=40, blank=True,
        help_text='A name instead of "Round n", for a play-off round ("Semi-finals"); set by the game that makes it.',
    )

    class Meta:
        ordering = ["season", "number"]
        constraints = [
            models.UniqueConstraint(fields=["season", "number"], name="round_number_unique_in_season"),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_positive"),
            models.CheckConstraint(condition=Q(number__lte=MAX_ROUNDS), name="round_number_bounded"),
            models.CheckConstraint(condition=_date_within_bounds("date"), name="round_date_bounded"),
        ]

    def __str__(self) -> str:
        return self.label or f"Round {self.number}"


class FixtureQuerySet(models.QuerySet):
    def with_related(self) -> FixtureQuerySet:
        return self.select_related("round", "home__coach", "away__coach", "result")

    def regular(self) -> FixtureQuerySet:
        return self.filter(stage=Fixture.Stage.REGULAR)

    def matches(self) -> FixtureQuerySet:
        return self.filter(away__isnull=False)

    def involving(self, coach: Coach) -> FixtureQuerySet:
        return self.filter(Q(home__coach=coach) | Q(away__coach=coach))

    def played(self) -> FixtureQuerySet:
        return self.filter(result__status=Result.Status.APPROVED)

    def unplayed(self) -> FixtureQuerySet:
        """Matches still to be played: no approved result, and not cancelled by a
        withdrawal (LG-2: those are never played, so they keep no season open)."""
        return self.matches().to_play().exclude(result__status=Result.Status.APPROVED)

    def to_play(self) -> FixtureQuerySet:
        """Not cancelled by a withdrawal (LG-2)."""
        return self.filter(cancelled_by__isnull=True)


class Fixture(models.Model):
    """A match between two entries in a round; a fixture with no away side is a bye.

    Only regular-season fixtures count in the standings; play-off fixtures have their
    own bracket and friendlies (cross-division ones too) count for nothing (DB-5a)."""

    class Stage(models.TextChoices):
        REGULAR = "regular", "Regular season"
        PLAYOFF = "playoff", "Play-off"
        FRIENDLY = "friendly", "Friendly"

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="fixtures")
    stage = models.CharField(max_length=10, choices=Stage.choices, default=Stage.REGULAR)
    home = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="home_fixtures")
    away = models.ForeignKey(Entry, null=True, blank=True, on_delete=models.CASCADE, related_name="away_fixtures")
    date = models.DateField(
        validators=[validate_match_date], help_text="When it is to be played; the round's date unless rearranged."
    )
    rearranged_reason = models.CharField(max_length=300, blank=True)
    label = models.CharField(
        max_length=40, blank=True,
        help_text='A name of its own instead of its round\'s: a play-off game ("Semi-final 1", "Final"); set by the game.',
    )
    cancelled_by = models.ForeignKey(
        Entry, null=True, blank=True, on_delete=models.CASCADE, related_name="cancelled_fixtures",
        help_text="LG-2 Decision: the side whose withdrawal means this fixture is not played; it stays listed, "
                  "counts for nothing for either side, and nothing can be reported or arranged for it.",
    )

    objects = FixtureQuerySet.as_manager()

    class Meta:
        ordering = ["round__number", "id"]
        constraints = [
            models.CheckConstraint(condition=~Q(home=F("away")), name="fixture_home_differs_from_away"),
            models.UniqueConstraint(
                fields=["round", "home"], condition=Q(stage="regular"), name="fixture_home_once_per_round"
            ),
            models.UniqueConstraint(
                fields=["round", "away"], condition=Q(stage="regular"), name="fixture_away_once_per_round"
            ),
            models.CheckConstraint(condition=Q(stage__in=["regular", "playoff", "friendly"]), name="fixture_stage_valid"),
            models.CheckConstraint(condition=_date_within_bounds("date"), name="fixture_date_bounded"),
            models.CheckConstraint(
                condition=Q(cancelled_by__isnull=True) | Q(cancelled_by=F("home")) | Q(cancelled_by=F("away")),
                name="fixture_cancelled_by_one_of_its_sides",
            ),
        ]

    def __str__(self) -> str:
        if self.is_bye:
            return f"{self.title}: {self.home} (bye)"
        return f"{self.title}: {self.home} v {self.away}"

    @property
    def title(self) -> str:
        """What the fixture is called on every page, feed and calendar: its own name
        (a play-off game, "Semi-final 1"), else its round's."""
        return self.label or str(self.round)

    def get_absolute_url(self) -> str:
        return reverse("league:fixture_detail", args=[self.pk])

    @classmethod
    def stage_between(cls, home: Entry, away: Entry | None, stage: str) -> str:
        """DB-5a (Decision): a fixture between entries of two divisions is a friendly
        however it was made (the admin, an import); a play-off keeps its stage."""
        if stage != cls.Stage.REGULAR or away is None:
            return stage
        if home.division_id and away.division_id and home.division_id != away.division_id:
            return cls.Stage.FRIENDLY
        return stage

    def _settle_stage(self) -> None:
        if self._state.adding and self.stage == self.Stage.REGULAR and self.home_id and self.away_id:
            self.stage = self.stage_between(self.home, self.away, self.stage)

    def clean(self) -> None:
        # Before the form checks the constraints (a regular fixture plays once per
        # round, a friendly may not): the admin's add form validates the row it saves.
        super().clean()
        self._settle_stage()

    def save(self, *args, **kwargs) -> None:
        self._settle_stage()
        super().save(*args, **kwargs)

    @property
    def is_bye(self) -> bool:
        return self.away_id is None

    @property
    def is_cancelled(self) -> bool:
        """LG-2: not played because one side withdrew."""
        return self.cancelled_by_id is not None

    @property
    def withdrawn_side(self) -> Entry | None:
        """The side whose withdrawal cancelled this fixture (LG-2), from the
        fixture's own loaded sides: no query."""
        if self.cancelled_by_id is None:
            return None
        return self.home if self.cancelled_by_id == self.home_id else self.away

    @property
    def cancelled_reason(self) -> str:
        """What every page says of a fixture a withdrawal cancelled (LG-2)."""
        side = self.withdrawn_side
        return f"not played: {side} withdrew" if side is not None else ""

    def side_of(self, coach: Coach | None) -> str | None:
        """'home' or 'away' for a coach in this fixture, None for anyone else."""
        if coach is None:
            return None
        if self.home.coach_id == coach.pk:
            return "home"
        if self.away_id and self.away.coach_id == coach.pk:
            return "away"
        return None

    def entry_for(self, side: str) -> Entry:
        return self.home if side == "home" else self.away

    @property
    def result_or_none(self) -> Result | None:
        try:
            return self.result
        except Result.DoesNotExist:
            return None


class Result(models.Model):
    """One result per fixture, moving reported -> confirmed/disputed -> approved.

    The engine keeps the workflow, the outcome and each side's score in the game's
    unit where it has one (VP, touchdowns); what else a game records lives in its
    own detail model. Only approved results count towards standings (and whatever
    a game's layer derives). Each step is kept in ``ResultEvent``.
    """

    class Outcome(models.TextChoices):
        HOME_WIN = "home", "Home win"
        AWAY_WIN = "away", "Away win"
        DRAW = "draw", "Draw"
        ABANDONED = "abandoned", "Abandoned or unplayed"

    class Status(models.TextChoices):
        REPORTED = "reported", "Awaiting confirmation"
        CONFIRMED = "confirmed", "Confirmed, awaiting approval"
        DISPUTED = "disputed", "Disputed"
        APPROVED = "approved", "Approved"

    fixture = models.OneToOneField(Fixture, on_delete=models.CASCADE, related_name="result")
    home_score = models.PositiveSmallIntegerField(null=True, blank=True, validators=[MaxValueValidator(MAX_SCORE)])
    away_score = models.PositiveSmallIntegerField(null=True, blank=True, validators=[MaxValueValidator(MAX_SCORE)])
    outcome = models.CharField(max_length=10, choices=Outcome.choices)
    conceded = models.BooleanField(default=False, help_text="DB-5a: the losing side conceded.")
    summary = models.CharField(
        max_length=100, blank=True, help_text="The score as the game writes it (\"12 – 8\", \"7–0, landslide\")."
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.REPORTED)
    reported_side = models.CharField(
        max_length=4, blank=True, choices=[("home", "Home"), ("away", "Away")],
        help_text="The side whose coach reported it; the other side confirms. Blank when the organiser entered it.",
    )
    dispute_reason = models.CharField(max_length=500, blank=True)
    # The result the disputing coach says is right: their answers to the game's own
    # report form, and its summary, for the organiser to accept instead (disputes.py).
    proposed_facts = models.JSONField(null=True, blank=True)
    proposed_summary = models.CharField(max_length=100, blank=True)
    override_reason = models.CharField(
        max_length=500, blank=True, help_text="GB-8: why the organiser accepted a score the rules reject."
    )
    reported_at = models.DateTimeField(default=timezone.now)
    approved_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(outcome__in=["home", "away", "draw", "abandoned"]), name="result_outcome_valid"
            ),
            models.CheckConstraint(
                condition=Q(status__in=["reported", "confirmed", "disputed", "approved"]), name="result_status_valid"
            ),
            models.CheckConstraint(
                condition=Q(status="approved", approved_at__isnull=False) | ~Q(status="approved"),
                name="result_approved_has_time",
            ),
            models.CheckConstraint(
                condition=Q(conceded=False) | Q(outcome__in=["home", "away"]), name="result_conceded_has_winner"
            ),
            models.CheckConstraint(
                condition=Q(home_score__lte=MAX_SCORE) & Q(away_score__lte=MAX_SCORE)
                | Q(home_score__isnull=True) | Q(away_score__isnull=True),
                name="result_scores_bounded",
            ),
        ]

    def __str__(self) -> str:
        score = f"{self.home_score}-{self.away_score}" if self.home_score is not None else self.get_outcome_display()
        return f"{self.fixture}: {score} ({self.get_status_display()})"

    @property
    def is_approved(self) -> bool:
        return self.status == self.Status.APPROVED

    @property
    def is_abandoned(self) -> bool:
        return self.outcome == self.Outcome.ABANDONED

    @property
    def confirming_side(self) -> str | None:
        if not self.reported_side:
            return None
        return "away" if self.reported_side == "home" else "home"

    def winner_side(self) -> str | None:
        if self.outcome in (self.Outcome.HOME_WIN, self.Outcome.AWAY_WIN):
            return self.outcome
        return None


class ResultEvent(models.Model):
    """The history of a fixture: every report (changed or taken back), confirmation,
    dispute, approval, correction, rearrangement and abandonment, with who and when."""

    class Action(models.TextChoices):
        REPORTED = "reported", "reported"
        CONFIRMED = "confirmed", "confirmed"
        DISPUTED = "disputed", "disputed"
        APPROVED = "approved", "approved"
        ENTERED = "entered", "entered by the organiser"
        CORRECTED = "corrected", "corrected by the organiser"
        ABANDONED = "abandoned", "abandoned"
        REARRANGED = "rearranged", "rearranged"
        REOPENED = "reopened", "reopened"
        # GB-8 Decision (every game): the reporting coach changes or takes back
        # their report while it waits for the opponent.
        CHANGED = "changed", "report changed"
        TAKEN_BACK = "taken_back", "report taken back"

    fixture = models.ForeignKey(Fixture, on_delete=models.CASCADE, related_name="events")
    action = models.CharField(max_length=12, choices=Action.choices)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    at = models.DateTimeField(default=timezone.now)
    home_score = models.PositiveSmallIntegerField(null=True, blank=True, validators=[MaxValueValidator(MAX_SCORE)])
    away_score = models.PositiveSmallIntegerField(null=True, blank=True, validators=[MaxValueValidator(MAX_SCORE)])
    summary = models.CharField(max_length=200, blank=True, help_text="The result as it stood at this step.")
    note = models.CharField(max_length=500, blank=True)

    class Meta:
        ordering = ["at", "id"]

    def __str__(self) -> str:
        return f"{self.fixture} {self.get_action_display()}"

    @property
    def described(self) -> str:
        """The action for the history line that names who took it: "corrected"
        rather than "corrected by the organiser" before "by longshanks"."""
        label = self.get_action_display()
        return label.removesuffix(" by the organiser") if self.by_id else label
