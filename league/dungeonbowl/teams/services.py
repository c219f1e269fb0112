"""Every write of a Dungeon Bowl team before it plays: founding and drafting it,
accepting or refusing it, locking its draft, entering it in a season. Keyword-only,
one transaction each, the team row locked before it changes (lock order: league, then
team, then its players), so a double submission cannot create two drafts or two
Treasury openings. A roll is logged by ``league.dungeonbowl.dice``.

Refusals raise ``ValidationError`` with the rules' messages (every refusal at once)
or ``PermissionDenied`` for someone with no business doing it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.text import slugify

from league.people import entrants as season_entrants
from league.dungeonbowl.teams import rules as team_rules
from league.dungeonbowl.models import (
    GAME_SYSTEM,
    MAX_GP,
    MAX_NUMBER,
    College,
    Player,
    Team,
    TeamSeason,
    TreasuryLine,
)
from league.dungeonbowl.units import gp
from league.models import Coach, Entry, League, Season
from league.text.words import plural, possessive

# Reading helpers ---------------------------------------------------------------------


def _may_act_for(user, *, league: League, coach: Coach) -> bool:
    return bool(user is not None and user.is_authenticated) and (
        coach.user_id == user.pk or league.is_organised_by(user)
    )


# Drafts (DB-1, DB-6, DB-7) ------------------------------------------------------------


@dataclass(frozen=True)
class DraftPick:
    """One line of a draft list. Without a name the player takes the position's
    name; without a number, the lowest one the list leaves free."""

    position: str
    name: str = ""
    number: int | None = None


def _lines(picks: Sequence[str | DraftPick]) -> tuple[list[DraftPick], list[str]]:
    """The picks with a name and number each, and what is wrong with them."""
    lines = [p if isinstance(p, DraftPick) else DraftPick(p) for p in picks]
    errors = []
    taken = [p.number for p in lines if p.number is not None]
    for number in taken:
        if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= MAX_NUMBER:
            errors.append(f"Player numbers run from 1 to {MAX_NUMBER}, not {number}.")
    duplicates = sorted({n for n in taken if taken.count(n) > 1 and isinstance(n, int)})
    if duplicates:
        errors.append(f"Two players cannot wear the same number: {', '.join(map(str, duplicates))}.")
    too_long = [p.name for p in lines if len(p.name.strip()) > Player._meta.get_field("name").max_length]
    if too_long:
        errors.append(f"A player's name is at most 60 characters: {too_long[0][:20]}...")
    free = (n for n in range(1, MAX_NUMBER + 1) if n not in taken)
    numbered = []
    for pick in lines:
        number = pick.number if pick.number is not None else next(free, 0)
        numbered.append(DraftPick(pick.position, pick.name.strip() or pick.position, number))
    return numbered, errors


def plays_in(league: League, coach: Coach) -> bool:
    """DB-1: the commissioner has accepted ``coach`` in ``league`` already: they were
    entered in one of its seasons, or coach a team it accepted."""
    return (
        Entry.objects.filter(season__league=league, coach=coach).exists()
        or Team.objects.filter(league=league, coach=coach, accepted_at__isnull=False).exists()
    )


def _accept(team: Team, by) -> None:
    """Mark ``team`` accepted by ``by`` (the caller saves it)."""
    team.accepted_at = timezone.now()
    team.accepted_by = by if by is not None and by.is_authenticated else None


def _new_team(*, league: League | None, coach: Coach | None, name: str, college: College | None, by) -> Team:
    """A team founded by the commissioner, or by a coach already accepted in the
    league, is accepted at once; a newcomer's waits for the commissioner (DB-1)."""
    if league is None or coach is None or college is None or not name.strip():
        raise ValidationError("A new team needs its league, coach, name and college.")
    if league.game_system != GAME_SYSTEM:
        raise ValidationError(f"{league} is not a Dungeon Bowl league.")
    if college.league_id not in (None, league.pk):
        raise ValidationError("Choose one of the colleges this league offers.")
    name = name.strip()
    slug = slugify(name)
    if not slug:
        raise ValidationError("A team's name needs at least one letter or digit.")
    if slug == "new":  # the address of the new-team page
        raise ValidationError("Choose another name: 'New' is taken by the site.")
    if len(name) > Team._meta.get_field("name").max_length:
        raise ValidationError("A team's name is at most 100 characters.")
    if Team.objects.filter(league=league, slug=slug).exists():
        raise ValidationError(f"A team called {name} already plays in {league}.")
    team = Team(league=league, coach=coach, college=college, name=name, slug=slug)
    if league.is_organised_by(by) or plays_in(league, coach):
        _accept(team, by)
    try:
        with transaction.atomic():
            team.save(force_insert=True)
            return team
    except IntegrityError:  # the same name submitted twice at once
        raise ValidationError(f"A team called {name} already plays in {league}.") from None


