"""The post-game sequence (DB-9 to DB-13) run when a result is approved, and its
exact reversal when the result is corrected or reopened. Both run inside the
engine's transaction, which has already locked the fixture or the result; the
teams are locked here by primary key (lock order: fixture, result, teams).

Decision (DB-16, re-approval): a result approved again after a correction or a
reopening reuses the winnings roll already logged for it, so reopening a game can
never buy a better roll; dice entered from the table replace it only when they
differ, and then the new table roll is logged too. Every roll stays in the log.

Decision (corrections after spending): a correction takes back the gold the game
paid even if it has been spent; the Treasury may then stand below zero, and every
purchase is refused until it is back above the price. SPP already spent on an
advancement cannot be taken back, so such a correction is refused with the player
named.
"""

from __future__ import annotations

from django.contrib.contenttypes.models import ContentType
from django.core.exceptions import ValidationError
from django.db.models import Q

from league.dungeonbowl.models import DiceRoll, Ending, GameReport, Player, PlayerEffect, Team, TeamSeason, TreasuryLine
from league.dungeonbowl.teams.player_rules import Injury, PlayerState, apply_injury
from league.dungeonbowl.postgame.rules import Outcome, result_for, spp_earned, treasure_room_bonus, winnings
from league.dungeonbowl.dice import record_roll
from league.dungeonbowl.units import gp
from league import locks
from league.caching import writes
from league.rules.base import SIDES, other_side
from league.text.words import plural, possessive, side


def lock_teams(fixture) -> dict[str, Team]:
    """Each side's team, locked in primary-key order (league/locks.py, step 3;
    only the teams' rows, not their league's or college's)."""
    entry_side = {fixture.home_id: "home", fixture.away_id: "away"}
    team_side = {
        ts.team_id: entry_side[ts.entry_id]
        for ts in TeamSeason.objects.filter(entry_id__in=[e for e in entry_side if e])
    }
    locked = locks.rows_in_order(Team.objects.all(), team_side, related=("league", "college"))
    return {team_side[team.pk]: team for team in locked}


def _teams(result) -> dict[str, Team]:
    return lock_teams(result.fixture)


def _outcome(result, report: GameReport) -> Outcome:
    if report.ending == Ending.UNPLAYED or result.outcome == "abandoned":
        return Outcome.UNPLAYED
    if result.outcome == "draw":
        return Outcome.DRAW
    if result.conceded:
        return Outcome.AWAY_CONCEDED if result.outcome == "home" else Outcome.HOME_CONCEDED
    return Outcome.HOME_WIN if result.outcome == "home" else Outcome.AWAY_WIN


def _roll(result, team: Team, *, description: str, dice: str, table: list[int] | None, by,
          source: str = DiceRoll.Source.TABLE) -> list[int]:
    """The winnings roll for ``team``: the one already logged for this result when
    there is one (and the table gave no different dice), else a new logged roll:
    the app's (asked for by ``by``) or the dice typed, logged as ``by``'s with
    ``source`` (DB-16). Found by what caused it, not by its description, whose
    words may change without a re-approval rolling again."""
    logged = (
        DiceRoll.objects.filter(
            cause_type=ContentType.objects.get_for_model(result), cause_id=result.pk,
            purpose=DiceRoll.Purpose.WINNINGS, team=team, dice=dice,
        )
        .order_by("-created_at", "-id")
        .first()
    )
    if logged is not None and (table is None or list(logged.values) == list(table)):
        return list(logged.values)
    roll = record_roll(
        league=team.league, purpose=DiceRoll.Purpose.WINNINGS, dice=dice, values=table, by=by,
        team=team, cause=result, description=description, source=source,
    )
    return list(roll.values)


def _game(fixture) -> str:
    """A game as the dice log, the Treasury and a player's fate name it: by its
    teams, as every Dungeon Bowl page does ("Round 2: Ember Owls v Gloom Ravens")."""
    home, away = (side(entry, entry.team, by_team=True, with_coach=False) for entry in (fixture.home, fixture.away))
    return f"{fixture.title}: {home} v {away}"


def _winnings_dice(result, outcome: Outcome, teams: dict[str, Team], table: list[int] | None, by,
                   source: str = DiceRoll.Source.TABLE) -> list[int]:
    """DB-10: the winner's 2D6; on a draw each team's own D6 (home, then away)."""
    fixture = result.fixture
    if outcome == Outcome.DRAW:
        return [
            _roll(result, teams[side], description=f"draw, {possessive(teams[side])} D6 ({_game(fixture)})", dice="D6",
                  table=None if table is None else [table[i]], by=by, source=source)[0]
            for i, side in enumerate(SIDES)
        ]
    winner = result.outcome
    return _roll(result, teams[winner], description=f"{possessive(teams[winner])} 2D6 as the winner ({_game(fixture)})",
                 dice="2D6", table=table, by=by, source=source)


