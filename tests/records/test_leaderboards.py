"""Leaderboards (league/records/boards.py) against sums made here, row by row, from
the ledgers and the result lines: the quickstart world of every game (built through
the services, so every ledger agrees) and a Guild Ball season with known numbers.
The CSV and the JSON give the same rows as the page."""

from __future__ import annotations

import csv
import io
from collections import Counter

import pytest
from django.test import Client
from django.urls import reverse

from campaigns.models import CampaignPointLine, FavourLine, LineKind, MomentUnlock
from league.dreadball.models import DreadBallResult
from league.dungeonbowl.models import PlayerEffect, PlayerGame, TeamSeason, TreasuryLine
from league.models import Fixture, Result
from league.records.boards import Scope, board_for
from tests.support.factories import CoachFactory, EntryFactory, FixtureFactory, LeagueFactory, ResultFactory, RoundFactory, SeasonFactory
from tests.support.world import world_in_transaction


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker):
    with world_in_transaction(django_db_blocker) as built:
        yield built


def counted(result: Result) -> bool:
    """What every board counts, said again here: approved, played, league or play-off."""
    return (result.status == Result.Status.APPROVED and result.outcome != Result.Outcome.ABANDONED
            and result.fixture.stage in (Fixture.Stage.REGULAR, Fixture.Stage.PLAYOFF))


def side_won(result: Result, side: str) -> bool:
    return result.outcome == side


def side_lost(result: Result, side: str) -> bool:
    return result.outcome not in (side, Result.Outcome.DRAW)


def feed(client: Client, name: str, args, board: str):
    """The board's rows from the JSON and from the CSV (as text, as CSV has it)."""
    body = client.get(reverse(f"league:{name}_json", args=args)).json()
    rows = next(b for b in body["boards"] if b["key"] == board)["rows"]
    response = client.get(reverse(f"league:{name}_csv", args=args), {"board": board})
    assert response["Content-Type"].startswith("text/csv")
    return body, rows, list(csv.DictReader(io.StringIO(response.content.decode())))


def by_key(rows, *keys):
    return {tuple(row[k] for k in keys): row for row in rows}


@pytest.mark.django_db
def test_big_league_boards_are_the_sums_of_the_results_and_ledgers(world):
    league = world.games["guildball"].league
    results = [r for r in Result.objects.select_related("fixture__home", "fixture__away", "fixture__round__season")
               if r.fixture.round.season.league_id == league.pk and r.fixture.away_id and counted(r)]
    expected: dict[int, Counter] = {}
    for r in results:
        for side, other in (("home", "away"), ("away", "home")):
            coach = getattr(r.fixture, side).coach_id
            expected.setdefault(coach, Counter()).update(
                played=1, vp_for=getattr(r, f"{side}_score"), vp_against=getattr(r, f"{other}_score"))
    client = Client()
    body, rows, csv_rows = feed(client, "league_leaderboards", [league.slug], "vp")
    assert body["game"] == "guildball" and body["league"] == league.slug and body["season"] is None
    assert len(results) > 3 and expected
    assert {row["coach_id"]: {k: row[k] for k in ("played", "vp_for", "vp_against")} for row in rows} == {
        coach: {k: c[k] for k in ("played", "vp_for", "vp_against")} for coach, c in expected.items()}
    assert [int(r["vp_for"]) for r in csv_rows] == [row["vp_for"] for row in rows]
    assert [row["vp_for"] for row in rows] == sorted((row["vp_for"] for row in rows), reverse=True)

    # The Big League: CP and Favours are ledger sums, Moments those the CP total still reaches.
    lines = [line for line in CampaignPointLine.objects.select_related("coach__entry", "coach__campaign__season")
             if line.coach.campaign.season.league_id == league.pk]
    favours = [line for line in FavourLine.objects.select_related("coach__entry", "coach__campaign__season")
               if line.coach.campaign.season.league_id == league.pk]
    cp_of_campaign_coach = Counter()
    sums: dict[int, Counter] = {}
    for line in lines:
        cp_of_campaign_coach[line.coach_id] += line.amount
        sums.setdefault(line.coach.entry.coach_id, Counter())["cp"] += line.amount
    for line in favours:
        mine = sums.setdefault(line.coach.entry.coach_id, Counter())
        if line.phase is not None:
            mine["favours_spent"] -= line.amount
        elif line.kind != LineKind.CARRY_OVER:
            mine["favours_earned"] += line.amount
    for unlock in MomentUnlock.objects.select_related("coach__entry", "coach__campaign__season"):
        if unlock.coach.campaign.season.league_id == league.pk and unlock.threshold <= cp_of_campaign_coach[unlock.coach_id]:
            sums.setdefault(unlock.coach.entry.coach_id, Counter())["moments"] += 1
    _, rows, csv_rows = feed(client, "league_leaderboards", [league.slug], "campaign")
    keys = ("cp", "favours_earned", "favours_spent", "moments")
    assert sum(c["cp"] for c in sums.values()) > 0 and sum(c["moments"] for c in sums.values()) > 0
    assert {row["coach_id"]: {k: row[k] for k in keys} for row in rows} == {
        coach: {k: c[k] for k in keys} for coach, c in sums.items()}
    assert [r["coach"] for r in csv_rows] == [row["coach"] for row in rows]


