"""Dungeon Bowl data (RULES.md section 2): the colleges as data (DB-7), teams and
their players (DB-6, DB-8, DB-11, DB-13), the Treasury as an append-only ledger
(DB-6, DB-10, DB-12, DB-14, DB-15) and the dice log (DB-16).

Balances are sums of ledger lines, never stored (STYLE.md habit 5). Every number
has a named CheckConstraint; the friendly messages come from ``rules`` through
``services``. Characteristics follow ``rules``: AG, PA and AV are stored as the
roster's target number ("3+" is 3), PA is null for the roster's "-".
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.contenttypes.fields import GenericForeignKey
from django.contrib.contenttypes.models import ContentType
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q, Sum
from django.db.models.functions import Lower
from django.utils import timezone

from league.dungeonbowl.teams import player_rules, rules as team_rules

MAX_GP = 10_000_000  # far above any budget; a typo of an extra zero or two is refused
MAX_COST = 1_000_000
MAX_NUMBER = 99
MAX_NIGGLING = 10


def _profile_checks(prefix: str) -> list[models.CheckConstraint]:
    """Every characteristic inside its Blood Bowl 2020 range (``player_rules.RANGES``)."""
    checks = []
    for name in player_rules.CHARACTERISTICS:
        low, high = sorted(player_rules.RANGES[name])
        condition = Q(**{f"{name}__gte": low, f"{name}__lte": high})
        if name == "pa":
            condition |= Q(pa__isnull=True)
        checks.append(models.CheckConstraint(condition=condition, name=f"{prefix}_{name}_in_range"))
    return checks


def target(value: int | None) -> str:
    """3 -> "3+", None -> "-" (how the rosters print AG, PA and AV)."""
    return "-" if value is None else f"{value}+"


# Colleges (DB-7) -----------------------------------------------------------------------


class College(models.Model):
    """A College of Magic and its roster. Without a ``league`` it is every league's:
    a superuser adds the supplements' colleges in the admin. With one it is that
    league's own, its organiser's, offered to its coaches only (``for_league``)."""

    name = models.CharField(max_length=60)
    slug = models.SlugField(max_length=60, unique=True)
    reroll_cost = models.PositiveIntegerField(default=team_rules.DEFAULT_REROLL_COST,
                                              help_text="DB-6: gp per team re-roll when drafting.")
    wizard = models.CharField(max_length=60, help_text="The College Wizard this college's teams hire.")
    wizard_cost = models.PositiveIntegerField(default=100_000)
    league = models.ForeignKey(
        "league.League", null=True, blank=True, on_delete=models.CASCADE, related_name="dungeonbowl_colleges",
        help_text="Empty: every league's. A league's own college is its organiser's to edit.",
    )

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["name"], condition=Q(league__isnull=True),
                                    name="college_name_unique_site_wide"),
            models.UniqueConstraint(fields=["league", "name"], name="college_name_unique_in_league"),
            models.CheckConstraint(condition=Q(reroll_cost__gt=0, reroll_cost__lte=MAX_COST), name="college_reroll_cost_in_range"),
            models.CheckConstraint(condition=Q(wizard_cost__lte=MAX_COST), name="college_wizard_cost_in_range"),
        ]

    def __str__(self) -> str:
        return self.name

    @classmethod
    def for_league(cls, league_id: int | None) -> models.QuerySet[College]:
        """The colleges a league's coaches draft from: every league's and its own."""
        return cls.objects.filter(Q(league__isnull=True) | Q(league_id=league_id))

    def positions_with_limits(self) -> list[tuple[Position, str]]:
        """The roster's rows with their limits in words (the prefetched positions)."""
        return positions_with_limits(self.positions.all())

    def roster(self, positions=None) -> team_rules.Roster:
        """The roster as plain values for ``team_rules.check_draft`` (one query, none
        when given the college's ``positions`` with their groups, already read)."""
        if positions is None:
            positions = self.positions.select_related("group").order_by("group__order", "order", "id")
        return team_rules.Roster(
            self.name,
            tuple(team_rules.RosterPosition(p.name, p.cost, p.group.name, p.group.max_count) for p in positions),
            self.reroll_cost,
        )


