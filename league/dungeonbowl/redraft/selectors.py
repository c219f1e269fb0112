"""Reads for the off-season (DB-3, DB-15): which season a team's off-season
follows, who waits on a re-draft, what the Re-Draft Budget is or would be, what
re-hiring a player costs, the re-draft page and the team feed's ``redraft``, and
who would enter the next season. Each a fixed number of queries whatever the
league's size; the steps that write are in ``redraft.services``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from django.db.models import Count, Q

from league.dungeonbowl.redraft import rules as redraft_rules
from league.dungeonbowl.models import (
    DungeonBowlSettings, Honour, Placing, Player, Redraft, RedraftRoll, RedraftStep as Step, Team, TeamSeason,
)
from league.dungeonbowl.seasons import season_over
from league.models import Fixture, League, Result, Season


def last_season(team: Team) -> Season | None:
    """The newest season the team played in (one query)."""
    return (
        Season.objects.filter(entries__dungeonbowl__team=team).select_related("league")
        .order_by("-start_date", "-pk").first()
    )


def off_season(team: Team) -> Season | None:
    """DB-3: the season whose off-season the team is in, or None (still playing,
    never played, or already in the next season)."""
    season = last_season(team)
    return season if season is not None and season_over(season) else None


def waiting_redrafts(teams: Sequence[Team]) -> dict[int, int]:
    """team pk -> the re-draft step it waits on, for the teams in an off-season
    whose re-draft is not done (nor the team retired): ``off_season`` for many
    teams at once, in four queries whatever their number (DB-3, DB-15)."""
    latest: dict[int, tuple] = {}
    for team_id, season_id, start, league_id in TeamSeason.objects.filter(team__in=teams).values_list(
        "team_id", "entry__season_id", "entry__season__start_date", "entry__season__league_id"
    ):
        if team_id not in latest or (start, season_id) > latest[team_id][:2]:
            latest[team_id] = (start, season_id, league_id)
    if not latest:
        return {}
    seasons = {season_id for _, season_id, _ in latest.values()}
    crowned = set(Honour.objects.filter(season__in=seasons, placing=Placing.CHAMPION).values_list("season_id", flat=True))
    with_playoffs = set(DungeonBowlSettings.objects.filter(
        league__in={league_id for *_, league_id in latest.values()}, playoffs__gt=0).values_list("league_id", flat=True))
    regular = dict(
        Fixture.objects.filter(round__season__in=seasons, stage=Fixture.Stage.REGULAR).values("round__season")
        .annotate(n=Count("pk"), open=Count("pk", filter=~Q(result__status=Result.Status.APPROVED) & Q(cancelled_by__isnull=True)))
        .values_list("round__season", "open")
    )  # seasons with regular fixtures -> how many still wait for an approved result (LG-2: none cancelled)
    steps = dict(Redraft.objects.filter(team__in=teams, season__in=seasons).values_list("team_id", "step"))
    out = {}
    for team_id, (_, season_id, league_id) in latest.items():
        over = season_id in crowned or (league_id not in with_playoffs and regular.get(season_id) == 0)
        step = steps.get(team_id, Step.SCOUTING)
        if over and step not in (Step.RETIRED, Step.DONE):
            out[team_id] = step
    return out


def games_and_wins(team: Team, season: Season) -> tuple[int, int]:
    """DB-15 Decision: games played count regular-season, play-off and friendly
    games actually played (a conceded one included, an unplayed one not); league
    fixtures won count regular-season and play-off wins, conceded ones included.
    One query."""
    side = Q(home__dungeonbowl__team=team) | Q(away__dungeonbowl__team=team)
    won = Q(home__dungeonbowl__team=team, result__outcome=Result.Outcome.HOME_WIN) | Q(
        away__dungeonbowl__team=team, result__outcome=Result.Outcome.AWAY_WIN
    )
    totals = (
        Fixture.objects.filter(side, round__season=season, result__status=Result.Status.APPROVED)
        .exclude(result__outcome=Result.Outcome.ABANDONED)
        .aggregate(
            games=Count("pk"),
            wins=Count("pk", filter=won & Q(stage__in=[Fixture.Stage.REGULAR, Fixture.Stage.PLAYOFF])),
        )
    )
    return totals["games"], totals["wins"]


def players_scouted(redraft: Redraft | None) -> int:
    """DB-15 step 1: the players scouted by the re-draft's current scouting rolls."""
    if redraft is None or redraft.pk is None:
        return 0
    return RedraftRoll.objects.filter(redraft=redraft, purpose=RedraftRoll.Purpose.SCOUTING, current=True,
                                      effect=True).count()


def budget_of(redraft: Redraft) -> redraft_rules.RedraftBudget:
    """DB-15 step 3 from what was stored when the funds were raised (no query)."""
    return redraft_rules.redraft_budget(
        treasury=redraft.treasury, games_played=redraft.games_played, league_wins=redraft.league_wins,
        players_scouted=redraft.players_scouted, cap=redraft.cap,
    )


