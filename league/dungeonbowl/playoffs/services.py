"""Dungeon Bowl's play-off season (DB-3, DB-5b) and its prizes (DB-14): the writes
and the reads the pages share.

- ``settle_tie``: the commissioner puts teams level at a qualifying place in order,
  with a reason or a roll of a D6 each (logged, DB-16);
- ``start_playoffs``: once every regular fixture is approved, the semi-finals from
  the final standings, in a new round after the last;
- ``after_approval`` / ``before_withdrawal``: called by the game's rules inside
  the engine's approval (or correction, or reopening) transaction, after the
  post-game sequence and before its reversal. The second semi-final approved
  creates the final (winners) and the match for third place (losers); the final
  and the third-place match both approved fix the honours and pay the prizes as
  Treasury lines. Withdrawing a result reverses exactly that: prizes by reversing
  lines, honours deleted, an unplayed final and third-place match removed.

Decision (a drawn play-off, DB-5): the seed sends the play-off season to the Blood
Bowl rulebook, which the project does not hold, and says nothing of a play-off
that ends level. A play-off needs a winner to go on, so a draw (equal distances at
the time limit) and an unplayed play-off are refused with a message; the
commissioner records the result on distance or a concession.

Lock order (after the engine's fixture, then result, then the post-game's teams):
the season's play-off rows, then the prize-winning teams by primary key.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field

from django.contrib.contenttypes.models import ContentType
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Q

from league import locks
from league.facts import recording as facts
from league.dungeonbowl.playoffs import rules as pr
from league.dungeonbowl.models import (
    FINALS_ROUND, GAME_SYSTEM, GAME_TITLES, SEMI_FINALS, SEMI_FINALS_ROUND, DiceRoll, Honour, PlayoffGame,
    PlayoffSlot, PlayoffTie, Redraft, Team, TeamSeason, TreasuryLine,
)
from league.dungeonbowl.dice import record_roll
from league.models import Fixture, Result, Round, Season
from league.rules.base import AWAY_WIN, HOME_WIN
from league.standings.season import compute_standings
from league.text.words import possessive

# The fact of the semi-finals drawn (DB-5b): the new games keep it (league/facts/).
PLAYOFFS_SEEDED = "dungeonbowl.playoffs_seeded"

NO_DRAW = (
    "A play-off needs a winner: the rulebook this league holds says nothing of a drawn play-off, so a "
    "draw cannot be recorded. Record the time-limit result on distance (the team with the ball closer wins), "
    "or a concession."
)
NO_UNPLAYED = (
    "A play-off needs a winner: it cannot be left unplayed. Record the result, or a concession by the "
    "team that did not play."
)
MAX_ROLL_OFFS = 20  # equal dice roll again; twenty rounds of equal D6s do not happen


# Reads ------------------------------------------------------------------------------------


def is_playoff(fixture: Fixture) -> bool:
    return fixture.stage == Fixture.Stage.PLAYOFF


def final_tables(season: Season, rows) -> dict[str, list[pr.Standing]]:
    """The standings rows (``league.standings.season``) as DB-5b's divisions: each row's key
    is League points then the game's tiebreakers (DB-5a), higher is better. A withdrawn
    entrant stays in the standings but is seeded into no play-off (LG-2): its row is
    left out, so its place goes to the next eligible team in table order."""
    rules = season.league.rules
    withdrawn = set(season.entries.filter(withdrawn_at__isnull=False).values_list("pk", flat=True))
    tables: dict[str, list[pr.Standing]] = {}
    for row in rows:
        if row.entry_id in withdrawn:
            continue
        key = (row.lp, *(row.stats[name] for name in rules.tiebreakers))
        tables.setdefault(row.division or season.name, []).append(pr.Standing(row.name, key))
    return tables


def settled_orders(season: Season) -> list[list[str]]:
    return [list(tie.teams) for tie in PlayoffTie.objects.filter(season=season).order_by("created_at", "id")]


@dataclass
class PlayoffState:
    """What the commissioner's play-off page shows (a fixed number of queries)."""

    enabled: bool
    started: bool
    blocked: str = ""  # why the play-offs cannot start yet
    seeding: pr.Seeding | None = None
    ties_settled: list[PlayoffTie] = field(default_factory=list)


