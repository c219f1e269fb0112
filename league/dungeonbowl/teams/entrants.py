"""Who is ready to play a Dungeon Bowl season (DB-1, DB-6): each coach entered in
the season, or with a team in the league, and how far their team has come: founded
(DB-1), drafted and submitted (DB-6), locked by the commissioner (DB-1), entered
in the season. The commissioner's one-click steps are here: lock every submitted
draft, enter every locked team. An entry made for a coach before their team
existed (the Coaches page, pasted names, a join link) becomes that team's entry
(``services.enter_team``), so its fixtures are the team's."""

from __future__ import annotations

from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import transaction
from django.urls import reverse

from league.dungeonbowl.teams import services
from league.dungeonbowl.models import Team, TeamSeason
from league.models import Coach, Entry, League, Season
from league.text.words import plural


class State:
    """How far a coach's team has come, in order."""

    NO_TEAM = "no team"
    DRAFTING = "drafting"
    SUBMITTED = "submitted"
    LOCKED = "locked"
    ENTERED = "entered"


LABELS = {
    State.NO_TEAM: "No team yet: founds and drafts it on the site",
    State.DRAFTING: "Team founded, draft not submitted",
    State.SUBMITTED: "Draft submitted: to lock",
    State.LOCKED: "Draft locked: ready to enter",
    State.ENTERED: "Entered",
}


@dataclass
class Row:
    coach: Coach
    entry: Entry | None
    team: Team | None
    state: str

    @property
    def label(self) -> str:
        return LABELS[self.state]


def _state(entry: Entry | None, team: Team | None, entered_team_id: int | None) -> str:
    if entered_team_id is not None:
        return State.ENTERED
    if team is None:
        return State.NO_TEAM
    if team.draft_submitted_at is None:
        return State.DRAFTING
    if not team.draft_locked:
        return State.SUBMITTED
    return State.LOCKED


def _current_teams(league: League):
    """The league's teams still playing (a team not re-drafted has retired, DB-15)."""
    return Team.objects.filter(league=league).exclude(redrafts__step=0)


def readiness(league: League, season: Season | None) -> list[Row]:
    """A row per coach entered in ``season`` or coaching a team of ``league``: three
    queries whatever the league's size."""
    entries = (
        list(Entry.objects.filter(season=season, withdrawn_at__isnull=True).select_related("coach"))
        if season is not None else []
    )
    entered = dict(TeamSeason.objects.filter(entry__season=season, entry__withdrawn_at__isnull=True)
                   .values_list("entry_id", "team_id"))
    teams = {team.coach_id: team for team in _current_teams(league).select_related("coach").order_by("pk")}
    rows = []
    for entry in entries:
        team = teams.pop(entry.coach_id, None)
        rows.append(Row(entry.coach, entry, team, _state(entry, team, entered.get(entry.pk))))
    rows.extend(Row(team.coach, None, team, _state(None, team, None)) for team in teams.values())
    order = list(LABELS)
    rows.sort(key=lambda row: (order.index(row.state), row.coach.name.casefold()))
    return rows


def counts(rows: list[Row]) -> dict[str, int]:
    return {state: sum(1 for row in rows if row.state == state) for state in LABELS}


@transaction.atomic
def lock_submitted_drafts(*, league: League, season: Season | None = None, by) -> tuple[list[Team], list[Team]]:
    """DB-1: the commissioner locks every submitted draft not yet locked, in one
    transaction (``services.lock_draft`` refuses anyone else). A locked team whose
    coach the commissioner entered in ``season`` already takes that place at once
    (their fixtures, if any, become the team's): entering the coach was the
    commissioner's decision, locking the draft the last step. Returns (locked,
    entered)."""
    waiting = list(_current_teams(league).filter(draft_submitted_at__isnull=False, draft_locked_at__isnull=True)
                   .order_by("pk"))
    if not waiting:
        raise ValidationError("No submitted draft waits to be locked.")
    locked = [services.lock_draft(team=team, by=by) for team in waiting]
    placed = set()
    if season is not None:
        placed = set(Entry.objects.filter(season=season, withdrawn_at__isnull=True, dungeonbowl__isnull=True,
                                          coach__in=[team.coach_id for team in locked])
                     .values_list("coach_id", flat=True))
    entered = []
    for team in (team for team in locked if team.coach_id in placed):
        try:
            with transaction.atomic():
                services.enter_team(team=team, season=season, by=by)
        except ValidationError:
            continue  # a division to choose (DB-2): the page lists it as ready to enter
        entered.append(team)
    return locked, entered


@transaction.atomic
def enter_ready_teams(*, league: League, season: Season | None, by) -> tuple[list[Team], list[str]]:
    """Enter every team whose draft is locked and which is not in ``season`` yet,
    each through ``services.enter_team`` (in its coach's entry when the coach was
    entered without a team). One transaction; a team refused (a division to
    choose, a season under way: LG-1) is left out with the reason, the others are
    entered. Refused outright, with the reason, when no team is ready."""
    if season is None:
        raise ValidationError(f"{league} has no season yet: open one first.")
    rows = readiness(league, season)
    ready = [row.team for row in rows if row.state == State.LOCKED]
    if not ready:
        open_drafts = sum(1 for row in rows if row.state in (State.DRAFTING, State.SUBMITTED))
        if open_drafts:
            raise ValidationError(f"No team is ready: {plural(open_drafts, 'draft')} still open. A team is entered once "
                                  "its draft is submitted and locked.")
        raise ValidationError(f"No team is waiting to enter {season.name}.")
    entered, refused = [], []
    for team in ready:
        try:
            with transaction.atomic():
                services.enter_team(team=team, season=season, by=by)
        except ValidationError as error:
            refused.append(f"{team}: {' '.join(error.messages)}")
        else:
            entered.append(team)
    return entered, refused


def page_url(league: League) -> str:
    return reverse("dungeonbowl:entrants", args=[league.slug])
