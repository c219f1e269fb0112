"""The league's memory at the size of a whole site (``benchmark --only memory``):
DreadBall across 10,000 coaches and about 1,000,000 approved results.

DreadBall's site-wide leaderboard is the heaviest of the three games' boards that a
result alone fills: four figures a coach, each summed from both sides of every
match through the game's own detail row (Guild Ball's board sums two scores of
the result itself; Dungeon Bowl's boards need players' game reports, which no
bulk builder should fake at this size).

- the site-wide leaderboard cold (the cache cleared before each run, the page
  through Django's test client) against one SQL GROUP BY over the same result rows;
- the size of every page of the league's memory at that size: the ranking page, the
  busiest coach's profile, the head-to-head of the two coaches who met most, the
  leaderboard page, the records page and the ranking's JSON (first page);
- the records page cold and the ratings recomputed from scratch, printed (no goal).

The data set is inserted in bulk: the few thousand coaches, leagues, seasons,
entries and rounds through ``bulk_create``, the million fixtures, results and
their details as tuples through ``executemany`` with their ids given (no model
instance, no signal), then the ratings are computed once, as the result services
would have kept them.
"""

from __future__ import annotations

import datetime
import random
import time
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from django.core.cache import cache
from django.core.management.color import no_style
from django.db import connection, models, transaction
from django.db.models import Case, Count, F, Max, Sum, When
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from bench import benchmarking as bench
from league.dreadball.models import (
    LANDSLIDE_DIFFERENCE, REGULATION_RUSHES, SUDDEN_DEATH_MAX_DIFFERENCE, DreadBallResult,
)
from league.models import Coach, Entry, Fixture, League, Result, Round, Season
from league.ratings import services as ratings
from league.records import halloffame
from league.records.boards import Scope, counted_results
from league.rules.scheduling import round_robin

GAME = "dreadball"
LEAGUE_SIZE = 40  # coaches of each league's seasons (a double round robin: 1,560 results)
ROWS = 2000  # rows per executemany


@dataclass(frozen=True)
class Site:
    coaches: int
    leagues: int
    seasons: int
    results: int


# Building -----------------------------------------------------------------------


def _constants(model: type[models.Model], given: tuple[str, ...]) -> tuple[list[str], tuple]:
    """The columns of ``model`` other than ``given`` and the value each takes in
    every row (its default, as the database stores it)."""
    names, values = [], []
    for field in model._meta.concrete_fields:
        if field.attname in given:
            continue
        names.append(field.column)
        values.append(field.get_db_prep_save(field.get_default(), connection))
    return names, tuple(values)


def _next_id(model: type[models.Model]) -> int:
    return (model.objects.aggregate(top=Max("pk"))["top"] or 0) + 1


def _inserter(model: type[models.Model], given: tuple[str, ...]) -> Callable[[Iterable[tuple]], None]:
    """A function inserting rows of ``model`` given as tuples of the ``given``
    columns (attnames, in order), every other column at its default."""
    rest, values = _constants(model, given)
    columns = [model._meta.get_field(name).column for name in given] + rest
    quote = connection.ops.quote_name
    sql = (f"INSERT INTO {quote(model._meta.db_table)} ({', '.join(quote(c) for c in columns)}) "
           f"VALUES ({', '.join(['%s'] * len(columns))})")

    def insert(rows: Iterable[tuple]) -> None:
        with connection.cursor() as cursor:
            cursor.executemany(sql, (row + values for row in rows))

    return insert


def _detail(rng: random.Random) -> tuple[str, int, bool, int, bool]:
    """A valid DR-3 result: (outcome, difference, landslide, rush, Sudden Death)."""
    side = "home" if rng.random() < 0.5 else "away"
    kind = rng.random()
    if kind < 0.05:  # level after Sudden Death, neither team able to score (DR-2)
        return Result.Outcome.DRAW, 0, False, rng.randint(REGULATION_RUSHES + 1, REGULATION_RUSHES + 6), True
    if kind < 0.12:
        return (side, rng.randint(0, SUDDEN_DEATH_MAX_DIFFERENCE), False,
                rng.randint(REGULATION_RUSHES + 1, REGULATION_RUSHES + 6), True)
    if kind < 0.2:  # a landslide may end the game early
        return side, LANDSLIDE_DIFFERENCE, True, rng.randint(5, REGULATION_RUSHES), False
    return side, rng.randint(1, LANDSLIDE_DIFFERENCE - 1), False, REGULATION_RUSHES, False


def _summary(outcome: str, difference: int, landslide: bool, sudden_death: bool) -> str:
    text = f"0–{difference}" if outcome == Result.Outcome.AWAY_WIN else f"{difference}–0"
    return text + (", landslide" if landslide else "") + (", Sudden Death" if sudden_death else "")


