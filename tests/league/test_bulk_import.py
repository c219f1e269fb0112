"""Issue 13: ``import_results`` approves every result at once and derives once
(services.record_results_in_bulk). The same file imported that way and through
the services one result at a time (record_result / approve_result, as the import
used to) gives the same standings, the same Big League CP and Favour ledgers and
Moments, and for Dungeon Bowl the same Treasury and dice; and the bulk path costs
a fixed number of queries per result (no per-result query grows with the season)."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from campaigns.balances import active_lines
from campaigns.models import CampaignPointLine, FavourLine, MomentUnlock
from league import import_files, importer, services
from league.models import Season
from league.scheduling import round_robin
from league.standings import compute_standings

pytestmark = pytest.mark.django_db


def one_by_one(rows):
    """A stand-in for the bulk service: each line through the services in turn, as
    the import did before issue 13 (the oracle)."""
    lines = [row for row in rows if row.has_result]

    def record(*, season, items, by):
        assert len(items) == len(lines)
        out = []
        for item, row in zip(items, lines):
            if item.stored is not None:
                out.append(services.approve_result(result=item.stored, by=by, reason=item.reason))
            else:
                out.append(services.record_result(fixture=item.fixture, by=by, reason=item.reason,
                                                  abandoned=item.abandoned, **row.facts))
        return out

    return record


def import_text(text: str, game: str, *, monkeypatch=None) -> None:
    rules = import_files.rules_for(game)
    rows = import_files.read_rows(text.splitlines(keepends=True), rules=rules)
    if monkeypatch is not None:
        monkeypatch.setattr(services, "record_results_in_bulk", one_by_one(rows))
    importer.import_rows(rows, rules=rules)
    if monkeypatch is not None:
        monkeypatch.undo()


def guild_ball_file(league: str, coaches: int = 6) -> str:
    """A double round robin with wins, losses and an abandoned match; one round-1
    line comes last, so one-by-one approval reworks later rounds' GB-18 lines."""
    names = [f"Coach {i}" for i in range(coaches)]
    lines = []
    for number, pairs in enumerate(round_robin(names, double=True, seed=3), start=1):
        for i, (home, away) in enumerate(pairs):
            if home is None or away is None:
                continue
            if (number + i) % 5 == 0:
                lines.append(f"{league},{number},{home},{away},,,abandoned")
            else:
                scores = (12, i + number % 9) if (number * 7 + i) % 3 else (number % 11, 13)
                lines.append(f"{league},{number},{home},{away},{scores[0]},{scores[1]},played")
    lines.append(lines.pop(0))
    return "league,round,home,away,home_vp,away_vp,status\n" + "\n".join(lines) + "\n"


def guild_ball_state(league: str) -> dict:
    season = Season.objects.select_related("league").get(league__name=league)
    standings = [(r.name, r.position, r.played, r.won, r.lost, r.lp, tuple(sorted(r.stats.items())))
                 for r in compute_standings(season)]

    def ledger(model):
        return sorted(
            (line.coach.entry.coach.name, line.amount, line.kind, line.reason)
            for line in active_lines(model).filter(coach__campaign__season=season).select_related("coach__entry__coach")
        )

    moments = sorted(MomentUnlock.objects.filter(coach__campaign__season=season)
                     .values_list("coach__entry__coach__name", "threshold"))
    return {"standings": standings, "cp": ledger(CampaignPointLine), "favours": ledger(FavourLine), "moments": moments}


def test_guild_ball_bulk_import_equals_one_by_one_approval(monkeypatch):
    from campaigns import ledgers

    with monkeypatch.context() as patched:
        patched.setattr(ledgers, "COPY_FROM", 1)  # PostgreSQL: the lines go by COPY, as for a big import
        import_text(guild_ball_file("Bulk Cup"), "guildball")
    import_text(guild_ball_file("Single Cup"), "guildball", monkeypatch=monkeypatch)
    bulk, single = guild_ball_state("Bulk Cup"), guild_ball_state("Single Cup")
    assert bulk["favours"] and bulk["moments"]  # the campaign did derive something
    assert bulk == single