@transaction.atomic
def create_team(*, league: League, coach: Coach, name: str, college: College | None, by) -> Team:
    """DB-1: a coach founds their team in a league (name and college) before drafting
    it with the draft form; the commissioner may do it for a coach. One team per
    coach per league, as the draft form has it."""
    league = League.objects.select_for_update().get(pk=league.pk)
    if not _may_act_for(by, league=league, coach=coach):
        raise PermissionDenied("Only the coach or the league's organiser creates the coach's team.")
    existing = Team.objects.filter(league=league, coach=coach).exclude(redrafts__step=0).first()  # 0: retired, DB-15
    if existing is not None:
        raise ValidationError(f"{coach} already coaches {existing} in {league}; a coach fields one team a league.")
    return _new_team(league=league, coach=coach, name=name, college=college, by=by)


@transaction.atomic
def submit_draft(
    *,
    team: Team | None = None,
    league: League | None = None,
    coach: Coach | None = None,
    name: str = "",
    college: College | None = None,
    picks: Sequence[str | DraftPick],
    rerolls: int,
    budget: int = team_rules.DEFAULT_DRAFT_BUDGET,
    by,
) -> Team:
    """DB-6: a coach (or their league's commissioner) submits a draft list.

    Either an existing ``team`` whose draft is not locked (a resubmission replaces
    the players and reverses the previous opening of the Treasury) or a new team
    from ``league``, ``coach``, ``name`` and ``college``. The draft is checked by
    ``team_rules.check_draft``; a refused draft writes nothing. The unspent budget opens
    the Treasury (DB-6 Decision).
    """
    if isinstance(budget, bool) or not isinstance(budget, int) or not 0 <= budget <= MAX_GP:
        raise ValidationError(f"A draft budget is from 0 to {MAX_GP:,} gp.")
    if isinstance(rerolls, bool) or not isinstance(rerolls, int):
        raise ValidationError("Team re-rolls are a whole number.")
    if team is not None:
        team = Team.objects.select_for_update(of=("self",)).select_related("league", "coach", "college").get(pk=team.pk)
        league, coach, college = team.league, team.coach, team.college
    if league is None or coach is None or not _may_act_for(by, league=league, coach=coach):
        raise PermissionDenied("Only the team's coach or the league's organiser submits its draft.")
    lines, errors = _lines(picks)
    if team is not None and team.seasons.exists():
        raise ValidationError(f"{team} has played a season: its draft list changes by spending or "
                              "by re-drafting in the off-season, never by a new draft.")
    if team is not None and team.draft_locked:
        raise ValidationError(f"The organiser has locked {possessive(team)} draft; it can no longer change.")
    if college is None:
        raise ValidationError("Choose the team's College of Magic.")
    check = team_rules.check_draft(college.roster(), [line.position for line in lines], rerolls, budget)
    if errors or not check.ok:
        raise ValidationError([*check.refusals, *errors])

    if team is None:
        team = _new_team(league=league, coach=coach, name=name, college=college, by=by)
    elif team.draft_submitted_at is not None:
        _withdraw_draft(team, by=by)

    positions = {p.name: p for p in college.positions.all()}
    Player.objects.bulk_create(
        Player(
            team=team, name=line.name, number=line.number, position=(pos := positions[line.position]),
            ma=pos.ma, st=pos.st, ag=pos.ag, pa=pos.pa, av=pos.av,
        )
        for line in lines
    )
    team.rerolls = rerolls
    team.draft_budget = budget
    team.draft_submitted_at = timezone.now()
    team.save(update_fields=["rerolls", "draft_budget", "draft_submitted_at"])
    TreasuryLine.objects.create(
        team=team,
        amount=check.treasury,
        kind=TreasuryLine.Kind.DRAFT,
        reason=(
            f"budget {gp(budget)}, {plural(len(lines), 'player')} {gp(check.players_cost)}, "
            f"{plural(rerolls, 're-roll')} {gp(check.rerolls_cost)}, unspent {gp(check.treasury)}"
        ),
        created_by=by,
    )
    return team


def _withdraw_draft(team: Team, *, by) -> None:
    """An unlocked draft being replaced: its players never played (the draft is
    locked before the season), so they go; its Treasury opening is reversed by a
    new line, never edited."""
    team.players.all().delete()
    for line in TreasuryLine.objects.filter(team=team, kind=TreasuryLine.Kind.DRAFT, reversed_by__isnull=True,
                                            reverses__isnull=True):
        TreasuryLine.objects.create(
            team=team, amount=-line.amount, kind=TreasuryLine.Kind.DRAFT, reverses=line,
            reason="Draft resubmitted: the previous draft's unspent budget is withdrawn", created_by=by,
        )