def playoff_state(season: Season, rows) -> PlayoffState:
    """Whether the play-offs can start and, when the regular season is complete, the
    seeding or the ties still to settle (DB-5b). ``rows`` are the season's standings."""
    settings = season.league.rules.settings
    enabled = bool(settings is not None and settings.playoffs)
    started = PlayoffGame.objects.filter(season=season).exists()
    ties = list(PlayoffTie.objects.filter(season=season).select_related("created_by").order_by("created_at", "id"))
    state = PlayoffState(enabled, started, ties_settled=ties)
    if started:
        return state
    blocked = why_not_startable(season, rows)
    if blocked:
        state.blocked = blocked
        return state
    state.seeding = pr.playoff_seeding(final_tables(season, rows), [list(t.teams) for t in ties])
    return state


def why_not_startable(season: Season, rows) -> str:
    """Empty when the play-offs may start from ``rows``; else the reason, for the page."""
    league = season.league
    if league.game_system != GAME_SYSTEM:
        return f"{league} is not a Dungeon Bowl league."
    settings = league.rules.settings
    if settings is None or not settings.playoffs:
        return "This league plays no play-offs (the play-offs are a league setting: change it in the league's settings)."
    regular = Fixture.objects.filter(round__season=season, stage=Fixture.Stage.REGULAR, away__isnull=False)
    if not regular.exists():
        return "The regular season has no fixtures yet."
    waiting = regular.unplayed().count()  # LG-2: a game a withdrawal cancelled waits for nothing
    if waiting:
        return (f"The regular season is not complete: {waiting} fixture{'s' * (waiting != 1)} still "
                f"wait{'s' * (waiting == 1)} for an approved result.")
    divisions = len({row.division for row in rows})
    if divisions != settings.playoffs:
        return (f"The league's play-off setting is for {settings.get_playoffs_display().lower()}, but "
                f"{season.name} has {divisions} division{'s' * (divisions != 1)}: change the setting to match.")
    needed = pr.QUALIFIERS[divisions]
    for name, table in final_tables(season, rows).items():
        if len(table) < needed:
            return f"{name} has {len(table)} teams; the play-offs need its top {needed}."
    return ""


@dataclass
class BracketGame:
    slot: int
    stage: str
    fixture: Fixture
    home: str
    away: str
    result: Result | None

    @property
    def winner(self) -> str | None:
        if self.result is None or not self.result.is_approved:
            return None
        side = self.result.winner_side()
        return {HOME_WIN: self.home, AWAY_WIN: self.away}.get(side)


def bracket(season: Season) -> list[BracketGame]:
    """The season's play-off fixtures in slot order, with their results: one query."""
    games = (
        PlayoffGame.objects.filter(season=season)
        .select_related("fixture__home__coach", "fixture__away__coach", "fixture__result", "fixture__round")
        .order_by("slot")
    )
    out = []
    for game in games:
        fixture = game.fixture
        out.append(BracketGame(game.slot, game.stage, fixture, _name(fixture.home), _name(fixture.away),
                               fixture.result_or_none))
    return out


def _name(entry) -> str:
    if entry is None:
        return ""
    return entry.team or str(entry.coach)


def honours_until(season: Season) -> list[Honour]:
    """DB-14: every honour of the league's seasons up to and including ``season``,
    newest season first (one query), for the league page of every later season."""
    return list(
        Honour.objects.filter(season__league_id=season.league_id)
        .filter(Q(season__start_date__lt=season.start_date) | Q(season__start_date=season.start_date,
                                                                 season_id__lte=season.pk))
        .select_related("season", "team")
        .order_by("-season__start_date", "-season_id", "placing")
    )


# Writes: settling ties and starting the play-offs ---------------------------------------------


def _lock_season(season: Season, by) -> Season:
    season = Season.objects.select_for_update(of=("self",)).select_related("league").get(pk=season.pk)
    if by is None or not season.league.is_organised_by(by):
        raise PermissionDenied("Only the league's organiser runs the play-offs.")
    if season.league.game_system != GAME_SYSTEM:
        raise ValidationError(f"{season.league} is not a Dungeon Bowl league.")
    if PlayoffGame.objects.filter(season=season).exists():
        raise ValidationError(f"The play-offs of {season.name} have already started.")
    return season


def current_seeding(season: Season) -> tuple[pr.Seeding, list]:
    rows = compute_standings(season)
    blocked = why_not_startable(season, rows)
    if blocked:
        raise ValidationError(blocked)
    return pr.playoff_seeding(final_tables(season, rows), settled_orders(season)), rows