def test_importing_the_same_file_again_changes_nothing_and_a_reported_match_is_approved(organiser):
    text = guild_ball_file("Again Cup", coaches=4)
    import_text(text, "guildball")
    before = guild_ball_state("Again Cup")
    import_text(text, "guildball")
    assert guild_ball_state("Again Cup") == before


def test_bulk_import_queries_do_not_grow_per_result():
    """The queries grow with the coaches (each found or made by the game), not with
    the results: results, their history, the ledgers and Moments go in bulk."""
    counts = {}
    for coaches in (6, 12):
        with CaptureQueriesContext(connection) as captured:
            import_text(guild_ball_file(f"Size {coaches}", coaches=coaches), "guildball")
        results = coaches * (coaches - 1)
        counts[coaches] = (len(captured), results)
    (small, small_results), (big, big_results) = counts[6], counts[12]
    assert big - small < (big_results - small_results) / 2, counts  # 102 more results, 6 more coaches


DB_HEADER = "league,round,home,away,home_td,away_td,home_cas,away_cas,status,dice,home_gather,away_gather"


def dungeon_bowl_results(league: str) -> str:
    lines = [
        f"{league},1,Team 1,Team 2,1,0,2,1,played,5 3,1,0",
        f"{league},1,Team 3,Team 4,0,0,0,0,played,2 6,0,0",
        f"{league},1,Team 5,Team 6,0,1,0,3,conceded,4 4,0,3",
        f"{league},1,Team 7,Team 8,,,,,unplayed,,,",
        f"{league},2,Team 2,Team 3,0,1,1,1,played,6 2,0,2",
        f"{league},2,Team 4,Team 1,0,0,0,0,played,1 3,1,1",
        f"{league},2,Team 6,Team 7,1,0,0,0,played,3 3,0,0",
        f"{league},2,Team 8,Team 5,0,1,2,0,played,6 6,0,0",
    ]
    return DB_HEADER + "\n" + "\n".join(lines) + "\n"


def dungeon_bowl_state(league: str) -> dict:
    from league.dungeonbowl.models import DiceRoll, Team, TreasuryLine

    season = Season.objects.select_related("league").get(league__name=league)
    standings = [(r.name, r.position, r.played, r.lp, tuple(sorted(r.stats.items()))) for r in compute_standings(season)]
    treasury = sorted(TreasuryLine.objects.filter(team__league=season.league).values_list("team__name", "amount", "kind", "reason"))
    dice = sorted((team or "", purpose, str(values), source) for team, purpose, values, source in
                  DiceRoll.objects.filter(league=season.league).values_list("team__name", "purpose", "values", "source"))
    players = sorted(Team.objects.filter(league=season.league).values_list("name", "players__spp", "players__miss_next_game"))
    return {"standings": standings, "treasury": treasury, "dice": dice, "players": players}


def test_dungeon_bowl_bulk_import_equals_one_by_one_approval(tmp_path, monkeypatch):
    from tests.dungeonbowl.test_import_teams import eight_teams, league_file

    for league in ("Bulk Colleges", "Single Colleges"):
        teams = [line.replace("Reikland Colleges", league, 1) for line in eight_teams()]
        call_command("import_teams", str(league_file(tmp_path, teams, name=f"{league}.csv")), stdout=StringIO())
    import_text(dungeon_bowl_results("Bulk Colleges"), "dungeonbowl")
    import_text(dungeon_bowl_results("Single Colleges"), "dungeonbowl", monkeypatch=monkeypatch)
    bulk, single = dungeon_bowl_state("Bulk Colleges"), dungeon_bowl_state("Single Colleges")
    assert bulk["treasury"] and bulk["dice"]
    assert bulk == single
