"""Spending after a game (DB-12): hiring players, firing them, buying team re-rolls
at double cost, hiring Journeymen who played permanently. Each service locks the
team row first (lock order: fixture, result, teams by pk, then players), checks the
Treasury (the sum of its ledger), the limits and the rules, and writes a ledger
line whose cause is what was bought. Refusals say what is missing and by how much.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.contenttypes.models import ContentType
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction

from league.dungeonbowl.teams import player_rules, rules as team_rules
from league.dungeonbowl.models import (
    MAX_NUMBER, DiceRoll, GameReport, Player, PlayerAdvancement, Position, Skill, Team, TreasuryLine,
)
from league.dungeonbowl.dice import record_roll
from league.dungeonbowl.units import gp
from league.models import Result


def _lock(team: Team, by) -> Team:
    team = Team.objects.select_for_update(of=("self",)).select_related("league", "coach", "college").get(pk=team.pk)
    if by is None or not by.is_authenticated or (team.coach.user_id != by.pk and not team.league.is_organised_by(by)):
        raise PermissionDenied("Only the team's coach or the league's organiser spends its Treasury.")
    if team.draft_submitted_at is None:
        raise ValidationError(f"{team} has no draft yet: draft the team first.")
    return team


def _pay(team: Team, cost: int, reason: str, cause, by) -> None:
    balance = team.treasury()
    if balance < cost:
        raise ValidationError(f"{reason} costs {gp(cost)}; the Treasury holds {gp(balance)} ({gp(cost - balance)} short).")
    TreasuryLine.objects.create(team=team, amount=-cost, kind=TreasuryLine.Kind.PURCHASE, reason=reason, cause=cause, created_by=by)


def _check_room(team: Team, position: Position) -> int:
    """DB-6/DB-12: under 16 players and within the position's group; the free number."""
    on_list = list(team.players.on_draft_list().select_related("position"))
    if len(on_list) >= team_rules.MAX_PLAYERS:
        raise ValidationError(f"{team} already has {team_rules.MAX_PLAYERS} players; fire one first.")
    if position.college_id != team.college_id:
        raise ValidationError(f"{position} is not a position of the {team.college}.")
    in_group = sum(1 for p in on_list if p.position.group_id == position.group_id)
    if in_group >= position.group.max_count:
        raise ValidationError(f"The {team.college} allows {position.group}; {team} already has {in_group}.")
    taken = {p.number for p in on_list}
    return next(n for n in range(1, MAX_NUMBER + 1) if n not in taken)


def _new_player(team: Team, position: Position, name: str, number: int) -> Player:
    return Player.objects.create(
        team=team, name=(name.strip() or position.name)[:60], number=number, position=position,
        ma=position.ma, st=position.st, ag=position.ag, pa=position.pa, av=position.av,
    )


@transaction.atomic
def hire_player(*, team: Team, position: Position, name: str = "", by) -> Player:
    """DB-12: a new player at the roster price, from the Treasury."""
    team = _lock(team, by)
    position = Position.objects.select_related("group").get(pk=position.pk)
    number = _check_room(team, position)
    player = _new_player(team, position, name, number)
    _pay(team, position.cost, f"Hired #{number} {player.name} ({position})", player, by)
    return player


@transaction.atomic
def fire_player(*, player: Player, by) -> Player:
    """DB-12: the player leaves the draft list (Team Value falls); no gold back."""
    team = _lock(player.team, by)
    player = Player.objects.select_for_update(of=("self",)).get(pk=player.pk, team=team)
    if player.status != Player.Status.ACTIVE:
        raise ValidationError(f"{player} is not on the draft list.")
    player.status, player.status_reason = Player.Status.FIRED, "Fired by the coach"
    player.save(update_fields=["status", "status_reason"])
    return player


@transaction.atomic
def buy_reroll(*, team: Team, by) -> Team:
    """DB-6/DB-12: a team re-roll after the draft costs double, up to 8."""
    team = _lock(team, by)
    if team.rerolls >= team_rules.MAX_REROLLS:
        raise ValidationError(f"{team} already has {team_rules.MAX_REROLLS} team re-rolls, the most a team can have.")
    cost = 2 * team.college.reroll_cost
    _pay(team, cost, f"Team re-roll {team.rerolls + 1} at double cost", team, by)
    team.rerolls += 1
    team.save(update_fields=["rerolls"])
    return team