@transaction.atomic
def settle_tie(
    *, season: Season, by, teams: list[str], order: list[str] | None = None, reason: str = "",
    roll: bool = False, dice: list[int] | None = None,
) -> PlayoffTie:
    """DB-5b, DB-16: put the teams of one tie the page showed (``teams``) in order,
    best first: ``order`` with the commissioner's ``reason``, or ``roll``: a D6 per
    team, highest first, rolled by the app (equal dice roll again, every roll
    logged) or entered from the table as ``dice`` (one per team, in ``teams``
    order; equal dice are refused: roll again at the table)."""
    season = _lock_season(season, by)
    seeding, _ = current_seeding(season)
    tie = next((t for t in seeding.ties if sorted(t.teams) == sorted(teams)), None)
    if tie is None:
        raise ValidationError("That tie is no longer open: the standings or the settled ties have changed. "
                              "Look at the page again.")
    reason = (reason or "").strip()
    places = ", ".join(map(str, tie.places))
    if not roll:
        if order is None or sorted(order) != sorted(tie.teams):
            raise ValidationError(f"Put each of {', '.join(tie.teams)} in one place.")
        if not reason:
            raise ValidationError("Give the reason for this order: it is shown with the play-offs.")
        return PlayoffTie.objects.create(season=season, where=tie.where, places=places, teams=list(order),
                                         how=PlayoffTie.How.REASON, reason=reason[:300], created_by=by)
    if dice is not None:
        try:
            settled = pr.order_by_rolls(list(tie.teams), list(dice))
        except ValueError as error:
            raise ValidationError(str(error)) from None
        if settled is None:
            raise ValidationError("Equal dice settle nothing: roll again at the table and enter the new dice.")
    record = PlayoffTie.objects.create(season=season, where=tie.where, places=places, teams=list(tie.teams),
                                       how=PlayoffTie.How.ROLL, reason=reason[:300], created_by=by)
    teams_by_name = {t.name: t for t in Team.objects.filter(league=season.league, name__in=tie.teams)}
    for attempt in range(MAX_ROLL_OFFS):
        values = []
        for index, name in enumerate(tie.teams):
            logged = record_roll(
                league=season.league, purpose=DiceRoll.Purpose.TIE, dice="D6",
                values=None if dice is None else [dice[index]], by=by, team=teams_by_name.get(name), cause=record,
                description=f"Play-off tie, {tie.where} places {places}: {possessive(name)} D6"
                            + (f" (roll-off {attempt + 1})" if attempt else ""),
            )
            values.append(logged.values[0])
        settled = pr.order_by_rolls(list(tie.teams), values)
        if settled is not None:
            break
    else:  # pragma: no cover - twenty rounds of equal dice
        raise ValidationError("The dice kept coming up equal; try again.")
    record.teams = settled
    record.save(update_fields=["teams"])
    return record


@transaction.atomic
def start_playoffs(*, season: Season, by) -> list[PlayoffGame]:
    """DB-5b: the two semi-finals from the final standings, in a new round after the
    last (home: the better seed). Refused while the regular season is incomplete or
    a tie at a qualifying place is unsettled."""
    season = _lock_season(season, by)
    seeding, rows = current_seeding(season)
    if seeding.semi_finals is None:
        listed = "; ".join(f"{t.where}, places {'/'.join(map(str, t.places))}: {', '.join(t.teams)}"
                           for t in seeding.ties)
        raise ValidationError(f"Settle the ties at qualifying places first: {listed}.")
    entries = {row.name: row.entry_id for row in rows}
    rnd = _new_round(season, SEMI_FINALS_ROUND)
    games = []
    for slot, (home, away) in zip(SEMI_FINALS, seeding.semi_finals):
        fixture = Fixture.objects.create(round=rnd, stage=Fixture.Stage.PLAYOFF, home_id=entries[home],
                                         away_id=entries[away], date=rnd.date, label=GAME_TITLES[slot])
        games.append(PlayoffGame.objects.create(season=season, fixture=fixture, slot=slot))
    # The new games are the fact; its followers (league/dungeonbowl/followers.py) tell the league.
    facts.happened(PLAYOFFS_SEEDED, rows=games, by=by, league_id=season.league_id, season=season,
                   semi_finals=[(GAME_TITLES[slot], home, away, rnd.date)
                                for slot, (home, away) in zip(SEMI_FINALS, seeding.semi_finals)])
    return games


