"""Writes for DreadBall teams (DR-5). Each is one transaction that locks the entry
it changes; refusals are ValidationError (a message) or PermissionDenied."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Q

from league.caching import writes
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
from league.models import Entry, Result

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
    with its published team's roster. Changing the published team replaces the
    roster with the new one's while the team has played no game and is refused
    afterwards."""
    entry = _lock_entry(entry)
    _require_coach_or_organiser(entry, by)
    if entry.season.league.game_system != "dreadball":
        raise ValidationError("Only an entry of a DreadBall league fields a DreadBall team.")
    if team_type.league_id not in (None, entry.season.league_id):
        raise ValidationError({"team_type": "Choose one of the published teams this league offers."})
    name = " ".join(name.split())
    if not name:
        raise ValidationError("Give the team a name.")
    max_length = DreadBallTeam._meta.get_field("name").max_length
    if len(name) > max_length:
        raise ValidationError(f"A team name is at most {max_length} characters.")
    team = DreadBallTeam.objects.select_related("team_type").filter(entry=entry).first()
    if team is None:
        team = DreadBallTeam.objects.create(entry=entry, name=name, team_type=team_type)
        name_entry(team)
        for player in players:
            add_player(team=team, by=by, **player)
        give_published_roster(team)  # none when players were typed
        return team
    changes_type = team.team_type_id != team_type.pk
    if changes_type:
        refuse_published_team_change(team)
    team.name, team.team_type = name, team_type
    team.save(update_fields=["name", "team_type"])
    name_entry(team)
    if changes_type:
        replace_roster(team)
    for player in players:
        add_player(team=team, by=by, **player)
    return team


def refuse_published_team_change(team: DreadBallTeam) -> None:
    """DR-5: a team's players are its published team's. Once the team has played
    (any result on record for its entry, whatever its status) its games were
    played with that roster, so the published team stays; before, a change is a
    correction and the roster follows it (``replace_roster``). One query."""
    entry_id = team.entry_id
    if Result.objects.filter(Q(fixture__home_id=entry_id) | Q(fixture__away_id=entry_id)).exists():
        raise ValidationError({"team_type": (
            f"{team.name} has played a game as the {team.team_type.name}, so it keeps that published team "
            f"and its roster."
        )})


def replace_roster(team: DreadBallTeam) -> list[RosterPlayer]:
    """DR-5: a team whose published team changed before its first game drops its
    players, the old published team's, and starts with the new one's roster.
    Runs in the caller's transaction."""
    team.players.all().delete()
    return give_published_roster(team)


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
    """Keep ``Entry.team`` (what the engine shows) the team's name: the league page,
    the feeds and the fixtures show the new name at once (a bulk update sends no
    signal, so the season is told here)."""
    Entry.objects.filter(pk=team.entry_id).update(team=team.name)
    writes.changed(Q(entries__pk=team.entry_id))


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
