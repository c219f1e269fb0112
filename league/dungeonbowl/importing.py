"""``manage.py import_teams FILE.csv``: a Dungeon Bowl league that runs on paper,
moved in team by team.

The header is ``league,division,team,coach,college,rerolls,position,player``, one
line per player. The file is read in two steps, like a results file
(``league.spreadsheets.files``, then ``league.spreadsheets.writer``):

1. ``read_team_rows`` checks each line on its own and each team's lines against
   each other (pure: no database): the same coach, college, division and re-rolls
   on every line of a team, no coach with two teams in a league, and divisions for
   every team or for none (an empty division means none).
2. ``import_teams`` writes in one transaction: the league (with its Dungeon Bowl
   settings), the season, the divisions, the coaches, each team through
   ``services.submit_draft`` (so the draft is checked exactly like the draft form:
   college by name, position by roster name, budget and limits) and its entry
   through ``services.enter_team``. Drafts are locked: the league already runs.

Importing the same file again changes nothing: a team the file agrees with
(coach, college, re-rolls, players, division) is left alone; one that differs
refuses its line. The first problem stops the import with its line number and
nothing is written.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from django.db import transaction
from django.utils import timezone
from django.utils.text import slugify

from league.dungeonbowl.teams import rules as team_rules, services
from league.dungeonbowl.models import GAME_SYSTEM, College, DungeonBowlSettings, Team, TeamSeason
from league.spreadsheets.files import BadRow, csv_lines, text_field
from league.spreadsheets.writer import (
    DEFAULT_SEASON, ImportRefused, Summary, call_service, check_season_options, coach_for_name, find_league,
)
from league.rules.importing import shown
from league.models import Coach, Division, Entry, League, Season
from league.rules.scheduling import MAX_DIVISIONS, MIN_DIVISIONS, MIN_PER_DIVISION, check_split
from league.text.words import possessive

COLUMNS = ("league", "division", "team", "coach", "college", "rerolls", "position", "player")


@dataclass
class TeamLines:
    """One team's lines of the file."""

    league: str
    team: str
    coach: str
    college: str
    division: str
    rerolls: int
    first_line: int
    last_line: int = 0
    players: list[tuple[int, str, str]] = field(default_factory=list)  # (line, position, player name)

    @property
    def slug(self) -> str:
        return slugify(self.team)


@dataclass
class TeamImportSummary(Summary):
    divisions: int = 0
    teams: int = 0
    players: int = 0


def read_team_rows(lines: Iterable[str]) -> list[TeamLines]:
    """The file's teams in file order, each checked on its own (no database)."""
    teams: dict[tuple[str, str], TeamLines] = {}
    coaches: dict[tuple[str, str], tuple[str, int]] = {}
    for line, values in csv_lines(lines, required=COLUMNS):
        league = text_field(values, "league", line, League._meta.get_field("name").max_length)
        if not slugify(league):
            raise BadRow(line, f"the league name {shown(league)} gives no usable web address (slug)")
        team = text_field(values, "team", line, Team._meta.get_field("name").max_length)
        if not slugify(team) or slugify(team) == "new":
            raise BadRow(line, f"the team name {shown(team)} cannot be a web address; choose another")
        coach = text_field(values, "coach", line, Coach._meta.get_field("name").max_length)
        college = text_field(values, "college", line, College._meta.get_field("name").max_length)
        division = text_field(values, "division", line, Division._meta.get_field("name").max_length, required=False)
        position = text_field(values, "position", line, 60)
        player = text_field(values, "player", line, 60, required=False)
        text = values.get("rerolls", "")
        try:
            if len(text) > 6:  # no int() of thousands of digits: far past the range below anyway
                raise ValueError(text)
            rerolls = int(text)
        except ValueError:
            raise BadRow(line, f"rerolls must be a whole number, not {shown(text)}") from None
        if not 0 <= rerolls <= team_rules.MAX_REROLLS:
            raise BadRow(line, f"a team has 0 to {team_rules.MAX_REROLLS} re-rolls, not {rerolls}")
        key = (slugify(league), slugify(team))
        current = teams.get(key)
        if current is None:
            current = teams[key] = TeamLines(league, team, coach, college, division, rerolls, first_line=line)
        for what, given, expected in (("coach", coach, current.coach), ("college", college, current.college),
                                      ("division", division, current.division), ("rerolls", str(rerolls), str(current.rerolls))):
            if given.lower() != expected.lower():
                raise BadRow(line, f"{possessive(team)} {what} is {expected or 'empty'} on line {current.first_line}, "
                                   f"{given or 'empty'} here; one team, one {what}")
        earlier = coaches.setdefault((slugify(league), coach.lower()), (team, line))
        if slugify(earlier[0]) != slugify(team):
            raise BadRow(line, f"{coach} already coaches {earlier[0]} in {league} (line {earlier[1]}); "
                               f"a coach fields one team a league")
        current.players.append((line, position, player))
        current.last_line = line
    by_league: dict[str, list[TeamLines]] = {}
    for team in teams.values():
        by_league.setdefault(slugify(team.league), []).append(team)
    for league_teams in by_league.values():
        _check_divisions(league_teams)
    return list(teams.values())