def provisional_budget(team: Team, season: Season, redraft: Redraft | None, *, cap: bool,
                       treasury: int | None = None) -> redraft_rules.RedraftBudget:
    """What raising funds would give now: the stored budget once raised, else the
    Treasury, games, wins and scouted players as they stand (three queries)."""
    if redraft is not None and redraft.budget is not None:
        return budget_of(redraft)
    games, wins = games_and_wins(team, season)
    return redraft_rules.redraft_budget(
        treasury=max(team.treasury() if treasury is None else treasury, 0), games_played=games, league_wins=wins,
        players_scouted=players_scouted(redraft), cap=cap,
    )


def rehire_cost(player: Player) -> int:
    """DB-15 step 4: the player's current value plus 20,000 gp for every previous
    season they took part in, the one that just ended included."""
    return redraft_rules.rehire_fee(player.value, player.seasons_played + 1)


# The re-draft page and the team feed ---------------------------------------------------


@dataclass
class RedraftSheet:
    team: Team
    season: Season | None  # the season whose off-season this is; None outside one
    redraft: Redraft | None
    step: int
    players: list[Player]
    rolls: list[RedraftRoll]
    budget: redraft_rules.RedraftBudget | None
    past: list[Redraft]

    @property
    def steps(self) -> list[tuple[int, str, str]]:
        """(number, name, "done" | "now" | "") for the step list."""
        out = []
        for s in (Step.SCOUTING, Step.RECOVERY, Step.FUNDS, Step.DRAFT):
            state = "" if self.step == Step.RETIRED else "done" if s < self.step else "now" if s == self.step else ""
            out.append((s.value, s.label, state))
        return out

    @property
    def mvp_players(self) -> list[Player]:
        return [p for p in self.players if p.mvp_awards]

    @property
    def missing(self) -> list[dict]:
        """Players who missed the next game when the season ended (step 2)."""
        if self.redraft is not None:
            return [p for p in self.redraft.snapshot["players"] if p["miss_next_game"]]
        return [{"number": p.number, "name": p.name} for p in self.players if p.miss_next_game]


def redraft_sheet(team: Team) -> RedraftSheet:
    """A fixed number of queries whatever the team's or league's size."""
    season = off_season(team)
    current = Redraft.objects.filter(team=team, season=season).first() if season else None
    players = list(team.players.on_draft_list().select_related("position__group").order_by("number")) if season else []
    rolls = list(RedraftRoll.objects.filter(redraft=current).select_related("player", "roll", "roll__entered_by")
                 .order_by("purpose", "player__number", "id")) if current else []
    budget = None
    if season is not None and (current is None or current.step != Step.RETIRED):
        settings = team.league.rules.settings
        budget = provisional_budget(team, season, current, cap=bool(settings and settings.redraft_cap))
    past = list(Redraft.objects.filter(team=team).exclude(pk=current.pk if current else None)
                .select_related("season").order_by("-season__start_date", "-pk"))
    step = current.step if current else Step.SCOUTING
    return RedraftSheet(team, season, current, step, players, rolls, budget, past)


def redraft_feed(team: Team) -> dict | None:
    """The team JSON's ``redraft`` during the off-season (DB-15): the budget with its
    lines, raised or as it would be raised now; None otherwise."""
    season = off_season(team)
    if season is None:
        return None
    current = Redraft.objects.filter(team=team, season=season).first()
    if current is not None and current.step == Step.RETIRED:
        return None
    settings = team.league.rules.settings
    budget = provisional_budget(team, season, current, cap=bool(settings and settings.redraft_cap))
    return {
        "season": season.name,
        "step": (current.step if current else Step.SCOUTING),
        "raised": bool(current and current.budget is not None),
        "budget": budget.budget,
        "cap_applied": budget.cap_applied,
        "lines": [{"reason": reason, "gp": amount} for reason, amount in budget.lines],
    }


# The next season -----------------------------------------------------------------------


@dataclass
class NextSeason:
    """Who would enter the next season: re-drafted teams and new ones the
    commissioner accepted with their draft locked (DB-1); the teams of the season
    that ended still re-drafting (or not started) are left out (``waiting``), and so
    are new teams not accepted or whose draft is not locked (``unaccepted``)."""

    season: Season | None
    ready: list[Team]
    waiting: list[Team]
    unaccepted: list[Team] = field(default_factory=list)


def next_season(league: League) -> NextSeason:
    """Three queries whatever the number of teams."""
    last = Season.objects.filter(league=league).order_by("-start_date", "-pk").first()
    if last is None:
        return NextSeason(None, [], [])
    teams = list(
        Team.objects.filter(league=league).select_related("coach", "college")
        .annotate(
            in_last=Count("seasons", filter=Q(seasons__entry__season=last), distinct=True),
            entered=Count("seasons", distinct=True),
        ).order_by("name")
    )
    steps = dict(Redraft.objects.filter(season=last, team__league=league).values_list("team_id", "step"))
    ready, waiting, unaccepted = [], [], []
    for team in teams:
        step = steps.get(team.pk)
        if step == Step.RETIRED:
            continue
        if team.in_last:
            (ready if step == Step.DONE else waiting).append(team)
        elif not team.entered:
            # A locked draft is an accepted team's (a database check): the
            # commissioner has taken this newcomer and its players (DB-1).
            (ready if team.draft_locked else unaccepted).append(team)
    return NextSeason(last, ready, waiting, unaccepted)
