"""``import_results`` approves every result at once and derives once
(bulk_results.record_results_in_bulk). The same file imported that way and through
the services one result at a time (record_result / approve_result, as the import
used to) gives the same standings, the same Big League CP and Favour ledgers and
Moments, and for Dungeon Bowl the same Treasury and dice; and the bulk path costs
a fixed number of queries per result (no per-result query grows with the season)."""

from __future__ import annotations

import dataclasses
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from campaigns.ledgers.balances import active_lines
from campaigns.models import CampaignPointLine, FavourLine, MomentUnlock
from league import layers
from league.spreadsheets import files as import_files
from league.spreadsheets import writer as importer
from league.services import bulk_results
from league.services import results as services
from league.models import Season
from league.rules.scheduling import round_robin
from league.standings.season import compute_standings

pytestmark = pytest.mark.django_db


def one_by_one(rows):
    """A stand-in for the bulk service: each line through the services in turn, as
    the import did before its bulk path (the oracle)."""
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


def line_by_line_layers(monkeypatch) -> None:
    """The layers' import columns without their bulk path: each line's figures
    through ``apply`` in turn (the Big League's ``record_match_cp``), the oracle
    for the layers' bulk path."""
    plain = tuple(
        layer if layer.import_columns is None
        else dataclasses.replace(layer, import_columns=dataclasses.replace(layer.import_columns, apply_all=None))
        for layer in layers.layers()
    )
    monkeypatch.setattr(layers, "layers", lambda: plain)


def import_text(text: str, game: str, *, monkeypatch=None, by=None) -> None:
    rules = import_files.rules_for(game)
    rows = import_files.read_rows(text.splitlines(keepends=True), rules=rules)
    if monkeypatch is not None:
        monkeypatch.setattr(bulk_results, "record_results_in_bulk", one_by_one(rows))
        line_by_line_layers(monkeypatch)
    importer.import_rows(rows, rules=rules, by=by or importer_user())
    if monkeypatch is not None:
        monkeypatch.undo()


def importer_user():
    """The organiser who imports (an import names one)."""
    return get_user_model().objects.get_or_create(username="organiser-importing")[0]


def guild_ball_file(league: str, coaches: int = 6, *, cp: bool = False) -> str:
    """A double round robin with wins, losses and an abandoned match; one round-1
    line comes last, so one-by-one approval reworks later rounds' GB-18 lines.
    ``cp``: with the Big League's ``home_cp,away_cp`` columns (GB-11), some empty,
    some zero, enough to reach Moments (GB-13)."""
    names = [f"Coach {i}" for i in range(coaches)]
    lines = []
    for number, pairs in enumerate(round_robin(names, double=True, seed=3), start=1):
        for i, (home, away) in enumerate(pairs):
            if home is None or away is None:
                continue
            gained = f",{(number * 3 + i) % 7 or ''},{(number + i * 5) % 4}" if cp else ""
            if (number + i) % 5 == 0:
                lines.append(f"{league},{number},{home},{away},,,abandoned{gained}")
            else:
                scores = (12, i + number % 9) if (number * 7 + i) % 3 else (number % 11, 13)
                lines.append(f"{league},{number},{home},{away},{scores[0]},{scores[1]},played{gained}")
    lines.append(lines.pop(0))
    header = "league,round,home,away,home_vp,away_vp,status" + (",home_cp,away_cp" if cp else "")
    return header + "\n" + "\n".join(lines) + "\n"


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
    from league import bulkinsert

    with monkeypatch.context() as patched:
        patched.setattr(bulkinsert, "COPY_FROM", 1)  # PostgreSQL: the lines go by COPY, as for a big import
        import_text(guild_ball_file("Bulk Cup"), "guildball")
    import_text(guild_ball_file("Single Cup"), "guildball", monkeypatch=monkeypatch)
    bulk, single = guild_ball_state("Bulk Cup"), guild_ball_state("Single Cup")
    assert bulk["favours"] and bulk["moments"]  # the campaign did derive something
    assert bulk == single