class PositionGroup(models.Model):
    """A roster line's limit, shared by its positions ("0-2 Special")."""

    college = models.ForeignKey(College, on_delete=models.CASCADE, related_name="groups")
    name = models.CharField(max_length=40)
    max_count = models.PositiveSmallIntegerField()
    order = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["college", "order", "id"]
        constraints = [
            models.UniqueConstraint(fields=["college", "name"], name="positiongroup_name_unique_in_college"),
            models.CheckConstraint(
                condition=Q(max_count__gte=1, max_count__lte=team_rules.MAX_PLAYERS), name="positiongroup_max_in_range"
            ),
        ]

    def __str__(self) -> str:
        return f"0-{self.max_count} {self.name}"


def positions_with_limits(positions) -> list[tuple[Position, str]]:
    """Each of a college's ``positions`` (their groups loaded) with its line's limit
    in words, saying when positions share it (``team_rules.limit_label``)."""
    positions = list(positions)
    names: dict[int, list[str]] = {}
    for position in positions:
        names.setdefault(position.group_id, []).append(position.name)
    return [(p, team_rules.limit_label(p.group.max_count, p.group.name, names[p.group_id])) for p in positions]


class Position(models.Model):
    college = models.ForeignKey(College, on_delete=models.CASCADE, related_name="positions")
    group = models.ForeignKey(PositionGroup, on_delete=models.CASCADE, related_name="positions")
    name = models.CharField(max_length=60)
    cost = models.PositiveIntegerField()
    ma = models.PositiveSmallIntegerField("MA")
    st = models.PositiveSmallIntegerField("ST")
    ag = models.PositiveSmallIntegerField("AG", help_text="The target number: 3 for 3+.")
    pa = models.PositiveSmallIntegerField("PA", null=True, blank=True, help_text='Empty for "-".')
    av = models.PositiveSmallIntegerField("AV", help_text="The target number: 9 for 9+.")
    skills = models.JSONField(default=list, blank=True)
    primary = models.CharField(max_length=10, blank=True, help_text="Skill categories, as the roster prints them.")
    secondary = models.CharField(max_length=10, blank=True)
    order = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["college", "group__order", "order", "id"]
        constraints = [
            models.UniqueConstraint(fields=["college", "name"], name="position_name_unique_in_college"),
            models.CheckConstraint(condition=Q(cost__lte=MAX_COST), name="position_cost_in_range"),
            *_profile_checks("position"),
        ]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        if self.group_id and self.college_id and self.group.college_id != self.college_id:
            raise ValidationError({"group": "Choose a group of this position's college."})
        if not isinstance(self.skills, list) or not all(isinstance(s, str) and s.strip() for s in self.skills):
            raise ValidationError({"skills": 'A list of skill names, e.g. ["Block", "Thick Skull"].'})

    @property
    def profile(self) -> player_rules.Profile:
        return player_rules.Profile(self.ma, self.st, self.ag, self.pa, self.av)

    @property
    def skills_label(self) -> str:
        return ", ".join(self.skills) or "-"


