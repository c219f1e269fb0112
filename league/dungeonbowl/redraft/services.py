"""The off-season (DB-15): re-drafting a team step by step, retiring it instead,
and the commissioner opening the next season with the re-drafted and new teams.

Every step is one transaction, keyword-only, the team row locked first (lock
order: league, then team, then its players, as ``services``). The coach or the
commissioner takes a step forward; only the commissioner goes back over one (a
corrected roll), and going back undoes exactly what the later steps did: ledger
lines are reversed by new lines, rolls stay in the dice log (DB-16) marked no
longer current, players who left come back. Nothing of the season that ended is
deleted: its games, standings and rolls stay, and the team as it ended the
season is kept in the re-draft's snapshot. The reads (budgets, who waits, who
enters the next season) are in ``redraft.selectors``.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone

from league.services import seasons as season_services
from league.dungeonbowl.dice import record_roll
from league.dungeonbowl.redraft import rules as redraft_rules
from league.dungeonbowl.teams import rules as team_rules, services
from league.dungeonbowl.models import DiceRoll, Player, Redraft, RedraftRoll, RedraftStep as Step, Team, TreasuryLine
from league.dungeonbowl.redraft.selectors import (
    games_and_wins,
    next_season,
    off_season,
    players_scouted,
    rehire_cost,
)
from league.dungeonbowl.seasons import season_over
from league.dungeonbowl.units import gp
from league.models import Division, Entry, League, Season
from league.text.words import plural, possessive

MIN_TEAMS = team_rules.MIN_TEAMS  # DB-1


# A team's re-draft ----------------------------------------------------------------------


def _locked_team(team: Team, by) -> Team:
    team = Team.objects.select_for_update(of=("self",)).select_related("league", "coach", "college").get(pk=team.pk)
    if not services._may_act_for(by, league=team.league, coach=team.coach):
        raise PermissionDenied("Only the team's coach or the league's organiser re-drafts it.")
    return team


def _snapshot(team: Team, season: Season) -> dict:
    """The team as it ended ``season``: what the re-draft page shows ever after."""
    players = team.players.on_draft_list().select_related("position").order_by("number")
    return {
        "season": season.name,
        "rerolls": team.rerolls,
        "treasury": team.treasury(),
        "players": [
            {
                "id": p.pk, "number": p.number, "name": p.name, "position": p.position.name, "value": p.value,
                "ma": p.ma, "st": p.st, "ag": p.ag, "pa": p.pa, "av": p.av, "skills": p.skills, "spp": p.spp,
                "mvp_awards": p.mvp_awards, "niggling_injuries": p.niggling_injuries,
                "miss_next_game": p.miss_next_game, "seasons_played": p.seasons_played,
            }
            for p in players
        ],
    }


def _current(team: Team, by, *, expect: int) -> Redraft:
    """The team's re-draft for its off-season, created with its snapshot by the
    first step; refused when the team is not in an off-season or the re-draft waits
    on another step."""
    season = off_season(team)
    if season is None:
        raise ValidationError(f"{team} is not in an off-season: re-drafting starts once its season is over.")
    redraft = Redraft.objects.select_for_update().filter(team=team, season=season).first()
    if redraft is None:
        redraft = Redraft.objects.create(team=team, season=season, snapshot=_snapshot(team, season), created_by=by)
    if redraft.step != expect:
        raise ValidationError(
            f"{possessive(team)} re-draft is at '{redraft.get_step_display()}', not '{Step(expect).label}'. "
            "The organiser can take it back to an earlier step."
        )
    return redraft


def _advance(redraft: Redraft, step: int, **fields) -> Redraft:
    for name, value in fields.items():
        setattr(redraft, name, value)
    redraft.step = step
    redraft.updated_at = timezone.now()
    redraft.save()
    return redraft


def _table_rolls(table: Mapping[int, Sequence[int]] | None, league: League, by) -> Mapping[int, Sequence[int]]:
    """DB-16: the organiser may enter rolls made at the table instead of the app's."""
    if table and not league.is_organised_by(by):
        raise PermissionDenied("Only the league's organiser enters rolls made at the table.")
    return table or {}