def _check_divisions(teams: list[TeamLines]) -> None:
    """DB-2: every team in a division or none; 2 to 4 divisions of 4 teams or more,
    as equal in size as possible (sizes differ by at most one)."""
    with_division = [t for t in teams if t.division]
    if not with_division:
        return
    if len(with_division) != len(teams):
        lonely = next(t for t in teams if not t.division)
        raise BadRow(lonely.first_line, f"{lonely.team} has no division while other teams of {lonely.league} have "
                                        f"one; give every team a division, or none")
    sizes = Counter(t.division.lower() for t in teams)
    if not MIN_DIVISIONS <= len(sizes) <= MAX_DIVISIONS:
        raise BadRow(teams[-1].last_line, f"{teams[0].league} has {len(sizes)} divisions; a season has 2 to 4")
    small = sorted(name for name, size in sizes.items() if size < MIN_PER_DIVISION)
    if small:
        members = [t for t in teams if t.division.lower() == small[0]]
        raise BadRow(max(t.last_line for t in members), f"division {members[0].division} has {len(members)} teams; "
                                                        f"a division has at least {MIN_PER_DIVISION}")
    try:
        check_split(list(sizes.values()))
    except ValueError as error:
        raise BadRow(teams[-1].last_line, f"{teams[0].league}: {str(error).rstrip('.')}") from None


# Writing ----------------------------------------------------------------------


@transaction.atomic
def import_teams(teams: list[TeamLines], *, by, season_name: str = DEFAULT_SEASON,
                 start_date=None) -> TeamImportSummary:
    """Write the checked teams: everything or, on the first problem, nothing.
    ``by`` commissions the leagues the file creates: never a league nobody organises."""
    check_season_options(season_name, start_date)
    summary = TeamImportSummary()
    every_league = list(College.objects.filter(league__isnull=True))
    by_league: dict[str, list[TeamLines]] = {}
    for team in teams:
        by_league.setdefault(slugify(team.league), []).append(team)
    for slug, league_teams in by_league.items():
        league = _league(slug, league_teams[0], by, summary)
        season, created = Season.objects.get_or_create(
            league=league, name=season_name, defaults={"start_date": start_date or timezone.localdate()})
        summary.seasons += created
        budget = league.rules.settings.draft_budget
        # Every league's colleges and the league's own (a league the file creates has none).
        colleges = {c.name.lower(): c for c in [*every_league, *College.objects.filter(league=league)]}
        for lines in league_teams:
            _import_team(lines, league=league, season=season, budget=budget, colleges=colleges, by=by, summary=summary)
        # DB-1: the season these teams start must have at least 4 of them.
        refusal = league.rules.too_few_entries(Entry.objects.filter(season=season).count())
        if refusal:
            raise BadRow(max(lines.last_line for lines in league_teams), refusal)
    return summary