def build_site(*, coaches: int, results: int, seed: int = 10_000) -> Site:
    """DreadBall leagues of 40 coaches (fewer with fewer coaches), each season a
    double round robin with every match approved, as many seasons as make about
    ``results`` results, spread over the leagues one after another; a league's
    later seasons take half their coaches from the next league's, so coaches play
    in several seasons and leagues."""
    rng = random.Random(seed)
    size = min(LEAGUE_SIZE, coaches)
    schedule = round_robin(list(range(size)), double=True, seed=seed)
    per_season = sum(1 for pairs in schedule for _, away in pairs if away is not None)
    leagues_count = max(1, coaches // size)
    seasons_count = max(1, round(results / per_season))
    per_league = -(-seasons_count // leagues_count)
    span = datetime.timedelta(days=7 * len(schedule) + 28)  # a season and a break
    first_start = timezone.localdate() - per_league * span
    tag = uuid.uuid4().hex[:8]

    coach_ids = [c.pk for c in Coach.objects.bulk_create(
        (Coach(name=f"Site Coach {i:05d} ({tag})") for i in range(coaches)), batch_size=ROWS)]
    leagues = League.objects.bulk_create(
        League(name=f"Site League {i:03d} ({tag})", slug=f"site-{tag}-{i:03d}", game_system=GAME)
        for i in range(leagues_count))
    plan = [(j % leagues_count, j // leagues_count) for j in range(seasons_count)]  # (league, its k-th season)
    seasons = Season.objects.bulk_create(
        Season(league=leagues[number], name=f"Season {k + 1}", double_round_robin=True,
               start_date=first_start + k * span)
        for number, k in plan)
    lineups = []
    for number, k in plan:
        start = number * size + k * (size // 2)
        lineups.append([coach_ids[(start + i) % coaches] for i in range(size)])
    entries = Entry.objects.bulk_create(
        (Entry(season=season, coach_id=coach_id, team=f"Team {coach_id}")
         for season, lineup in zip(seasons, lineups) for coach_id in lineup), batch_size=ROWS)
    rounds = Round.objects.bulk_create(
        (Round(season=season, number=n, date=season.start_date + datetime.timedelta(days=7 * (n - 1)))
         for season in seasons for n in range(1, len(schedule) + 1)), batch_size=ROWS)

    insert_fixture = _inserter(Fixture, ("id", "round_id", "home_id", "away_id", "date"))
    insert_result = _inserter(Result, ("id", "fixture_id", "outcome", "summary", "status", "approved_at"))
    insert_detail = _inserter(DreadBallResult, ("id", "result_id", "difference", "landslide", "rush", "sudden_death"))
    date_field, moment_field = Fixture._meta.get_field("date"), Result._meta.get_field("approved_at")
    approved_at = moment_field.get_db_prep_save(timezone.now(), connection)
    next_id = max(_next_id(Fixture), _next_id(Result), _next_id(DreadBallResult))
    made = 0
    with transaction.atomic():
        for index, season in enumerate(seasons):
            season_entries = entries[index * size:(index + 1) * size]
            season_rounds = rounds[index * len(schedule):(index + 1) * len(schedule)]
            fixtures, outcomes, details = [], [], []
            for round_, pairs in zip(season_rounds, schedule):
                day = date_field.get_db_prep_save(round_.date, connection)
                for home, away in pairs:
                    if away is None:
                        continue
                    outcome, difference, landslide, rush, sudden_death = _detail(rng)
                    fixtures.append((next_id, round_.pk, season_entries[home].pk, season_entries[away].pk, day))
                    outcomes.append((next_id, next_id, outcome, _summary(outcome, difference, landslide, sudden_death),
                                     Result.Status.APPROVED, approved_at))
                    details.append((next_id, next_id, difference, landslide, rush, sudden_death))
                    next_id += 1
            insert_fixture(fixtures)
            insert_result(outcomes)
            insert_detail(details)
            made += len(fixtures)
        if connection.vendor == "postgresql":  # the ids were given: move the sequences past them
            with connection.cursor() as cursor:
                for statement in connection.ops.sequence_reset_sql(no_style(), [Fixture, Result, DreadBallResult]):
                    cursor.execute(statement)
    return Site(coaches=coaches, leagues=leagues_count, seasons=seasons_count, results=made)


# Measuring ----------------------------------------------------------------------


def group_by_baseline(scope: Scope) -> list[dict]:
    """The floor of the leaderboard: one SQL GROUP BY over the same result rows
    (each home coach's matches and summed differences)."""
    return list(
        DreadBallResult.objects.filter(counted_results(scope, "result")).values("result__fixture__home__coach_id")
        .annotate(played=Count("pk"), difference=Sum("difference"))
    )


def busiest_coach(scope: Scope) -> int:
    """The coach with the most counted matches."""
    results = Result.objects.filter(counted_results(scope))
    played: dict[int, int] = {}
    for side in ("home", "away"):
        for coach_id, count in (results.values_list(f"fixture__{side}__coach_id").annotate(n=Count("pk"))
                                .values_list(f"fixture__{side}__coach_id", "n")):
            played[coach_id] = played.get(coach_id, 0) + count
    return max(played, key=lambda coach_id: (played[coach_id], -coach_id))


def most_met(scope: Scope) -> tuple[int, int]:
    """The two coaches who met most (the smaller id first)."""
    home, away = F("fixture__home__coach_id"), F("fixture__away__coach_id")
    row = (
        Result.objects.filter(counted_results(scope), fixture__away__isnull=False)
        .annotate(low=Case(When(fixture__home__coach_id__lt=away, then=home), default=away),
                  high=Case(When(fixture__home__coach_id__lt=away, then=away), default=home))
        .values("low", "high").annotate(n=Count("pk")).order_by("-n", "low", "high").first()
    )
    return row["low"], row["high"]


def _get(client: Client, url: str) -> bytes:
    response = client.get(url)
    if response.status_code != 200:
        raise RuntimeError(f"{url} answered {response.status_code}")
    return response.content


def measure(ratios: list, *, coaches: int, results: int, repeat: int, goals: dict, say: Callable[[str], None],
            analyze: Callable[[], None]) -> None:
    """The league's memory rows (module docstring) at ``coaches`` and about
    ``results`` results."""
    started = time.perf_counter()
    site = build_site(coaches=coaches, results=results)
    say(f"Built the site data set: {site.coaches:,} DreadBall coaches, {site.leagues:,} leagues, "
        f"{site.seasons:,} seasons, {site.results:,} approved results in {time.perf_counter() - started:.1f} s.")
    analyze()
    started = time.perf_counter()
    ratings.recompute(GAME)  # a bulk build sends no signal: rate the game once
    say(f"Ratings of {site.coaches:,} coaches over {site.results:,} results computed from scratch in "
        f"{time.perf_counter() - started:.1f} s.")
    analyze()
    scope = Scope(GAME)
    size_label = f"{site.coaches:,} coaches, {site.results:,} results"
    client = Client()
    board = reverse("league:game_leaderboards", args=[GAME])

    def cold_board() -> None:
        cache.clear()
        _get(client, board)

    times = bench.timings({"cold": cold_board, "group_by": lambda: group_by_baseline(scope)}, max(1, min(repeat, 3)))
    ratios.append(bench.ratio_of(f"site leaderboard cold, {size_label} / one GROUP BY", times["cold"],
                                 times["group_by"], goals["cold"], False, "ms", scale=1000))

    records = reverse("league:game_records", args=[GAME])
    cache.clear()
    started = time.perf_counter()
    _get(client, records)
    say(f"The {GAME} records page cold at {size_label}: {time.perf_counter() - started:.2f} s (no goal).")
    cache.clear()  # each season's table is kept: the hall of fame's is cold again
    spent = []
    for label, part in (("hall of fame", halloffame.hall_of_fame), ("biggest wins", halloffame.biggest_wins),
                        ("winning runs", halloffame.winning_runs), ("most seasons", halloffame.most_seasons),
                        ("most games", halloffame.most_games)):
        started = time.perf_counter()
        part(scope)
        spent.append(f"{label} {time.perf_counter() - started:.2f} s")
    say(f"Of which: {', '.join(spent)}.")

    coach_id = busiest_coach(scope)
    low, high = most_met(scope)
    pages = {
        "ranking page (first page)": reverse("ratings:ranking", args=[GAME]),
        "busiest coach's profile": reverse("coach_profile", args=[coach_id]),
        "head-to-head of the coaches who met most": reverse("head_to_head", args=[low, high]),
        "site leaderboard page": board,
        "records page": records,
        "ranking .json (first page)": reverse("ratings:feed", args=[GAME]),
    }
    cache.clear()
    for label, url in pages.items():
        kb = len(_get(client, url)) / 1000
        ratios.append(bench.Ratio(f"{label} size, KB", kb, goals["size_kb"], False, size_label))
    whole = len(_get(client, reverse("league:game_leaderboards_json", args=[GAME]))) / 1000
    say(f"The site leaderboard's whole JSON (every coach, a download) at {size_label}: {whole:,.0f} KB.")