@transaction.atomic
def scout(*, team: Team, by, table: Mapping[int, int] | None = None) -> Redraft:
    """DB-15 step 1: a D6 for every player on the draft list with an MVP award;
    on a 6 the player leaves for a Blood Bowl team, and the team gets 20,000 gp of
    compensation when raising funds. Each roll is logged (DB-16), by the app unless
    the commissioner enters the table's (player pk -> the die)."""
    team = _locked_team(team, by)
    table = _table_rolls(table, team.league, by)
    redraft = _current(team, by, expect=Step.SCOUTING)
    players = list(team.players.on_draft_list().select_for_update().filter(mvp_awards__gt=0).order_by("number"))
    unknown = set(table) - {p.pk for p in players}
    if unknown:
        raise ValidationError("Enter scouting rolls only for this team's players with an MVP award.")
    for player in players:
        values = [table[player.pk]] if player.pk in table else None
        roll = record_roll(
            league=team.league, purpose=DiceRoll.Purpose.SCOUTING, dice="D6", values=values, by=by, team=team,
            cause=redraft, description=f"{team.name} #{player.number} {player.name} after {redraft.season.name}",
        )
        gone = redraft_rules.scouted(roll.values[0])
        RedraftRoll.objects.create(redraft=redraft, player=player, roll=roll, purpose=RedraftRoll.Purpose.SCOUTING,
                                   effect=gone)
        if gone:
            player.status = Player.Status.LEFT
            player.status_reason = f"Scouted by a Blood Bowl team after {redraft.season.name}"
            player.save(update_fields=["status", "status_reason"])
    return _advance(redraft, Step.RECOVERY)


@transaction.atomic
def recover(*, team: Team, by) -> Redraft:
    """DB-15 step 2 (R&R): players who would miss the next game recover."""
    team = _locked_team(team, by)
    redraft = _current(team, by, expect=Step.RECOVERY)
    team.players.on_draft_list().filter(miss_next_game=True).update(miss_next_game=False)
    return _advance(redraft, Step.FUNDS)


@transaction.atomic
def raise_funds(*, team: Team, by) -> Redraft:
    """DB-15 step 3: the Re-Draft Budget (1,000,000 + the Treasury + 20,000 a game
    played + 20,000 a league fixture won + compensation, capped at 1,300,000 when
    the league says so); the Treasury is emptied by a ledger line."""
    team = _locked_team(team, by)
    redraft = _current(team, by, expect=Step.FUNDS)
    treasury = team.treasury()
    if treasury < 0:
        raise ValidationError(f"{possessive(team)} Treasury is {gp(treasury)}; the organiser corrects it first.")
    cap = bool(team.league.rules.settings and team.league.rules.settings.redraft_cap)
    games, wins = games_and_wins(team, redraft.season)
    budget = redraft_rules.redraft_budget(
        treasury=treasury, games_played=games, league_wins=wins, players_scouted=players_scouted(redraft), cap=cap,
    )
    emptied = TreasuryLine.objects.create(
        team=team, amount=-treasury, kind=TreasuryLine.Kind.REDRAFT, cause=redraft, created_by=by,
        reason=f"after {redraft.season.name}, the Treasury goes into the Re-Draft Budget and is emptied",
    )
    return _advance(redraft, Step.DRAFT, treasury=treasury, games_played=games, league_wins=wins,
                    players_scouted=players_scouted(redraft), cap=cap, budget=budget.budget, emptied=emptied)


@dataclass(frozen=True)
class Rookie:
    position: str
    name: str = ""


@transaction.atomic
def check_redraft(team: Team, returning: Sequence, rookies: Sequence[str], rerolls: int, budget: int,
                  positions=None) -> team_rules.DraftCheck:
    """DB-15 step 4 as a draft (DB-6, DB-7): returning players at ``rehire_cost``,
    rookies and re-rolls at the roster price, within the Re-Draft Budget. The
    re-draft page shows it too (its cost, the budget left, each limit), passing the
    college's ``positions`` it has read already."""
    picks = [team_rules.Pick(p.position.name, cost=rehire_cost(p), label=f"#{p.number} {p.name}") for p in returning]
    return team_rules.check_draft(team.college.roster(positions), [*picks, *rookies], rerolls, budget)


