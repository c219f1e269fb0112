"""A league's own published teams (DR-5): the organiser adds a published team the
site does not have yet, for their league only, and enters its roster lines from
its Team Card. The site-wide ones (``TeamType.league`` empty) stay the
superuser's. Each write is one transaction, permission-checked; refusals are
``ValidationError`` with the reason, nothing half-written.

A team made from a published team copies its roster when it is made
(``services.give_published_roster``), so changing a roster line later changes no
team already made.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q, QuerySet

from league.permissions import require_organiser
from league.dreadball.models import PublishedPlayer, TeamType
from league.models import League

GAME_SYSTEM = "dreadball"
LINE_FIELDS = ("name", "role", "move", "strength", "agility", "speed", "skill", "armour", "cost", "starting",
               "maximum")


def offered_to(league: League) -> QuerySet[TeamType]:
    """The published teams a league's coaches pick from: every league's, then the
    league's own."""
    return TeamType.objects.filter(Q(league__isnull=True) | Q(league=league))


def _check(league: League, by) -> None:
    require_organiser(league, by)
    if league.game_system != GAME_SYSTEM:
        raise ValidationError("Only a DreadBall league has published teams.")


def _refuse_taken_name(league: League, name: str, *, exclude: int | None = None) -> None:
    taken = offered_to(league).filter(name__iexact=name).exclude(pk=exclude)
    if taken.exists():
        raise ValidationError({"name": f"The league's coaches can already pick a published team called {name}."})


@transaction.atomic
def save_team_type(*, league: League, by, values: Mapping[str, Any], team_type: TeamType | None = None) -> TeamType:
    """Add a published team of the league's own (``team_type`` None) or change the
    name, race or notes of one: never a site-wide one."""
    _check(league, by)
    League.objects.select_for_update().get(pk=league.pk)  # two adds of one name queue up here
    if team_type is not None:
        team_type = TeamType.objects.select_for_update().get(pk=team_type.pk)
        if team_type.league_id != league.pk:
            raise ValidationError("A published team every league uses is the site's to change, not a league's.")
    else:
        team_type = TeamType(league=league)
    name = " ".join(str(values.get("name", "")).split())
    _refuse_taken_name(league, name, exclude=team_type.pk)
    team_type.name, team_type.race, team_type.notes = name, values.get("race", ""), values.get("notes", "")
    team_type.full_clean()
    team_type.save()
    return team_type


@transaction.atomic
def add_roster_line(*, league: League, by, team_type: TeamType, values: Mapping[str, Any]) -> PublishedPlayer:
    """A roster line of one of the league's own published teams, last in its order."""
    _check(league, by)
    team_type = TeamType.objects.select_for_update().get(pk=team_type.pk)
    if team_type.league_id != league.pk:
        raise ValidationError("A published team every league uses is the site's to change, not a league's.")
    if team_type.roster.filter(name__iexact=str(values.get("name", "")).strip()).exists():
        raise ValidationError({"name": f"The {team_type.name} has a {values.get('name')} line already."})
    last = team_type.roster.order_by("-order").values_list("order", flat=True).first()
    line = PublishedPlayer(team_type=team_type, order=(last or 0) + 1,
                           **{name: values.get(name) for name in LINE_FIELDS})
    line.full_clean()
    line.save()
    return line


@transaction.atomic
def remove_roster_line(*, league: League, by, line_id: int) -> PublishedPlayer:
    """Take a line off one of the league's own published teams' rosters (teams made
    already keep their players)."""
    _check(league, by)
    line = (PublishedPlayer.objects.select_for_update(of=("self",)).select_related("team_type")
            .filter(pk=line_id, team_type__league=league).first())
    if line is None:
        raise ValidationError("That line is not on a published team of this league's own.")
    line.delete()
    return line