def test_guild_ball_bulk_import_with_cp_columns_equals_one_by_one_approval(monkeypatch):
    """The CP columns go in bulk too (campaigns.ledgers.imports.record_cp_in_bulk),
    giving the CP lines, Favours and Moments of each line through
    ``record_match_cp`` after one-by-one approval (GB-11, GB-13, GB-18)."""
    import_text(guild_ball_file("Bulk Cup", cp=True), "guildball")
    import_text(guild_ball_file("Single Cup", cp=True), "guildball", monkeypatch=monkeypatch)
    bulk, single = guild_ball_state("Bulk Cup"), guild_ball_state("Single Cup")
    imported = [line for line in bulk["cp"] if line[2] == "adjustment"]
    assert len(imported) > 20 and any(threshold > 0 for _, threshold in bulk["moments"])
    assert bulk == single
    # Who recorded them, and the same file again adds nothing (idempotent, GB-11).
    assert set(CampaignPointLine.objects.filter(kind="adjustment").values_list("created_by__username", flat=True)) == {
        "organiser-importing"}
    import_text(guild_ball_file("Bulk Cup", cp=True), "guildball")
    assert guild_ball_state("Bulk Cup") == bulk


def test_bulk_cp_refuses_a_changed_figure_with_its_line_and_writes_nothing():
    text = guild_ball_file("Changed Cup", coaches=4, cp=True)
    import_text(text, "guildball")
    before = CampaignPointLine.objects.count()
    lines = text.splitlines()
    number, line = next((n, l) for n, l in enumerate(lines) if n and l.split(",")[-2])
    fields = line.split(",")
    fields[-2] = str(int(fields[-2]) + 1)
    lines[number] = ",".join(fields)
    with pytest.raises(import_files.BadRow, match=f"line {number + 1}: .*already has .* CP imported"):
        import_text("\n".join(lines) + "\n", "guildball")
    assert CampaignPointLine.objects.count() == before


def _not_ratings(captured) -> int:
    """The queries of an import but the game's ratings' (league/ratings/services.py):
    those rewrite the game's weekly history from the import's first week, across
    every league of the game, in a fixed number of statements plus one INSERT per
    142 history rows on SQLite (Django's 999 parameters per query); this file's
    leagues share coaches and weeks, so each import rewrites the previous ones' too."""
    return sum('"ratings_' not in query["sql"] for query in captured.captured_queries)


def test_cp_import_queries_do_not_grow_with_the_rows():
    """The CP columns cost a fixed number of queries whatever the number
    of lines (24,585 queries for 780 lines before): 4 coaches (12 lines) and 12
    coaches (132 lines) differ only by what finding or making the coaches costs."""
    counts = {}
    importer_user()  # made before counting
    for coaches in (4, 12):
        text = guild_ball_file(f"Flat {coaches}", coaches=coaches)
        with CaptureQueriesContext(connection) as plain:
            import_text(text, "guildball")
        with CaptureQueriesContext(connection) as with_cp:
            import_text(guild_ball_file(f"Flat CP {coaches}", coaches=coaches, cp=True), "guildball")
        counts[coaches] = (_not_ratings(plain), _not_ratings(with_cp))
    # What the CP columns add is the same at 12 and 132 lines.
    assert counts[4][1] - counts[4][0] == counts[12][1] - counts[12][0], counts


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
        call_command("import_teams", str(league_file(tmp_path, teams, name=f"{league}.csv")),
                     "--by", importer_user().username,
                     stdout=StringIO())
    import_text(dungeon_bowl_results("Bulk Colleges"), "dungeonbowl")
    import_text(dungeon_bowl_results("Single Colleges"), "dungeonbowl", monkeypatch=monkeypatch)
    bulk, single = dungeon_bowl_state("Bulk Colleges"), dungeon_bowl_state("Single Colleges")
    assert bulk["treasury"] and bulk["dice"]
    assert bulk == single