def log_reported_dice(result, report: GameReport) -> None:
    """DB-16 Decision: winnings dice a coach types on their report are logged at once
    as that coach's roll, so the opponent and the organiser see them on the fixture
    page before approval. Approving the report uses that roll; an organiser who
    corrects the dice logs a table roll of their own, and the coach's stays."""
    if not report.dice or result.status != result.Status.REPORTED or result.reported_side is None:
        return
    outcome = _outcome(result, report)
    if outcome == Outcome.UNPLAYED:
        return
    teams = _teams(result)
    if set(teams) != set(SIDES):
        return  # apply_postgame refuses such a fixture on approval
    coach = result.fixture.entry_for(result.reported_side).coach
    if coach.user_id is None:
        return
    _winnings_dice(result, outcome, teams, report.dice, coach.user, source=DiceRoll.Source.COACH)


def discard_reported_dice(result) -> None:
    """DB-16 Decision, with GB-8's for every game: a report its coach changes or takes
    back before anyone confirmed or approved it was never the game's result, so the
    dice typed on it are not the game's roll either. They go with it, or the next
    approval (or a correction with no dice typed) would reuse a roll the coach
    withdrew, for a team that may not even have won. Only the coach's typed rolls:
    a result reported again after an approval is refused such a change by the
    engine, so no roll the game used is ever removed."""
    DiceRoll.objects.filter(
        cause_type=ContentType.objects.get_for_model(result), cause_id=result.pk, source=DiceRoll.Source.COACH,
    ).delete()


def _pay(team: Team, amount: int, kind: str, reason: str, result, by) -> None:
    if amount:
        TreasuryLine.objects.create(team=team, amount=amount, kind=kind, reason=reason, cause=result, created_by=by)


def _hire_wizard(team: Team, result, by) -> None:
    """DB-6: the College Wizard inducement, one a game, from the Treasury (a ledger
    line caused by the result, so a correction gives it back)."""
    cost, balance = team.college.wizard_cost, team.treasury()
    if balance < cost:
        raise ValidationError(f"{team}'s Treasury holds {gp(balance)}; the {team.college.wizard} costs {gp(cost)}, "
                              f"{gp(cost - balance)} short.")
    _pay(team, -cost, TreasuryLine.Kind.INDUCEMENT,
         f"College Wizard ({team.college.wizard}) hired for {_game(result.fixture)}", result, by)


