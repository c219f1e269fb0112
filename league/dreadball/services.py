"""Writes for DreadBall teams (DR-5). Each is one transaction that locks the entry
it changes; refusals are ValidationError (a message) or PermissionDenied."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction

from league.dreadball.models import (
    MAX_COST,
    MAX_MOVE,
    MAX_TARGET,
    MIN_TARGET,
    DreadBallTeam,
    Role,
    RosterPlayer,
    TeamType,
)
from league.models import Entry

STATS = ("strength", "agility", "speed", "skill", "armour")


def _lock_entry(entry: Entry) -> Entry:
    return Entry.objects.select_for_update(of=("self",)).select_related("season__league", "coach").get(pk=entry.pk)


def _require_coach_or_organiser(entry: Entry, by) -> None:
    """The entry's own coach or the league's organiser; None only for the system's
    own jobs (demo data)."""
    if by is None:
        return
    if entry.coach.user_id is not None and entry.coach.user_id == by.pk:
        return
    if entry.season.league.is_organised_by(by):
        return
    raise PermissionDenied("Only the coach of this entry or the league's organiser can change its team.")


@transaction.atomic
def register_team(
    *, entry: Entry, name: str, team_type: TeamType, by, players: Sequence[Mapping[str, Any]] = (),
) -> DreadBallTeam:
    """DR-5: the coach's team for the season: its name and the published team it
    plays. The entry's ``team`` carries the name to every page and feed. The
    ``players`` typed for it (each ``add_player``'s name, role, stats and cost,
    checked as it checks them) join its roster; a new team with none typed starts
    with its published team's roster."""
    entry = _lock_entry(entry)
    _require_coach_or_organiser(entry, by)
    if entry.season.league.game_system != "dreadball":
        raise ValidationError("Only an entry of a DreadBall league fields a DreadBall team.")
    name = " ".join(name.split())
    if not name:
        raise ValidationError("Give the team a name.")
    max_length = DreadBallTeam._meta.get_field("name").max_length
    if len(name) > max_length:
        raise ValidationError(f"A team name is at most {max_length} characters.")
    team, created = DreadBallTeam.objects.update_or_create(entry=entry, defaults={"name": name, "team_type": team_type})
    name_entry(team)
    for player in players:
        add_player(team=team, by=by, **player)
    if created:
        give_published_roster(team)
    return team


def give_published_roster(team: DreadBallTeam) -> list[RosterPlayer]:
    """DR-5: a new team starts with its published team's roster (``PublishedPlayer``,
    entered once by an organiser): each line's starting players with the line's
    role, stats and cost, named for the position ("Striker 2" when there are
    several). A team whose players were already typed keeps them and gets none.
    Runs in the caller's transaction; two queries and one insert."""
    if team.players.exists():
        return []
    taken: set[str] = set()
    players = []
    for line in team.team_type.roster.all():
        for n in range(1, line.starting + 1):
            name = line.name if line.starting == 1 else f"{line.name} {n}"
            while name in taken:  # a position named like another's numbered player
                name = f"{name}*"
            taken.add(name)
            players.append(RosterPlayer(
                team=team, name=name[:RosterPlayer._meta.get_field("name").max_length], role=line.role,
                move=line.move, strength=line.strength, agility=line.agility, speed=line.speed, skill=line.skill,
                armour=line.armour, cost=line.cost,
            ))
    return RosterPlayer.objects.bulk_create(players)


def name_entry(team: DreadBallTeam) -> None:
    """Keep ``Entry.team`` (what the engine shows) the team's name."""
    Entry.objects.filter(pk=team.entry_id).update(team=team.name)


@transaction.atomic
def add_player(
    *, team: DreadBallTeam, by, name: str, role: str, move: int, strength: int, agility: int, speed: int,
    skill: int, armour: int, cost: int,
) -> RosterPlayer:
    """DR-5: a player with a role, stats and a cost in mc, each within its bounds."""
    entry = _lock_entry(team.entry)
    _require_coach_or_organiser(entry, by)
    name = " ".join(name.split())
    if not name:
        raise ValidationError("Give the player a name.")
    if role not in Role.values:
        raise ValidationError("A player is a Guard, a Jack or a Striker.")
    if not 1 <= move <= MAX_MOVE:
        raise ValidationError(f"Move is 1 to {MAX_MOVE}.")
    stats = {"strength": strength, "agility": agility, "speed": speed, "skill": skill, "armour": armour}
    for stat, value in stats.items():
        if not MIN_TARGET <= value <= MAX_TARGET:
            raise ValidationError(f"{stat.capitalize()} is a dice target from {MIN_TARGET}+ to {MAX_TARGET}+.")
    if not 0 <= cost <= MAX_COST:
        raise ValidationError(f"A player costs 0 to {MAX_COST} mc.")
    if team.players.filter(name=name).exists():
        raise ValidationError(f"{team.name} already has a player called {name}.")
    return RosterPlayer.objects.create(team=team, name=name, role=role, move=move, cost=cost, **stats)