def redraft_team(
    *,
    team: Team,
    by,
    rehire: Sequence[int],
    rookies: Sequence[str | Rookie],
    rerolls: int,
    niggling: Mapping[int, Sequence[int]] | None = None,
) -> Redraft:
    """DB-15 step 4: the new draft list within the Re-Draft Budget. Re-rolls at the
    roster price; returning players (pks in ``rehire``) at ``rehire_cost`` with their
    whole profile, each Niggling Injury rolled for (4+ removes it, DB-16 logged,
    table rolls from the commissioner as player pk -> dice); new rookies at the
    roster price. Players not re-hired leave the team and keep their history. The
    unspent budget opens the Treasury. A refused draft writes nothing."""
    if isinstance(rerolls, bool) or not isinstance(rerolls, int):
        raise ValidationError("Team re-rolls are a whole number.")
    team = _locked_team(team, by)
    niggling = _table_rolls(niggling, team.league, by)
    redraft = _current(team, by, expect=Step.DRAFT)
    on_list = {p.pk: p for p in team.players.on_draft_list().select_for_update(of=("self",)).select_related("position")}
    rehire = list(dict.fromkeys(rehire))
    strangers = [pk for pk in rehire if pk not in on_list]
    if strangers:
        raise ValidationError("Re-hire only players from the team's draft list of last season.")
    returning = sorted((on_list[pk] for pk in rehire), key=lambda p: p.number)
    lines = [r if isinstance(r, Rookie) else Rookie(r) for r in rookies]
    check = check_redraft(team, returning, [r.position for r in lines], rerolls, redraft.budget)
    for pk, rolls in niggling.items():
        player = on_list.get(pk)
        if player is None or pk not in rehire:
            raise ValidationError("Enter Niggling Injury rolls only for re-hired players.")
        if len(rolls) != player.niggling_injuries:
            raise ValidationError(f"{player}: roll one D6 per Niggling Injury ({player.niggling_injuries}).")
    if not check.ok:
        raise ValidationError(list(check.refusals))

    drafted = {"rerolls": team.rerolls, "rehired": {}, "dropped": [], "rookies": []}
    for player in returning:
        drafted["rehired"][str(player.pk)] = [player.niggling_injuries, player.seasons_played]
        rolls = []
        for i in range(player.niggling_injuries):
            table = niggling.get(player.pk)
            roll = record_roll(
                league=team.league, purpose=DiceRoll.Purpose.NIGGLING, dice="D6",
                values=[table[i]] if table else None, by=by, team=team, cause=redraft,
                description=f"{team.name} #{player.number} {player.name}, injury {i + 1}, at the re-draft",
            )
            rolls.append(roll.values[0])
            RedraftRoll.objects.create(redraft=redraft, player=player, roll=roll, purpose=RedraftRoll.Purpose.NIGGLING,
                                       effect=roll.values[0] >= 4)
        player.niggling_injuries = redraft_rules.niggling_recovery(player.niggling_injuries, rolls)
        player.seasons_played += 1
        player.save(update_fields=["niggling_injuries", "seasons_played"])
    dropped = [p for p in on_list.values() if p.pk not in rehire]
    for player in dropped:
        drafted["dropped"].append(player.pk)
        player.status = Player.Status.LEFT
        player.status_reason = f"Not re-hired at the re-draft after {redraft.season.name}"
        player.save(update_fields=["status", "status_reason"])
    taken = {p.number for p in returning}
    free = (n for n in range(1, 100) if n not in taken)
    positions = {p.name: p for p in team.college.positions.all()}
    created = Player.objects.bulk_create(
        Player(team=team, name=(line.name.strip() or line.position)[:60], number=next(free),
               position=(pos := positions[line.position]), ma=pos.ma, st=pos.st, ag=pos.ag, pa=pos.pa, av=pos.av)
        for line in lines
    )
    drafted["rookies"] = [p.pk for p in created]
    team.rerolls = rerolls
    team.save(update_fields=["rerolls"])
    opened = TreasuryLine.objects.create(
        team=team, amount=check.remaining, kind=TreasuryLine.Kind.REDRAFT, cause=redraft, created_by=by,
        reason=(
            f"after {redraft.season.name}: budget {gp(redraft.budget)}, {len(returning)} returning "
            f"and {plural(len(lines), 'new player')} {gp(check.players_cost)}, {plural(rerolls, 're-roll')} "
            f"{gp(check.rerolls_cost)}, unspent {gp(check.remaining)}"
        ),
    )
    return _advance(redraft, Step.DONE, opened=opened, drafted=drafted)


