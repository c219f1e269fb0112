"""Dungeon Bowl's rows in a league's file (league/leaguefiles/): settings, Colleges
and Skills (the published ones matched by name, the league's own created), teams,
players, Treasury lines, dice, game reports, advancements, honours, re-drafts and
play-offs."""

from functools import partial

from django.db.models import Q

from league.games import ExportRows
from league.leaguefiles.registry import Part as AnyPart
from league.dungeonbowl.models import (
    College, DiceRoll, DungeonBowlSettings, GameReport, Honour, Player, PlayerAdvancement, PlayerEffect,
    PlayerGame, PlayoffGame, PlayoffTie, Position, PositionGroup, Redraft, RedraftRoll, Skill, Team,
    TeamSeason, TreasuryLine,
)

# Only in the files of this game's leagues.
Part = partial(AnyPart, game_systems=frozenset({"dungeonbowl"}))


def _redraft_ids(values: dict, id_of) -> None:
    """A re-draft's snapshot and what it drafted name players by id (DB-7's
    re-draft, undone exactly by a correction): the new ids."""
    def player(old):
        return id_of("dungeonbowl.player", old)

    snapshot = values.get("snapshot") or {}
    for line in snapshot.get("players", []):
        if line.get("id") is not None:
            line["id"] = player(line["id"])
    drafted = values.get("drafted")
    if drafted:
        drafted["rehired"] = {str(player(int(old))): kept for old, kept in drafted.get("rehired", {}).items()}
        drafted["dropped"] = [player(old) for old in drafted.get("dropped", [])]
        drafted["rookies"] = [player(old) for old in drafted.get("rookies", [])]


def export_rows() -> ExportRows:
    def mine_or_published(prefix=""):
        return lambda league: Q(**{f"{prefix}league": league}) | Q(**{f"{prefix}league__isnull": True})

    in_results = "result__fixture__round__season__league"
    return ExportRows((
        Part(DungeonBowlSettings, lambda league: DungeonBowlSettings.objects.filter(league=league)),
        Part(College, lambda league: College.objects.filter(mine_or_published()(league)), key=("name", "league")),
        Part(PositionGroup, lambda league: PositionGroup.objects.filter(mine_or_published("college__")(league)),
             key=("name", "college")),
        Part(Position, lambda league: Position.objects.filter(mine_or_published("college__")(league)),
             key=("name", "college")),
        Part(Skill, lambda league: Skill.objects.filter(mine_or_published()(league)), key=("name", "league")),
        Part(Team, lambda league: Team.objects.filter(league=league)),
        Part(Player, lambda league: Player.objects.filter(team__league=league)),
        Part(TeamSeason, lambda league: TeamSeason.objects.filter(team__league=league)),
        Part(TreasuryLine, lambda league: TreasuryLine.objects.filter(team__league=league)),
        Part(DiceRoll, lambda league: DiceRoll.objects.filter(league=league)),
        Part(GameReport, lambda league: GameReport.objects.filter(**{in_results: league})),
        Part(PlayerGame, lambda league: PlayerGame.objects.filter(**{f"report__{in_results}": league})),
        Part(PlayerEffect, lambda league: PlayerEffect.objects.filter(**{in_results: league})),
        Part(PlayerAdvancement, lambda league: PlayerAdvancement.objects.filter(player__team__league=league)),
        Part(Honour, lambda league: Honour.objects.filter(season__league=league)),
        Part(Redraft, lambda league: Redraft.objects.filter(team__league=league), remap=_redraft_ids),
        Part(RedraftRoll, lambda league: RedraftRoll.objects.filter(redraft__team__league=league)),
        Part(PlayoffGame, lambda league: PlayoffGame.objects.filter(season__league=league)),
        Part(PlayoffTie, lambda league: PlayoffTie.objects.filter(season__league=league)),
    ), coaches=lambda league: Team.objects.filter(league=league).values("coach_id"))