def _new_round(season: Season, label: str) -> Round:
    last = Round.objects.filter(season=season).order_by("-number").first()
    if last is None:
        return Round.objects.create(season=season, number=1, date=season.start_date, label=label)
    return Round.objects.create(season=season, number=last.number + 1, label=label,
                                date=last.date + datetime.timedelta(days=season.cadence_days))


# Hooks inside the engine's approval transaction --------------------------------------------


def check_winner(result) -> None:
    """A play-off result without a winner cannot be approved (see the Decision above)."""
    if not is_playoff(result.fixture):
        return
    if result.outcome == "draw":
        raise ValidationError(NO_DRAW)
    if result.outcome not in (HOME_WIN, AWAY_WIN):
        raise ValidationError(NO_UNPLAYED)


def lock_playoff_sides(fixture) -> None:
    """league/locks.py, step 3, for a play-off fixture: approving or withdrawing its
    result can pay or take back the prizes of the final's and the third-place
    match's teams and create the next games, so every play-off team of the season
    is locked (by primary key), then the season's play-off rows, before any write."""
    season_id = fixture.round.season_id
    sides = Fixture.objects.filter(round__season_id=season_id, stage=Fixture.Stage.PLAYOFF).values_list("home_id", "away_id")
    entries = {entry for pair in sides for entry in pair if entry} | {fixture.home_id, fixture.away_id} - {None}
    team_ids = TeamSeason.objects.filter(entry_id__in=entries).values_list("team_id", flat=True)
    locks.rows_in_order(Team.objects.all(), list(team_ids))
    locks.rows_in_order(PlayoffGame.objects.all(), list(PlayoffGame.objects.filter(season_id=season_id).values_list("pk", flat=True)))


def _games(season_id: int) -> dict[int, PlayoffGame]:
    """The season's play-off rows, locked (so two semi-finals approved at once
    create one final), with their fixtures and results."""
    locked = list(PlayoffGame.objects.select_for_update(of=("self",)).filter(season_id=season_id).order_by("slot"))
    fixtures = {
        f.pk: f for f in Fixture.objects.filter(pk__in=[g.fixture_id for g in locked])
        .select_related("home__coach", "away__coach", "result", "round")
    }
    for game in locked:
        game.fixture = fixtures[game.fixture_id]
    return {game.slot: game for game in locked}


def _winner_loser(game: PlayoffGame):
    result = game.fixture.result_or_none
    if result is None or not result.is_approved or result.winner_side() is None:
        return None
    fixture = game.fixture
    return (fixture.home, fixture.away) if result.winner_side() == HOME_WIN else (fixture.away, fixture.home)


def after_approval(result, *, by) -> None:
    """DB-5b, DB-14: what an approved play-off result sets going (see the module);
    the prizes are paid as ``by``'s, who approved or entered it."""
    fixture = result.fixture
    if not is_playoff(fixture):
        return
    check_winner(result)
    season = fixture.round.season
    games = _games(season.pk)
    if not any(g.fixture_id == fixture.pk for g in games.values()):
        return  # a play-off fixture outside the bracket (added by hand): nothing follows
    semis = [_winner_loser(games[slot]) for slot in SEMI_FINALS if slot in games]
    if len(semis) == 2 and all(semis) and PlayoffSlot.FINAL not in games:
        rnd = _new_round(season, FINALS_ROUND)
        for slot, pick in ((PlayoffSlot.FINAL, 0), (PlayoffSlot.THIRD, 1)):
            home, away = semis[0][pick], semis[1][pick]
            created = Fixture.objects.create(round=rnd, stage=Fixture.Stage.PLAYOFF, home=home, away=away,
                                             date=rnd.date, label=GAME_TITLES[slot])
            PlayoffGame.objects.create(season=season, fixture=created, slot=slot)
        return
    final, third = games.get(PlayoffSlot.FINAL), games.get(PlayoffSlot.THIRD)
    if final is None or third is None or Honour.objects.filter(season=season).exists():
        return
    decided = _winner_loser(final), _winner_loser(third)
    if all(decided):
        _award(season, champion=decided[0][0], runner_up=decided[0][1], third=decided[1][0], by=by)