@pytest.mark.django_db
def test_dungeon_bowl_boards_are_the_sums_of_the_game_reports_and_the_treasury(world):
    league = world.games["dungeonbowl"].league
    lines = [line for line in PlayerGame.objects.select_related("report__result__fixture__round__season", "player__team")
             if line.report.result.fixture.round.season.league_id == league.pk and counted(line.report.result)]
    expected: dict[int, Counter] = {}
    for line in lines:
        expected.setdefault(line.player_id, Counter()).update(
            td=line.touchdowns, cas=line.casualties, comp=line.completions, ints=line.interceptions, mvps=int(line.mvp))
    for effect in PlayerEffect.objects.select_related("result__fixture__round__season"):
        if effect.player_id in expected and effect.result.fixture.round.season.league_id == league.pk and counted(effect.result):
            expected[effect.player_id]["spp"] += effect.spp
    client = Client()
    _, rows, csv_rows = feed(client, "league_leaderboards", [league.slug], "players")
    keys = ("td", "cas", "comp", "ints", "mvps", "spp")
    assert len(lines) > 3 and sum(c["td"] for c in expected.values()) > 0
    assert sorted(tuple(row[k] for k in keys) for row in rows) == sorted(
        tuple(c[k] for k in keys) for c in expected.values())
    assert [row["spp"] for row in rows] == sorted((row["spp"] for row in rows), reverse=True)
    assert set(csv_rows[0]) == {"coach_id", "coach", "name", "team", *keys}

    # Teams: W/D/L from the results, Treasury won from the Treasury ledger.
    team_of = {ts.entry_id: ts.team_id for ts in TeamSeason.objects.filter(entry__season__league=league)}
    results = [r for r in Result.objects.select_related("fixture__round__season")
               if r.fixture.round.season.league_id == league.pk and r.fixture.away_id and counted(r)]
    teams: dict[int, Counter] = {}
    for r in results:
        for side in ("home", "away"):
            team = team_of[getattr(r.fixture, f"{side}_id")]
            teams.setdefault(team, Counter()).update(
                played=1, won=int(side_won(r, side)), drawn=int(r.outcome == "draw"), lost=int(side_lost(r, side)))
    won_kinds = {"winnings", "treasure_room", "prize"}
    counted_ids = {r.pk for r in results}
    season_ids = set(league.seasons.values_list("pk", flat=True))
    for line in TreasuryLine.objects.select_related("reverses", "cause_type"):
        kind = line.reverses.kind if line.reverses_id else line.kind
        cause = (line.cause_type.model if line.cause_type_id else None, line.cause_id)
        if kind in won_kinds and line.team_id in teams and (
                (cause[0] == "result" and cause[1] in counted_ids) or (cause[0] == "season" and cause[1] in season_ids)):
            teams[line.team_id]["treasury"] += line.amount
    _, rows, _ = feed(client, "league_leaderboards", [league.slug], "teams")
    keys = ("played", "won", "drawn", "lost", "treasury")
    assert sum(c["treasury"] for c in teams.values()) > 0
    assert sorted(tuple(row[k] for k in keys) for row in rows) == sorted(tuple(c[k] for k in keys) for c in teams.values())