@transaction.atomic
def retire_team(*, team: Team, by) -> Redraft:
    """DB-15 is for coaches who choose it: a team not re-drafted retires with its
    history, and its coach may draft a new team for the next season."""
    team = _locked_team(team, by)
    return _advance(_current(team, by, expect=Step.SCOUTING), Step.RETIRED)


def _reverse(line: TreasuryLine | None, *, by, why: str) -> None:
    if line is not None and line.amount:
        TreasuryLine.objects.create(team=line.team, amount=-line.amount, kind=TreasuryLine.Kind.REDRAFT,
                                    reverses=line, reason=why, created_by=by)


@transaction.atomic
def go_back(*, team: Team, to: int, by) -> Redraft:
    """The commissioner takes a re-draft back to step ``to`` (to correct a roll or a
    choice), undoing that step and every later one; allowed until the next season
    starts for the team. Ledger lines are reversed, rolls stay in the log no longer
    current, players who left by a step come back."""
    team = Team.objects.select_for_update(of=("self",)).select_related("league").get(pk=team.pk)
    if by is None or not team.league.is_organised_by(by):
        raise PermissionDenied("Only the league's organiser takes a re-draft back to an earlier step.")
    season = off_season(team)
    redraft = Redraft.objects.select_for_update().filter(team=team, season=season).first() if season else None
    if redraft is None:
        raise ValidationError(f"{team} has no re-draft under way to correct.")
    if to not in (Step.SCOUTING, Step.RECOVERY, Step.FUNDS, Step.DRAFT):
        raise ValidationError("Choose a step from 1 to 4.")
    now = redraft.step
    if now == Step.RETIRED:
        if to != Step.SCOUTING:
            raise ValidationError("A retired team comes back at its first step, scouting.")
        other = Team.objects.filter(league=team.league, coach=team.coach).exclude(pk=team.pk).exclude(
            redrafts__step=Step.RETIRED).first()
        if other is not None:
            raise ValidationError(f"{team.coach} has drafted {other} since; a coach fields one team a league.")
        return _advance(redraft, Step.SCOUTING)
    if to >= now:
        raise ValidationError(f"{possessive(team)} re-draft is at step {now}; go back to an earlier step.")
    why = f"taken back to step {to} by the organiser (the off-season after {season.name})"
    list(team.players.select_for_update().values_list("pk", flat=True))  # lock order: team, then its players
    players = Player.objects.filter(team=team)
    if now == Step.DONE:
        done = redraft.drafted
        Player.objects.filter(pk__in=done["rookies"], team=team).delete()  # they never played
        for pk, (niggling, seasons) in done["rehired"].items():
            players.filter(pk=int(pk)).update(niggling_injuries=niggling, seasons_played=seasons)
        back = players.filter(pk__in=done["dropped"])
        clash = players.filter(status=Player.Status.ACTIVE, number__in=back.values("number")).first()
        if clash is not None:
            raise ValidationError(f"#{clash.number} {clash.name} joined since the re-draft and wears a number a "
                                  "dropped player would take back; fire them first.")
        back.update(status=Player.Status.ACTIVE, status_reason="")
        team.rerolls = done["rerolls"]
        team.save(update_fields=["rerolls"])
        _reverse(redraft.opened, by=by, why=why)
        redraft.rolls.filter(purpose=RedraftRoll.Purpose.NIGGLING).update(current=False)
        redraft.opened, redraft.drafted = None, None
    if now >= Step.DRAFT and to <= Step.FUNDS:
        _reverse(redraft.emptied, by=by, why=why)
        redraft.emptied = redraft.budget = redraft.treasury = None
        redraft.games_played = redraft.league_wins = redraft.players_scouted = None
        redraft.cap = False
    if now >= Step.FUNDS and to <= Step.RECOVERY:
        missing = [p["id"] for p in redraft.snapshot["players"] if p["miss_next_game"]]
        players.filter(pk__in=missing, status=Player.Status.ACTIVE).update(miss_next_game=True)
    if now >= Step.RECOVERY and to <= Step.SCOUTING:
        scouting = redraft.rolls.filter(purpose=RedraftRoll.Purpose.SCOUTING, current=True)
        players.filter(pk__in=scouting.filter(effect=True).values("player_id"), status=Player.Status.LEFT).update(
            status=Player.Status.ACTIVE, status_reason="")
        scouting.update(current=False)
    if team.treasury() < 0:
        raise ValidationError(f"{team} has spent since that step; going back would leave its Treasury below 0.")
    return _advance(redraft, to)