def _league(slug: str, first: TeamLines, by, summary: TeamImportSummary) -> League:
    league = find_league(slug, first.league, first.first_line)
    if league is None:
        league = League.objects.create(name=first.league, slug=slug, game_system=GAME_SYSTEM)
        DungeonBowlSettings.objects.create(league=league)
        league.organisers.add(by)
        summary.leagues += 1
    elif league.game_system != GAME_SYSTEM:
        raise BadRow(first.first_line, f"the league {league.name} already exists and is not a Dungeon Bowl league")
    elif not league.is_organised_by(by):
        raise ImportRefused(f"{by.username} does not organise {league.name}; import with --by USERNAME naming one "
                            f"of its organisers")
    summary.league_names.append(league.name)
    return league


def _import_team(lines: TeamLines, *, league, season, budget, colleges, by, summary: TeamImportSummary) -> None:
    college = colleges.get(lines.college.lower())
    if college is None:
        names = ", ".join(sorted(c.name for c in colleges.values()))
        raise BadRow(lines.first_line, f"there is no college called {lines.college}; the colleges are {names}")
    roster = {p.name.lower(): p.name for p in college.positions.all()}
    picks = []
    for line, position, player in lines.players:
        name = roster.get(position.lower())
        if name is None:
            raise BadRow(line, f"{position} is not a position of the {college.name}")
        picks.append(services.DraftPick(name, player))
    check = team_rules.check_draft(college.roster(), [p.position for p in picks], lines.rerolls, budget)
    if not check.ok:
        raise BadRow(lines.last_line, f"{possessive(lines.team)} draft is refused: {' '.join(check.refusals)}")

    coach, created = call_service(lines.first_line, coach_for_name, name=lines.coach, league=league, by=by)
    summary.coaches += created
    division = None
    if lines.division:
        division = Division.objects.filter(season=season, name__iexact=lines.division).first()
        if division is None:
            division = Division.objects.create(season=season, name=lines.division)
            summary.divisions += 1
    team = Team.objects.filter(league=league, slug=lines.slug).select_related("coach", "college").first()
    if team is None:
        team = call_service(lines.first_line, services.submit_draft, league=league, coach=coach, name=lines.team,
                     college=college, picks=picks, rerolls=lines.rerolls, budget=budget, by=by)
        call_service(lines.first_line, services.lock_draft, team=team, by=by)
        summary.teams += 1
        summary.players += len(picks)
    else:
        _same_team(team, lines, coach=coach, college=college, picks=picks)
    entered = TeamSeason.objects.filter(team=team, entry__season=season).select_related("entry__division").first()
    if entered is None:
        call_service(lines.first_line, services.enter_team, team=team, season=season, division=division, by=by)
        summary.entries += 1
    elif entered.entry.division_id != (division.pk if division else None):
        raise BadRow(lines.first_line, f"{team} is already entered in {season.name} in another division; change it "
                                       f"on the site")
    else:
        summary.unchanged += 1


def _same_team(team: Team, lines: TeamLines, *, coach, college, picks) -> None:
    """A team already imported must be the file's team, or the line is refused."""
    have = Counter((p.position.name, p.name) for p in team.players.on_draft_list().select_related("position"))
    want = Counter((p.position, p.name or p.position) for p in picks)
    differences = []
    if team.coach_id != coach.pk:
        differences.append(f"coach {team.coach}")
    if team.college_id != college.pk:
        differences.append(f"college {team.college}")
    if team.rerolls != lines.rerolls:
        differences.append(f"{team.rerolls} re-rolls")
    if have != want:
        differences.append("other players")
    if differences:
        raise BadRow(lines.first_line, f"{team} already exists with {', '.join(differences)}; change it on the site "
                                       f"instead")