@pytest.mark.django_db
def test_dreadball_board_is_the_sums_of_the_result_details(world):
    league = world.games["dreadball"].league
    expected: dict[int, Counter] = {}
    for detail in DreadBallResult.objects.select_related("result__fixture__home", "result__fixture__away",
                                                         "result__fixture__round__season"):
        r = detail.result
        if r.fixture.round.season.league_id != league.pk or not counted(r):
            continue
        for side in ("home", "away"):
            won, lost = side_won(r, side), side_lost(r, side)
            expected.setdefault(getattr(r.fixture, side).coach_id, Counter()).update(
                played=1, landslides=int(detail.landslide and won),
                strike_difference=detail.difference if won else -detail.difference if lost else 0,
                sudden_death_wins=int(detail.sudden_death and won))
    _, rows, _ = feed(Client(), "league_leaderboards", [league.slug], "coaches")
    keys = ("played", "landslides", "strike_difference", "sudden_death_wins")
    assert sum(c["landslides"] for c in expected.values()) > 0
    assert {row["coach_id"]: {k: row[k] for k in keys} for row in rows} == {
        coach: {k: c[k] for k in keys} for coach, c in expected.items()}


@pytest.mark.django_db
def test_a_season_with_known_numbers_per_season_league_and_game():
    """Two seasons of one league and a second league: the season's board, the
    league's (both seasons) and the game's (both leagues). What is not counted: a
    result waiting for approval, an abandoned game, a friendly."""
    ash, birch, cedar = (CoachFactory(name=name) for name in ("Ash", "Birch", "Cedar"))
    first = SeasonFactory(name="Spring")
    league = first.league
    second = SeasonFactory(league=league, name="Autumn", start_date=first.start_date.replace(month=10))
    elsewhere = SeasonFactory(name="Other")

    def match(season, home, away, hs, as_, **kwargs):
        round_ = RoundFactory(season=season)
        fixture = FixtureFactory(round=round_, home=EntryFactory(season=season, coach=home) if not season.entries.filter(coach=home).exists()
                                 else season.entries.get(coach=home),
                                 away=EntryFactory(season=season, coach=away) if not season.entries.filter(coach=away).exists()
                                 else season.entries.get(coach=away), stage=kwargs.pop("stage", Fixture.Stage.REGULAR))
        outcome = kwargs.pop("outcome", "home" if hs > as_ else "away" if as_ > hs else "draw")
        return ResultFactory(fixture=fixture, home_score=hs, away_score=as_, outcome=outcome, **kwargs)

    match(first, ash, birch, 12, 4)
    match(first, birch, cedar, 10, 8)
    match(first, cedar, ash, 12, 11)
    match(first, ash, cedar, 12, 0, status=Result.Status.REPORTED)  # not approved yet
    match(first, birch, ash, 0, 0, outcome=Result.Outcome.ABANDONED)
    match(first, cedar, birch, 12, 2, stage=Fixture.Stage.FRIENDLY)
    match(second, ash, birch, 12, 9)
    match(elsewhere, ash, cedar, 12, 1)

    client = Client()

    def vp(args, season=None):
        body = client.get(reverse("league:" + ("league_leaderboards_json" if season is not None or args != ["guildball"]
                                               else "game_leaderboards_json"), args=args),
                          {"season": season} if season else {}).json()
        return {row["coach"]: (row["played"], row["vp_for"], row["vp_against"]) for row in body["boards"][0]["rows"]}

    assert vp([league.slug], "Spring") == {"Ash": (2, 23, 16), "Birch": (2, 14, 20), "Cedar": (2, 20, 21)}
    assert vp([league.slug]) == {"Ash": (3, 35, 25), "Birch": (3, 23, 32), "Cedar": (2, 20, 21)}
    site = vp(["guildball"])  # (with whatever else the site holds: the module's world)
    assert {name: site[name] for name in ("Ash", "Birch", "Cedar")} == {
        "Ash": (4, 47, 26), "Birch": (3, 23, 32), "Cedar": (3, 21, 33)}

    # The page: sorted by VP against, smallest first, and back; an unknown sort is the board's own order.
    page = client.get(reverse("league:league_leaderboards", args=[league.slug]), {"board": "vp", "sort": "-vp_against"})
    text = page.content.decode()
    assert text.index(">Cedar<") < text.index(">Ash<") < text.index(">Birch<")
    page = client.get(reverse("league:league_leaderboards", args=[league.slug]), {"board": "vp", "sort": "nonsense"})
    text = page.content.decode()
    assert text.index(">Ash<") < text.index(">Birch<") < text.index(">Cedar<")
    # Coach names link to their league coach page, in their latest season there.
    assert f'{reverse("league:coach_detail", args=[league.slug, ash.pk])}?season=Autumn' in text
    assert client.get(reverse("league:league_leaderboards", args=[league.slug]), {"season": "Winter"}).status_code == 404
    assert client.get(reverse("league:game_leaderboards", args=["chess"])).status_code == 404


