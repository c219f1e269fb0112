"""A new league from the site: the league, its game's settings with
the rulebook's defaults, its first season, and its creator as its organiser; one
transaction. The creator is an organiser through ``League.organisers`` only: not
staff, in no group, so the admin stays the superuser's (league/permissions.py
``make_organiser`` is for the demo's organisers, who use the admin too)."""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils.text import slugify

from league import datebounds
from league.models import League, Season
from league.permissions import may_create_league
from league.rules import GAMES, rules_class

MAX_SLUG_TRIES = 50
RESERVED = {"new"}  # /leagues/new/ is the new-league page


def free_slug(name: str) -> str:
    """A slug for ``name`` no league has: its slugified name, else with -2, -3 ..."""
    base = slugify(name)[:100] or "league"
    if base in RESERVED:
        base = f"{base}-league"
    taken = set(League.objects.filter(slug__startswith=base).values_list("slug", flat=True))
    for number in range(1, MAX_SLUG_TRIES + 1):
        slug = base if number == 1 else f"{base}-{number}"
        if slug not in taken:
            return slug
    raise ValidationError("Too many leagues have this name already; choose another.")


def _check_name_is_free(name: str, by) -> None:
    """Two leagues of the same name (whatever the case) cannot be told apart on the
    league list, in mail subjects or in a calendar: the second is refused, saying
    whose it is when it is the creator's own (a form sent twice, say)."""
    same = League.objects.filter(name__iexact=name).only("pk", "name").first()
    if same is None:
        return
    if same.organisers.filter(pk=by.pk).exists():
        message = f"You already run a league called \u201c{same.name}\u201d: open it from the league list, or give this one another name."
    else:
        message = (f"There is already a league called \u201c{same.name}\u201d on this site: give yours another name, "
                   "for example with your club or town in it.")
    raise ValidationError({"name": message})


@transaction.atomic
def create_league(
    *, by, name: str, game_system: str, settings: Mapping[str, Any], season_name: str,
    start_date: datetime.date, cadence_days: int, double_round_robin: bool, description: str = "",
) -> League:
    if not may_create_league(by):
        raise PermissionDenied("Your account cannot create leagues yet.")
    if game_system not in GAMES:
        raise ValidationError("Choose one of the games.")
    name, season_name = name.strip(), season_name.strip()
    if not name or not season_name:
        raise ValidationError("Give the league and its first season a name.")
    datebounds.validate_match_date(start_date)
    _check_name_is_free(name, by)
    league = League.objects.create(name=name, slug=free_slug(name), game_system=game_system, description=description)
    league.organisers.add(by)
    model = rules_class(game_system).settings_model
    if model is not None:
        row = model(league=league, **settings)
        row.full_clean()
        row.save()
    Season.objects.create(
        league=league, name=season_name, start_date=start_date, cadence_days=cadence_days,
        double_round_robin=double_round_robin,
    )
    return league
