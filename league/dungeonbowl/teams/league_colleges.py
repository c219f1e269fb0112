"""A Dungeon Bowl league's own Colleges of Magic (DB-6, DB-7): its organiser adds
a college the site lacks (a supplement's, a house rule's) for their league only,
with its roster: position groups (each a limit, "0-2 Special") and positions.
Every league's colleges stay the superuser's. Each write is one transaction,
permission-checked; refusals are ``ValidationError`` with the reason, nothing
half-written. A drafted team keeps its players: a position a team has hired is
never removed."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.text import slugify

from league.permissions import require_organiser
from league.dungeonbowl.models import College, Position, PositionGroup
from league.dungeonbowl.models.teams import GAME_SYSTEM
from league.models import League

COLLEGE_FIELDS = ("name", "reroll_cost", "wizard", "wizard_cost")
POSITION_FIELDS = ("name", "cost", "ma", "st", "ag", "pa", "av", "primary", "secondary")
MAX_SLUG_TRIES = 50


def _check(league: League, by) -> None:
    require_organiser(league, by)
    if league.game_system != GAME_SYSTEM:
        raise ValidationError("Only a Dungeon Bowl league has colleges.")


def _own(league: League, college_id: int) -> College:
    college = College.objects.select_for_update().filter(pk=college_id).first()
    if college is None or college.league_id != league.pk:
        raise ValidationError("A college every league uses is the site's to change, not a league's.")
    return college


def _free_slug(league: League, name: str) -> str:
    """College slugs are one namespace for the site (the draft page's ``?college=``)."""
    base = (slugify(name) or "college")[:40]
    taken = set(College.objects.filter(slug__startswith=base).values_list("slug", flat=True))
    for number in range(1, MAX_SLUG_TRIES + 1):
        slug = base if number == 1 else f"{base}-{number}"
        if slug not in taken:
            return slug
    raise ValidationError({"name": "Too many colleges have this name already; choose another."})


@transaction.atomic
def save_college(*, league: League, by, values: Mapping[str, Any], college: College | None = None) -> College:
    """Add a college of the league's own (``college`` None) or change its name,
    re-roll cost and wizard."""
    _check(league, by)
    League.objects.select_for_update().get(pk=league.pk)  # two adds of one name queue up here
    name = " ".join(str(values.get("name", "")).split())
    if college is not None:
        college = _own(league, college.pk)
    else:
        college = College(league=league, slug=_free_slug(league, name))
    if College.for_league(league.pk).filter(name__iexact=name).exclude(pk=college.pk).exists():
        raise ValidationError({"name": f"The league's coaches can already draft from a college called {name}."})
    for field in COLLEGE_FIELDS:
        setattr(college, field, values.get(field))
    college.name = name
    college.full_clean()
    college.save()
    return college


@transaction.atomic
def add_group(*, league: League, by, college: College, name: str, max_count: int) -> PositionGroup:
    """A roster line's limit on one of the league's own colleges, last in order."""
    _check(league, by)
    college = _own(league, college.pk)
    name = " ".join(name.split())
    if college.groups.filter(name__iexact=name).exists():
        raise ValidationError({"name": f"{college.name} has a {name} line already."})
    last = college.groups.order_by("-order").values_list("order", flat=True).first()
    group = PositionGroup(college=college, name=name, max_count=max_count, order=(last or 0) + 1)
    group.full_clean()
    group.save()
    return group


@transaction.atomic
def add_position(*, league: League, by, college: College, group: PositionGroup, values: Mapping[str, Any],
                 skills: list[str]) -> Position:
    """A position of one of the league's own colleges, in one of its groups."""
    _check(league, by)
    college = _own(league, college.pk)
    if group.college_id != college.pk:
        raise ValidationError({"group": "Choose a line of this college."})
    name = " ".join(str(values.get("name", "")).split())
    if college.positions.filter(name__iexact=name).exists():
        raise ValidationError({"name": f"{college.name} has a {name} already."})
    last = college.positions.order_by("-order").values_list("order", flat=True).first()
    position = Position(college=college, group=group, order=(last or 0) + 1, skills=skills,
                        **{field: values.get(field) for field in POSITION_FIELDS})
    position.name = name
    position.primary, position.secondary = position.primary or "", position.secondary or ""
    position.full_clean()
    position.save()
    return position


@transaction.atomic
def remove_position(*, league: League, by, position_id: int) -> Position:
    """Take a position off one of the league's own colleges, while no team has
    hired one."""
    _check(league, by)
    position = (Position.objects.select_for_update(of=("self",)).select_related("college")
                .filter(pk=position_id, college__league=league).first())
    if position is None:
        raise ValidationError("That position is not on a college of this league's own.")
    if position.players.exists():
        raise ValidationError(f"A team has hired a {position.name}: the position stays on {position.college.name}.")
    position.delete()
    return position