def _award(season: Season, *, champion, runner_up, third, by) -> None:
    """DB-14: the honours and the prizes, paid into the Treasury ledgers."""
    by_entry = {ts.entry_id: ts.team_id for ts in TeamSeason.objects.filter(
        entry_id__in=[champion.pk, runner_up.pk, third.pk])}
    teams = {t.pk: t for t in Team.objects.select_for_update().filter(pk__in=by_entry.values()).order_by("pk")}
    if len(teams) != 3:
        raise ValidationError("Every team of the final and the third-place match must be a team of the league.")
    for placing, entry in ((1, champion), (2, runner_up), (3, third)):
        team = teams[by_entry[entry.pk]]
        prize = pr.PRIZES[placing]
        Honour.objects.create(season=season, team=team, placing=placing, prize=prize)
        label = {1: f"champion of {season.name}, with the Dungeon Bowl Trophy", 2: f"runner-up of {season.name}",
                 3: f"third place of {season.name}"}[placing]
        TreasuryLine.objects.create(team=team, amount=prize, kind=TreasuryLine.Kind.PRIZE, cause=season,
                                    reason=label, created_by=by)


def before_withdrawal(result, *, by) -> None:
    """Undo what ``after_approval`` did before ``result`` stops counting, as ``by``,
    who corrects or reopens it. A regular result cannot change once the play-offs
    are seeded from it, a semi-final whose final or third-place match has a result
    cannot either, nor any play-off result once a later season of the league exists
    (its off-season has been run on these placings), nor any result of the season
    once a team has begun re-drafting from it (DB-15 counts its games, wins and
    prizes)."""
    fixture = result.fixture
    season = fixture.round.season
    if Redraft.objects.filter(season=season).exists():
        raise ValidationError(
            f"Re-drafting after {season.name} has begun on these results (games played, wins, prizes): "
            f"its results can no longer change."
        )
    if fixture.stage == Fixture.Stage.REGULAR:
        if PlayoffGame.objects.filter(season=season).exists():
            raise ValidationError(
                f"The play-offs of {season.name} were seeded from these standings: a regular-season "
                f"result can no longer change."
            )
        return
    if not is_playoff(fixture):
        return
    games = _games(season.pk)
    slot = next((g.slot for g in games.values() if g.fixture_id == fixture.pk), None)
    if slot is None:
        return
    later = Season.objects.filter(league_id=season.league_id).filter(
        Q(start_date__gt=season.start_date) | Q(start_date=season.start_date, pk__gt=season.pk)).first()
    if later is not None:
        raise ValidationError(
            f"{later.name} has begun: the placings of {season.name} (its prizes and the Trophy) can no "
            f"longer change."
        )
    if slot in SEMI_FINALS:
        later = [games[s] for s in (PlayoffSlot.FINAL, PlayoffSlot.THIRD) if s in games]
        played = [g for g in later if g.fixture.result_or_none is not None]
        if played:
            names = " and ".join(g.get_slot_display() for g in played)
            raise ValidationError(
                f"The {names} already {'has' if len(played) == 1 else 'have'} a result: this semi-final decides "
                f"who plays in {'it' if len(played) == 1 else 'them'}. Reopen that result and take it back first."
            )
        rounds = {g.fixture.round_id for g in later}
        for game in later:
            game.fixture.delete()  # its PlayoffGame goes with it
        Round.objects.filter(pk__in=rounds, fixtures__isnull=True).delete()
        return
    _take_back_prizes(season, by=by)


def _take_back_prizes(season: Season, *, by) -> None:
    """DB-14 reversed: a reversing line per prize (the ledger is never edited) and
    the season's honours removed: the Trophy goes back to the previous champion."""
    honours = list(Honour.objects.filter(season=season))
    if not honours:
        return
    lines = list(TreasuryLine.objects.filter(
        cause_type=ContentType.objects.get_for_model(Season), cause_id=season.pk, kind=TreasuryLine.Kind.PRIZE,
        reverses__isnull=True, reversed_by__isnull=True,
    ).order_by("team_id"))
    list(Team.objects.select_for_update().filter(pk__in=[line.team_id for line in lines]).order_by("pk"))
    for line in lines:
        TreasuryLine.objects.create(
            team_id=line.team_id, amount=-line.amount, kind=TreasuryLine.Kind.CORRECTION, reverses=line,
            cause=season, reason=f"Play-off result corrected or reopened: takes back “{line.reason}”"[:300],
            created_by=by,
        )
    Honour.objects.filter(pk__in=[h.pk for h in honours]).delete()  # tracked: every later season's page