# The next season -----------------------------------------------------------------------


# The next season -----------------------------------------------------------------------


KEEP = "keep"


@transaction.atomic
def open_next_season(*, league: League, by, name: str, start_date: datetime.date, divisions: str | int = KEEP,
                     seed: int | None = None) -> Season:
    """The commissioner opens the next season once the last one is over (DB-3):
    entries for the re-drafted and the new teams, divisions kept (new teams join
    the smallest), drawn again (2 to 4, DB-2) or none (0), and the fixtures."""
    league = League.objects.select_for_update().get(pk=league.pk)
    if by is None or not league.is_organised_by(by):
        raise PermissionDenied("Only the league's organiser opens the next season.")
    plan = next_season(league)
    last = plan.season
    if last is None or not season_over(last):
        raise ValidationError("The next season opens once this season is over (its play-offs played).")
    name = (name or "").strip()
    if not name or len(name) > Season._meta.get_field("name").max_length:
        raise ValidationError("Name the new season (up to 100 characters).")
    if Season.objects.filter(league=league, name=name).exists():
        raise ValidationError(f"{league} already has a season called {name}.")
    if start_date <= last.start_date:
        raise ValidationError(f"The new season starts after {last.name} started ({last.start_date:%d %b %Y}).")
    if len(plan.ready) < MIN_TEAMS:
        raise ValidationError(f"A season needs at least {MIN_TEAMS} teams; {len(plan.ready)} {'is' if len(plan.ready) == 1 else 'are'} ready.")
    season = Season.objects.create(league=league, name=name, start_date=start_date, cadence_days=last.cadence_days,
                                   double_round_robin=last.double_round_robin)
    entries: dict[int, Entry] = {}
    for team in plan.ready:
        entries[team.pk] = services.enter_team(team=team, season=season, by=by)
    if divisions == KEEP:
        before = dict(Entry.objects.filter(season=last, dungeonbowl__team__in=plan.ready)
                      .values_list("dungeonbowl__team_id", "division__name"))
        names = list(Division.objects.filter(season=last).order_by("name").values_list("name", flat=True))
        if names:
            groups: dict[str, list[Entry]] = {n: [] for n in names}
            newcomers = []
            for team in plan.ready:
                (groups[before[team.pk]] if before.get(team.pk) in groups else newcomers).append(entries[team.pk])
            for entry in newcomers:
                min(groups.values(), key=len).append(entry)
            season_services.set_season_divisions(season=season, by=by, divisions={n: g for n, g in groups.items() if g})
    elif isinstance(divisions, int) and divisions:
        season_services.draw_season_divisions(season=season, by=by, count=divisions, seed=seed)
    season_services.generate_fixtures(season=season, by=by, seed=seed)
    return season