class Skill(models.Model):
    """A skill or trait a chosen advancement can give (DB-11): the ones the seed's
    rosters name and Dungeon Bowl's own four (migration 0009), plus what a superuser
    adds, as with colleges. ``category`` is the skill list it belongs to where known
    (G, A, S, P, M); empty, the coach's chosen category stands."""

    name = models.CharField(max_length=40)
    category = models.CharField(
        max_length=1, blank=True, choices=list(player_rules.SKILL_CATEGORIES.items()),
        help_text="The skill list it belongs to; empty when the rulebooks at hand do not say.",
    )
    # Empty: every league's skill, the superuser's. A league's own: its organiser's,
    # on that league's list only (``for_league``).
    league = models.ForeignKey(
        "league.League", null=True, blank=True, on_delete=models.CASCADE, related_name="dungeonbowl_skills",
        help_text="Empty: every league's. A league's own skill is its organiser's to edit.",
    )

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(Lower("name"), condition=Q(league__isnull=True),
                                    name="dbskill_name_unique_in_any_case"),
            models.UniqueConstraint(Lower("name"), "league", name="dbskill_name_unique_in_league"),
            models.CheckConstraint(
                condition=Q(category__in=["", *player_rules.SKILL_CATEGORIES]), name="dbskill_category_valid"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @classmethod
    def for_league(cls, league_id: int | None) -> models.QuerySet[Skill]:
        """The league's list of skills: every league's and its own."""
        return cls.objects.filter(Q(league__isnull=True) | Q(league_id=league_id))

    @property
    def label(self) -> str:
        return f"{self.name} ({self.get_category_display()})" if self.category else self.name


# Teams and players (DB-1, DB-6, DB-8, DB-11, DB-13) --------------------------------------

GAME_SYSTEM = "dungeonbowl"  # the League.game_system value of a Dungeon Bowl league


class Team(models.Model):
    """A Dungeon Bowl team of one league; it outlives a season (DB-3, DB-15). The
    Treasury is the sum of its ``TreasuryLine`` rows, never a column."""

    league = models.ForeignKey("league.League", on_delete=models.CASCADE, related_name="dungeonbowl_teams")
    coach = models.ForeignKey("league.Coach", on_delete=models.PROTECT, related_name="dungeonbowl_teams")
    college = models.ForeignKey(College, on_delete=models.PROTECT, related_name="teams")
    name = models.CharField(max_length=100)
    slug = models.SlugField(max_length=100)
    rerolls = models.PositiveSmallIntegerField("team re-rolls", default=0)
    draft_budget = models.PositiveIntegerField(default=team_rules.DEFAULT_DRAFT_BUDGET)
    draft_submitted_at = models.DateTimeField(null=True, blank=True)
    draft_locked_at = models.DateTimeField(null=True, blank=True)
    draft_locked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # DB-1: the commissioner accepts a team into the league. A coach who does not
    # play in the league yet founds a team that waits for it; only an accepted team
    # has its draft locked and enters a season (league/dungeonbowl/teams/services.py).
    accepted_at = models.DateTimeField(
        null=True, blank=True, help_text="DB-1: when the commissioner accepted the team into the league."
    )
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["league", "name"]
        constraints = [
            models.UniqueConstraint(fields=["league", "slug"], name="dbteam_slug_unique_in_league"),
            models.UniqueConstraint(fields=["league", "name"], name="dbteam_name_unique_in_league"),
            models.CheckConstraint(condition=Q(rerolls__lte=team_rules.MAX_REROLLS), name="dbteam_rerolls_0_to_8"),
            models.CheckConstraint(condition=Q(draft_budget__lte=MAX_GP), name="dbteam_draft_budget_in_range"),
            models.CheckConstraint(
                condition=Q(draft_locked_at__isnull=True) | Q(draft_submitted_at__isnull=False),
                name="dbteam_lock_only_a_submitted_draft",
            ),
            models.CheckConstraint(
                condition=Q(draft_locked_at__isnull=True) | Q(accepted_at__isnull=False),
                name="dbteam_lock_only_an_accepted_team",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def draft_locked(self) -> bool:
        return self.draft_locked_at is not None

    @property
    def accepted(self) -> bool:
        return self.accepted_at is not None

    def treasury(self) -> int:
        """DB-6: the sum of the ledger (one query)."""
        return self.treasury_lines.aggregate(total=Sum("amount"))["total"] or 0

    def value(self, *, trophy: bool = False) -> team_rules.TeamValue:
        """DB-8 (and DB-14's Trophy re-roll) over the players on the draft list."""
        players = self.players.filter(status=Player.Status.ACTIVE).select_related("position")
        return team_rules.team_value(
            (team_rules.PlayerValue(p.value, p.miss_next_game) for p in players),
            rerolls=self.rerolls, reroll_cost=self.college.reroll_cost, trophy=trophy,
        )


class PlayerQuerySet(models.QuerySet):
    def on_draft_list(self) -> PlayerQuerySet:
        return self.filter(status=Player.Status.ACTIVE)


class Player(models.Model):
    """A player and the profile they carry from game to game and season to season.
    The dead, the scouted and the fired leave the draft list by their status and
    keep their history (DB-9, DB-12, DB-15)."""

    class Status(models.TextChoices):
        ACTIVE = "active", "on the draft list"
        DEAD = "dead", "dead"
        LEFT = "left", "left the team"  # scouted (DB-15), dropped at a re-draft, an unhired Journeyman
        FIRED = "fired", "fired"

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(max_length=60)
    number = models.PositiveSmallIntegerField()
    position = models.ForeignKey(Position, on_delete=models.PROTECT, related_name="players")
    ma = models.PositiveSmallIntegerField("MA")
    st = models.PositiveSmallIntegerField("ST")
    ag = models.PositiveSmallIntegerField("AG")
    pa = models.PositiveSmallIntegerField("PA", null=True, blank=True)
    av = models.PositiveSmallIntegerField("AV")
    skills_gained = models.JSONField(default=list, blank=True)
    advancements = models.PositiveSmallIntegerField(default=0, help_text="DB-11: advancements taken, 0-6.")
    value_increase = models.PositiveIntegerField(default=0, help_text="DB-11: gp the advancements added.")
    spp = models.PositiveIntegerField("SPP", default=0, help_text="Unspent Star Player Points.")
    mvp_awards = models.PositiveSmallIntegerField("MVP awards", default=0)
    niggling_injuries = models.PositiveSmallIntegerField(default=0)
    miss_next_game = models.BooleanField(default=False)
    seasons_played = models.PositiveSmallIntegerField(default=0)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ACTIVE)
    status_reason = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    objects = PlayerQuerySet.as_manager()

    class Meta:
        ordering = ["team", "number", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["team", "number"], condition=Q(status="active"), name="dbplayer_number_unique_on_draft_list"
            ),
            models.CheckConstraint(condition=Q(number__gte=1, number__lte=MAX_NUMBER), name="dbplayer_number_1_to_99"),
            models.CheckConstraint(
                condition=Q(status__in=["active", "dead", "left", "fired"]), name="dbplayer_status_valid"
            ),
            models.CheckConstraint(
                condition=Q(advancements__lte=player_rules.MAX_ADVANCEMENTS), name="dbplayer_advancements_0_to_6"
            ),
            models.CheckConstraint(condition=Q(value_increase__lte=MAX_COST), name="dbplayer_value_increase_in_range"),
            models.CheckConstraint(condition=Q(spp__gte=0, spp__lte=10_000), name="dbplayer_spp_in_range"),
            models.CheckConstraint(condition=Q(mvp_awards__lte=1_000), name="dbplayer_mvp_awards_in_range"),
            models.CheckConstraint(
                condition=Q(niggling_injuries__lte=MAX_NIGGLING), name="dbplayer_niggling_injuries_in_range"
            ),
            models.CheckConstraint(condition=Q(seasons_played__lte=100), name="dbplayer_seasons_played_in_range"),
            *_profile_checks("dbplayer"),
        ]

    def __str__(self) -> str:
        return f"#{self.number} {self.name}"

    @property
    def value(self) -> int:
        """The current value: the position's cost plus what advancements added."""
        return self.position.cost + self.value_increase

    @property
    def profile(self) -> player_rules.Profile:
        return player_rules.Profile(self.ma, self.st, self.ag, self.pa, self.av)

    @property
    def skills(self) -> list[str]:
        return [*self.position.skills, *self.skills_gained]


# The Treasury ledger (DB-6, DB-10, DB-12, DB-14, DB-15) -----------------------------------


class TreasuryKind(models.TextChoices):
    DRAFT = "draft", "unspent draft budget"
    WINNINGS = "winnings", "winnings"
    TREASURE_ROOM = "treasure_room", "Treasure Room bonus"
    PURCHASE = "purchase", "purchase"
    INDUCEMENT = "inducement", "inducement"  # DB-6: the College Wizard for one game
    SALE = "sale", "sale"
    PRIZE = "prize", "prize"
    REDRAFT = "redraft", "re-draft"
    COMPENSATION = "compensation", "scouting compensation"
    CORRECTION = "correction", "correction"


class TreasuryLine(models.Model):
    """One append-only line of a team's gold. A correction adds the line that
    ``reverses`` another; a balance is a sum. ``cause`` links what paid or cost it
    (a result, a purchase, a dice roll)."""

    Kind = TreasuryKind

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="treasury_lines")
    amount = models.IntegerField(help_text="gp, + into the Treasury, - out of it.")
    kind = models.CharField(max_length=15, choices=Kind.choices)
    reason = models.CharField(max_length=300)
    cause_type = models.ForeignKey(ContentType, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    cause_id = models.PositiveBigIntegerField(null=True, blank=True)
    cause = GenericForeignKey("cause_type", "cause_id")
    reverses = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.RESTRICT, related_name="reversed_by"
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["cause_type", "cause_id"], name="dbtreasury_cause_idx")]
        constraints = [
            models.CheckConstraint(
                condition=Q(amount__gte=-MAX_GP, amount__lte=MAX_GP), name="dbtreasury_amount_in_range"
            ),
            # A draft that spends every coin still opens the ledger with a 0 line.
            models.CheckConstraint(
                condition=~Q(amount=0) | Q(kind__in=["draft", "redraft"]), name="dbtreasury_amount_not_zero"
            ),
            models.CheckConstraint(
                condition=Q(kind__in=TreasuryKind.values), name="dbtreasury_kind_valid"
            ),
            models.CheckConstraint(
                condition=Q(cause_type__isnull=True, cause_id__isnull=True)
                | Q(cause_type__isnull=False, cause_id__isnull=False),
                name="dbtreasury_cause_complete",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.team}: {self.amount:+,} gp ({self.get_kind_display()})"


# The dice log (DB-16) --------------------------------------------------------------------


class RollPurpose(models.TextChoices):
    WINNINGS = "winnings", "winnings"
    CASUALTY = "casualty", "Casualty table"
    LASTING_INJURY = "lasting_injury", "Lasting Injury table"
    ADVANCEMENT = "advancement", "random advancement"
    SCOUTING = "scouting", "scouting"
    NIGGLING = "niggling", "Niggling Injury recovery"
    TIE = "tie", "settling a tie"
    OTHER = "other", "other"


class DiceRoll(models.Model):
    """Every roll that moves gold or a player, made by the app or entered from the
    table by a person. Rows are never changed: a corrected game keeps its rolls. The
    one removal: dice a coach typed on a report they change or take back before
    anyone answered it, never used by the game (postgame.discard_reported_dice)."""

    Purpose = RollPurpose

    class Source(models.TextChoices):
        APP = "app", "rolled by the app"
        TABLE = "table", "rolled at the table"
        COACH = "coach", "typed by the reporting coach"  # DB-16 Decision: the coach's, until approved

    league = models.ForeignKey("league.League", on_delete=models.CASCADE, related_name="dungeonbowl_rolls")
    purpose = models.CharField(max_length=15, choices=Purpose.choices)
    description = models.CharField(max_length=200, blank=True)
    dice = models.CharField(max_length=8, help_text='What was rolled: "2D6", "D16".')
    values = models.JSONField(help_text="Each die, in the order rolled.")
    source = models.CharField(max_length=5, choices=Source.choices)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+",
        help_text="Who entered a table roll, typed it on a report, or had the app roll it.",
    )
    team = models.ForeignKey(Team, null=True, blank=True, on_delete=models.CASCADE, related_name="rolls")
    cause_type = models.ForeignKey(ContentType, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    cause_id = models.PositiveBigIntegerField(null=True, blank=True)
    cause = GenericForeignKey("cause_type", "cause_id")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["cause_type", "cause_id"], name="dbroll_cause_idx")]
        constraints = [
            models.CheckConstraint(condition=Q(purpose__in=RollPurpose.values), name="dbroll_purpose_valid"),
            models.CheckConstraint(condition=Q(source__in=["app", "table", "coach"]), name="dbroll_source_valid"),
            models.CheckConstraint(
                condition=Q(cause_type__isnull=True, cause_id__isnull=True)
                | Q(cause_type__isnull=False, cause_id__isnull=False),
                name="dbroll_cause_complete",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.dice} {self.values} ({self.get_purpose_display()})"

    @property
    def total(self) -> int:
        return sum(self.values)