@transaction.atomic
def hire_journeyman(*, team: Team, result: Result, position: Position, name: str = "", by) -> Player:
    """DB-12: a Journeyman who played in ``result`` joins permanently at the roster
    price, while the team has fewer than 16 players; no more than the game's report
    says played, and only from the college's 0-16 line."""
    team = _lock(team, by)
    number = check_journeyman(team=team, result=result, position=position)
    player = _new_player(team, position, name, number)
    _pay(team, position.cost, f"Journeyman #{number} {player.name} hired permanently (game {result.pk})", player, by)
    return player


def check_journeyman(*, team: Team, result: Result, position: Position) -> int:
    """DB-12's checks for hiring a Journeyman, writing nothing: the confirmation page
    runs them before asking, the service again under the team's lock. Returns the
    number the player would wear; a ``ValidationError`` says why not."""
    position = Position.objects.select_related("group").get(pk=position.pk)
    if position.group.max_count < team_rules.MAX_PLAYERS:
        raise ValidationError("Journeymen are the college's 0-16 linemen.")
    report = GameReport.objects.filter(result=result, result__status=Result.Status.APPROVED).select_related(
        "result__fixture").first()
    side = None
    if report is not None:
        entries = {report.result.fixture.home_id: "home", report.result.fixture.away_id: "away"}
        side = next((entries[ts.entry_id] for ts in team.seasons.all() if ts.entry_id in entries), None)
    if side is None:
        raise ValidationError(f"{team} played no approved game there.")
    played = getattr(report, f"{side}_journeymen")
    hired = TreasuryLine.objects.filter(
        team=team, kind=TreasuryLine.Kind.PURCHASE, reason__startswith="Journeyman",
        reason__contains=f"(game {result.pk})",
    ).count()
    if hired >= played:
        raise ValidationError(f"{team} fielded {played} Journeymen in that game and has hired {hired} of them.")
    number = _check_room(team, position)
    balance = team.treasury()
    if balance < position.cost:
        raise ValidationError(f"A {position.name} costs {gp(position.cost)}; the Treasury holds {gp(balance)} "
                              f"({gp(position.cost - balance)} short).")
    return number


def purchase_lines(team: Team):
    """The ledger's purchases with their causes' type, for reconciling."""
    return TreasuryLine.objects.filter(team=team, kind=TreasuryLine.Kind.PURCHASE).select_related("cause_type")


__all__ = ["advance_player", "buy_reroll", "check_journeyman", "fire_player", "hire_journeyman", "hire_player",
           "ContentType"]


# Advancements (DB-11) ----------------------------------------------------------------


MAX_SKILL_ROLLS = 50  # a roll that lands on a skill the player has is rolled again; fifty do not happen


@transaction.atomic
def advance_player(
    *, player: Player, kind: str, category: str = "", skill: str = "", characteristic: str = "",
    table_dice: Sequence[int] | None = None, by,
):
    """DB-11: spend a player's SPP on an advancement from the Decision table: a chosen
    primary or secondary skill from the position's categories, picked from the
    skill list (``Skill``) and not one the player has; a random one from a category
    of the position's, on that category's list (``_random_skill``); or +1 to a
    characteristic (never past its best). The player's value rises by the Decision's
    amount. Lock order: team, then the player."""
    team = _lock(player.team, by)
    player = Player.objects.select_for_update(of=("self",)).select_related("position").get(pk=player.pk, team=team)
    if player.status != Player.Status.ACTIVE:
        raise ValidationError(f"{player} is not on the draft list.")
    skill = " ".join((skill or "").split())
    if kind in player_rules.RANDOM_ADVANCEMENTS:
        check = _check(player, kind, category=category)
        skill = _random_skill(team=team, player=player, kind=kind, category=category, typed=skill,
                              table_dice=table_dice, by=by)
        characteristic = ""
    elif kind != player_rules.Advancement.CHARACTERISTIC:
        if not skill:
            raise ValidationError("Choose the skill the player learns.")
        known = Skill.for_league(team.league_id).filter(name__iexact=skill[:40]).first() if len(skill) <= 40 else None
        if known is None:
            raise ValidationError(f"{skill[:40]} is not a skill of the league's list; choose one from it (the "
                                  "organiser adds skills on the league's settings page).")
        skill = known.name
        if known.category:
            category = category or known.category
            if category != known.category:
                raise ValidationError(f"{known.name} is a {known.get_category_display()} skill, not "
                                      f"{player_rules.SKILL_CATEGORIES.get(category, category)}.")
        owned = next((s for s in player.skills if s.lower() == skill.lower()), None)
        if owned is not None:
            raise ValidationError(f"{player} already has {owned}.")
        characteristic = ""
    else:
        skill, category = "", ""
    if kind not in player_rules.RANDOM_ADVANCEMENTS:
        check = _check(player, kind, category=category, characteristic=characteristic)
    if characteristic:
        profile, _ = player.profile.improved(characteristic)
        for name in player_rules.CHARACTERISTICS:
            setattr(player, name, getattr(profile, name))
    else:
        player.skills_gained = [*player.skills_gained, skill]
    player.spp -= check.spp_cost
    player.advancements = check.number
    player.value_increase += check.value_increase
    player.save(update_fields=[*player_rules.CHARACTERISTICS, "skills_gained", "spp", "advancements", "value_increase"])
    return PlayerAdvancement.objects.create(
        player=player, number=check.number, kind=kind, category=category, skill=skill,
        characteristic=characteristic, spp_cost=check.spp_cost, value_increase=check.value_increase, created_by=by,
    )