def test_a_board_sorts_in_the_database_every_column_both_ways():
    board = board_for("dungeonbowl", "players")
    scope = Scope("dungeonbowl")
    for key in (*board.keys, "name", "coach"):
        for sort in (key, f"-{key}"):
            assert board.sortable(sort) == sort
            assert str(board.sorted_rows(scope, sort).query)  # compiles
    assert board.sortable("-nonsense") == ""


# What the leaderboards and records read without a save of it giving a season a new
# version, and why that never leaves a page stale.
WRITTEN_WITH_A_RESULT = {
    "dungeonbowl.GameReport": "written by the result's report, in the write that saves the result (a new version)",
    "dungeonbowl.PlayerGame": "the report's player lines, written with the report, as above",
    "dungeonbowl.PlayerEffect": "written by approving or correcting the result (postgame), which saves the result",
    "dungeonbowl.TreasuryLine": "the lines read are winnings and bonuses written by approving or correcting a "
                                "result, and prizes written with the season's Honour rows (tracked)",
    "dungeonbowl.Player": "a player's name, number and team never change after they are hired; a player is on a "
                          "board only through a game report",
    "dreadball.DreadBallResult": "written with its result, in the same write",
    "contenttypes.ContentType": "fixed rows: which kind of row caused a Treasury line",
    "league.League_organisers": "who organises: the organiser's link, not the kept page",
    "league.Session": "who is asking",
    "auth.User": "who is asking",
}


@pytest.mark.django_db
def test_every_model_the_pages_read_is_tracked_or_written_with_a_result(world):
    import re

    from django.apps import apps
    from django.core.cache import cache
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from league.caching import versions

    tracked = {model._meta.label for model in versions.tracked()}
    tables = {model._meta.db_table: model._meta.label for model in apps.get_models(include_auto_created=True)}
    read: set[str] = set()
    client = Client()
    for game, played in world.games.items():
        slug = played.league.slug
        for name, args in (("league_leaderboards", [slug]), ("league_leaderboards_json", [slug]),
                           ("league_records", [slug]), ("game_leaderboards_json", [game]), ("game_records", [game])):
            cache.clear()
            with CaptureQueriesContext(connection) as queries:
                assert client.get(reverse(f"league:{name}", args=args)).status_code == 200
            read |= {tables[t] for q in queries for t in re.findall(r'(?:FROM|JOIN)\s+"([a-z0-9_]+)"', q["sql"], re.I)
                     if t in tables}
    assert read - tracked - set(WRITTEN_WITH_A_RESULT) == set()


@pytest.mark.django_db
def test_a_page_kept_for_anonymous_visitors_changes_with_the_next_approval_and_a_coachs_new_name():
    season = SeasonFactory(name="Spring")
    ash, birch = CoachFactory(name="Ash"), CoachFactory(name="Birch")
    home, away = EntryFactory(season=season, coach=ash), EntryFactory(season=season, coach=birch)
    ResultFactory(fixture=FixtureFactory(round=RoundFactory(season=season), home=home, away=away), home_score=12, away_score=4)
    client = Client()
    urls = [reverse("league:league_leaderboards_json", args=[season.league.slug]),
            reverse("league:game_leaderboards_json", args=["guildball"])]

    def ash_vp(url):
        rows = client.get(url).json()["boards"][0]["rows"]
        return next((row["vp_for"] for row in rows if row["coach_id"] == ash.pk), None), {row["coach"] for row in rows}

    assert [ash_vp(url)[0] for url in urls] == [12, 12]
    result = ResultFactory(fixture=FixtureFactory(round=RoundFactory(season=season), home=away, away=home),
                           home_score=3, away_score=12, status=Result.Status.REPORTED)
    assert [ash_vp(url)[0] for url in urls] == [12, 12]  # not approved yet
    result.status = Result.Status.APPROVED
    result.save()
    assert [ash_vp(url)[0] for url in urls] == [24, 24]
    ash.name = "Ashley"
    ash.save()
    assert all("Ashley" in ash_vp(url)[1] for url in urls)
