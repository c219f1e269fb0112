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
from django.utils import timezone

from league.dungeonbowl import rules

MAX_GP = 10_000_000  # far above any budget; a typo of an extra zero or two is refused
MAX_COST = 1_000_000
MAX_NUMBER = 99
MAX_NIGGLING = 10


def _profile_checks(prefix: str) -> list[models.CheckConstraint]:
    """Every characteristic inside its Blood Bowl 2020 range (``rules.RANGES``)."""
    checks = []
    for name in rules.CHARACTERISTICS:
        low, high = sorted(rules.RANGES[name])
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
    """A College of Magic and its roster. Shared by every league; a superuser adds
    the supplements' colleges in the admin."""

    name = models.CharField(max_length=60, unique=True)
    slug = models.SlugField(max_length=60, unique=True)
    reroll_cost = models.PositiveIntegerField(default=rules.DEFAULT_REROLL_COST, help_text="DB-6: gp per team re-roll when drafting.")
    wizard = models.CharField(max_length=60, help_text="The College Wizard this college's teams hire.")
    wizard_cost = models.PositiveIntegerField(default=100_000)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.CheckConstraint(condition=Q(reroll_cost__gt=0, reroll_cost__lte=MAX_COST), name="college_reroll_cost_in_range"),
            models.CheckConstraint(condition=Q(wizard_cost__lte=MAX_COST), name="college_wizard_cost_in_range"),
        ]

    def __str__(self) -> str:
        return self.name

    def roster(self) -> rules.Roster:
        """The roster as plain values for ``rules.check_draft`` (one query)."""
        positions = self.positions.select_related("group").order_by("group__order", "order", "id")
        return rules.Roster(
            self.name,
            tuple(rules.RosterPosition(p.name, p.cost, p.group.name, p.group.max_count) for p in positions),
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
                condition=Q(max_count__gte=1, max_count__lte=rules.MAX_PLAYERS), name="positiongroup_max_in_range"
            ),
        ]

    def __str__(self) -> str:
        return f"0-{self.max_count} {self.name}"


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
    def profile(self) -> rules.Profile:
        return rules.Profile(self.ma, self.st, self.ag, self.pa, self.av)

    @property
    def skills_label(self) -> str:
        return ", ".join(self.skills) or "-"