def _check(player: Player, kind: str, *, category: str, characteristic: str = "") -> player_rules.AdvancementCheck:
    try:
        return player_rules.check_advancement(
            kind, advancements_taken=player.advancements, spp=player.spp, category=category,
            primary=player.position.primary, secondary=player.position.secondary,
            characteristic=characteristic or None, profile=player.profile,
        )
    except ValueError as error:
        raise ValidationError(f"{player}: {error}") from None


def _random_skill(*, team: Team, player: Player, kind: str, category: str, typed: str,
                  table_dice: Sequence[int] | None, by) -> str:
    """DB-11, DB-16: the skill a random advancement gives, from the category's skills
    on the league's list. Rolled at the table, the coach types the skill and the
    2D6 they rolled; a skill the player has is refused (roll again at the table).
    Rolled by the site, the list in name order is the table (``skill_dice``) and a
    roll landing on a skill the player has is rolled again. Every roll is logged
    with who entered it or had the site roll it."""
    table = list(Skill.for_league(team.league_id).filter(category=category).order_by("name")
                 .values_list("name", flat=True))
    label = player_rules.SKILL_CATEGORIES[category]
    owned = {name.lower() for name in player.skills}
    which = "primary" if kind in player_rules.PRIMARY_ADVANCEMENTS else "secondary"
    about = f"Random {which} skill ({label}) for #{player.number} {player.name}"
    if not table:
        raise ValidationError(f"The league's skill list holds no {label} skills to roll on: the organiser "
                              "adds skills to it on the league's settings page first.")
    if typed:
        known = next((name for name in table if name.lower() == typed.lower()), None)
        if known is None:
            raise ValidationError(f"{typed[:40]} is not a {label} skill of the league's list.")
        if known.lower() in owned:
            raise ValidationError(f"{player} already has {known}: roll again at the table and enter "
                                  "the new roll.")
        if not table_dice:
            raise ValidationError("Enter the 2D6 rolled at the table.")
        record_roll(league=team.league, purpose=DiceRoll.Purpose.ADVANCEMENT, dice="2D6", values=list(table_dice),
                    by=by, team=team, cause=player, description=f"{about}: {known}, rolled at the table")
        return known
    if table_dice:
        raise ValidationError("Dice rolled at the table come with the skill they gave: choose it, or leave both "
                              "empty for the site to roll.")
    if all(name.lower() in owned for name in table):
        raise ValidationError(f"{player} already has every {label} skill of the league's list.")
    dice = player_rules.skill_dice(len(table))
    for attempt in range(MAX_SKILL_ROLLS):
        roll = record_roll(league=team.league, purpose=DiceRoll.Purpose.ADVANCEMENT, dice=dice, by=by, team=team,
                           cause=player, description=f"{about} on {len(table)} skills"
                           + (" (rolled again: the last landed on a skill the player has)" if attempt else ""))
        landed = player_rules.skill_on_list(table, roll.values)
        if landed.lower() not in owned:
            return landed
    raise ValidationError("The dice kept landing on skills the player has; try again.")  # pragma: no cover