@transaction.atomic
def lock_draft(*, team: Team, by) -> Team:
    """The commissioner accepts a submitted draft (DB-1); it no longer changes
    through ``submit_draft``. Locking a waiting team's draft accepts the team too."""
    team = Team.objects.select_for_update(of=("self",)).select_related("league").get(pk=team.pk)
    if by is None or not team.league.is_organised_by(by):
        raise PermissionDenied("Only the league's organiser locks a draft.")
    if team.draft_submitted_at is None:
        raise ValidationError(f"{team} has not submitted a draft yet.")
    if team.draft_locked:
        raise ValidationError(f"{possessive(team)} draft is already locked.")
    team.draft_locked_at = timezone.now()
    team.draft_locked_by = by
    if not team.accepted:
        _accept(team, by)
    team.save(update_fields=["draft_locked_at", "draft_locked_by", "accepted_at", "accepted_by"])
    return team


@transaction.atomic
def accept_team(*, team: Team, by) -> Team:
    """DB-1: the commissioner accepts a team a newcomer founded; until then it enters
    no season (``redraft.selectors.next_season`` leaves it out)."""
    team = Team.objects.select_for_update(of=("self",)).select_related("league").get(pk=team.pk)
    if by is None or not team.league.is_organised_by(by):
        raise PermissionDenied("Only the league's organiser accepts a team.")
    if team.accepted:
        raise ValidationError(f"{team} is already accepted.")
    _accept(team, by)
    team.save(update_fields=["accepted_at", "accepted_by"])
    return team


@transaction.atomic
def refuse_team(*, team: Team, by) -> str:
    """DB-1: the commissioner refuses a team waiting for acceptance. It never
    played, so it goes with its draft (players and the draft's Treasury lines);
    an accepted team is never refused. Returns the team's name."""
    team = Team.objects.select_for_update(of=("self",)).select_related("league").get(pk=team.pk)
    if by is None or not team.league.is_organised_by(by):
        raise PermissionDenied("Only the league's organiser refuses a team.")
    if team.accepted:
        raise ValidationError(f"{team} is accepted in the league; it can only retire.")
    name = team.name
    team.delete()
    return name


# Seasons ---------------------------------------------------------------------------


@transaction.atomic
def enter_team(*, team: Team, season, by, division=None, when_fixtures_exist: str = ""):
    """A team enters a season through the engine's Entry (whose ``team`` is the
    team's name), in a division where the season has them (DB-2). The team's
    draft must be submitted; one team per coach per season, as the engine has it.
    A coach new to a season whose fixtures exist joins by the engine's one rule
    (LG-1, ``season_entrants.place``: ``when_fixtures_exist``)."""
    # The team, then the season: the season's row comes last in the one lock order
    # (league/locks.py), as in a post-game sequence that locks the team and then
    # bumps the season's version.
    team = Team.objects.select_for_update(of=("self",)).select_related("coach").get(pk=team.pk)
    season = Season.objects.select_for_update(of=("self",)).select_related("league").get(pk=season.pk)
    if by is None or not season.league.is_organised_by(by):
        raise PermissionDenied("Only the league's organiser enters teams in a season.")
    if team.league_id != season.league_id:
        raise ValidationError(f"{team} plays in another league.")
    if team.draft_submitted_at is None:
        raise ValidationError(f"{team} has not submitted its draft yet.")
    if division is not None and division.season_id != season.pk:
        raise ValidationError("That division belongs to another season.")
    if TeamSeason.objects.filter(team=team, entry__season=season).exists():
        raise ValidationError(f"{team} is already entered in {season.name}.")
    # A coach entered in the season without a team yet (invited on the Coaches page,
    # pasted, joined by a link) has the place the team takes: the entry
    # keeps its fixtures and becomes the team's. A coach whose entry has a team
    # already fields that one (one team per coach per season).
    entry = Entry.objects.filter(season=season, coach=team.coach).first()  # the season lock serialises us
    if entry is not None and TeamSeason.objects.filter(entry=entry).exists():
        raise ValidationError(f"{team.coach} already has a team in {season.name}; a coach fields one team a season.")
    if division is None and (entry is None or entry.division_id is None) and season.divisions.exists():
        raise ValidationError(f"{season.name} has divisions: choose {possessive(team)} division.")
    if entry is not None and division is not None and entry.division_id not in (None, division.pk):
        raise ValidationError(f"{team.coach} plays in {entry.division} in {season.name}: choose that division.")
    if not team.accepted:  # the commissioner entering a waiting team accepts it (DB-1)
        _accept(team, by)
        team.save(update_fields=["accepted_at", "accepted_by"])
    if entry is None:
        entry = season_entrants.place(season=season, coach=team.coach, team=team.name, division=division,
                                      when_fixtures_exist=when_fixtures_exist, by=by)
        if entry.season_id != season.pk:  # LG-1: put in the next season instead
            season = entry.season
            if TeamSeason.objects.filter(team=team, entry__season=season).exists():
                raise ValidationError(f"{team} is already entered in {season.name}.")
    else:
        entry.team, entry.division = team.name, division or entry.division
        entry.save(update_fields=["team", "division"])
    TeamSeason.objects.create(team=team, entry=entry)
    return entry