def apply_postgame(result, *, by) -> None:
    """DB-9 to DB-13 for an approved result: the College Wizards hired for it out of
    the Treasury (DB-6), winnings and the Treasure Room bonus into it, SPP and MVP awards, injuries, and recovery of the players
    who missed this game. League points are the standings' own (DB-4). The gold
    moved and the dice rolled are ``by``'s, who approved or entered the result."""
    report = GameReport.objects.filter(result=result).first()
    if report is None:
        return
    outcome = _outcome(result, report)
    if outcome == Outcome.UNPLAYED:
        return  # DB-5a Decision: no winnings, no SPP, nobody hurt
    teams = _teams(result)
    if set(teams) != set(SIDES):
        raise ValidationError("Both sides of a Dungeon Bowl fixture must be teams entered in the season.")
    fixture = result.fixture

    # DB-6: a College Wizard hired for the game was paid for before it.
    for side in SIDES:
        if getattr(report, f"{side}_wizard"):
            _hire_wizard(teams[side], result, by)

    # DB-10 winnings, then the Treasure Room bonus.
    dice = _winnings_dice(result, outcome, teams, report.dice, by)
    paid = winnings(outcome, dice)
    for side in SIDES:
        verb = {"draw": "draw", "win": "win", "loss": "loss"}[result_for(outcome, side)]
        _pay(teams[side], getattr(paid, side), TreasuryLine.Kind.WINNINGS,
             f"{verb}, dice {' '.join(map(str, dice))}, v {teams[other_side(side)]}, {fixture.title}", result, by)
        gatherers = getattr(report, f"{side}_gather")
        _pay(teams[side], treasure_room_bonus(gatherers), TreasuryLine.Kind.TREASURE_ROOM,
             f"{plural(gatherers, 'player')} used Gather Funds, {fixture.title}", result, by)

    # DB-13 recovery: who missed this game is fit for the next.
    lines = {line.player_id: line for line in report.players.select_related("player")}
    values = result.fixture.round.season.league.rules.settings.spp_values
    effects: dict[int, PlayerEffect] = {}
    missing = Player.objects.select_for_update(of=("self",)).filter(
        team__in=teams.values(), status=Player.Status.ACTIVE, miss_next_game=True
    ).exclude(pk__in=lines)
    for player in missing:
        player.miss_next_game = False
        player.save(update_fields=["miss_next_game"])
        effects[player.pk] = PlayerEffect(result=result, player=player, recovered=True, note="missed this game: fit again")

    # DB-11 SPP and MVP, DB-13 injuries.
    players = {p.pk: p for p in Player.objects.select_for_update(of=("self",)).select_related("position").filter(pk__in=lines)}
    for pid, line in lines.items():
        player = players[pid]
        effect = PlayerEffect(result=result, player=player, spp=spp_earned(line.events, values), mvp=line.mvp)
        player.spp += effect.spp
        player.mvp_awards += 1 if line.mvp else 0
        notes = [f"+{effect.spp} SPP"] if effect.spp else []
        if line.injury:
            state = PlayerState(player.profile, player.niggling_injuries, player.miss_next_game)
            hurt = apply_injury(state, Injury(line.injury), line.lasting or None)
            effect.niggling = hurt.state.niggling_injuries > player.niggling_injuries
            effect.miss_next_game = hurt.state.miss_next_game and not player.miss_next_game
            effect.reduced = hurt.reduced or ""
            effect.died = hurt.state.dead
            profile = hurt.state.profile
            player.ma, player.st, player.ag, player.pa, player.av = profile.ma, profile.st, profile.ag, profile.pa, profile.av
            player.niggling_injuries = hurt.state.niggling_injuries
            player.miss_next_game = hurt.state.miss_next_game
            if hurt.state.dead:
                player.status, player.status_reason = Player.Status.DEAD, f"Died in {_game(fixture)}"
            notes.append(hurt.note)
        effect.note = "; ".join(notes)[:200]
        player.save()
        effects[pid] = effect
    PlayerEffect.objects.bulk_create(effects.values())
    writes.changed(Q(rounds__fixtures__result__pk=result.pk))  # a bulk insert sends no signal


def reverse_postgame(result, *, by) -> None:
    """Undo exactly what ``apply_postgame`` did for ``result``: reversing Treasury
    lines (never edits), written as ``by``'s, who corrects or reopens it, and each
    player's SPP, MVP, injury and recovery put back. The rolls stay in the log."""
    lines = list(TreasuryLine.objects.filter(
        cause_type=ContentType.objects.get_for_model(result), cause_id=result.pk,
        reverses__isnull=True, reversed_by__isnull=True,
    ).select_related("team"))
    effects = list(PlayerEffect.objects.filter(result=result))
    if not lines and not effects:
        return
    _teams(result)  # lock the teams before their players and gold change
    for line in lines:
        TreasuryLine.objects.create(
            team=line.team, amount=-line.amount, kind=TreasuryLine.Kind.CORRECTION, reverses=line, cause=result,
            reason=f"Result corrected or reopened: takes back “{line.reason}”"[:300], created_by=by,
        )
    players = {p.pk: p for p in Player.objects.select_for_update(of=("self",)).filter(pk__in=[e.player_id for e in effects])}
    for effect in effects:
        player = players[effect.player_id]
        if player.spp < effect.spp:
            raise ValidationError(
                f"{player} has already spent SPP earned in this game ({player.spp} left, the game gave "
                f"{effect.spp}); this correction cannot take them back."
            )
        player.spp -= effect.spp
        player.mvp_awards -= 1 if effect.mvp else 0
        player.niggling_injuries -= 1 if effect.niggling else 0
        if effect.reduced:
            profile, _ = player.profile.improved(effect.reduced)
            setattr(player, effect.reduced, getattr(profile, effect.reduced))
        if effect.miss_next_game:
            player.miss_next_game = False
        if effect.recovered:
            player.miss_next_game = True
        if effect.died:
            taken = Player.objects.on_draft_list().filter(team_id=player.team_id, number=player.number).exclude(pk=player.pk).first()
            if taken is not None:
                raise ValidationError(
                    f"{player} would return to the draft list, but #{player.number} is now worn by {taken.name}."
                )
            player.status, player.status_reason = Player.Status.ACTIVE, ""
        player.save()
    PlayerEffect.objects.filter(result=result).delete()
