"""``manage.py benchmark``: how fast are standings and the public pages for a big
league? Builds a league of 40 coaches with a full double round robin approved,
times ``standings_for`` and each page through the Django test client, and rolls
everything back at the end, so the database is left as it was.

Prints figures only (median milliseconds, queries per request, peak memory); the
targets are printed alongside for comparison.
"""

from __future__ import annotations

import random
import statistics
import time
import tracemalloc
import uuid
from collections.abc import Callable

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import DatabaseError, connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext, override_settings
from django.urls import NoReverseMatch, reverse
from django.utils import timezone

from league import services
from league.models import Coach, Entry, Fixture, League, Result, Season
from league.standings import standings_for

STANDINGS_TARGET_MS = 200
PAGE_TARGET_MS = 500
GUILDS = ("Alchemist's", "Brewer's", "Butcher's", "Engineer's", "Fisherman's", "Hunter's", "Mason's",
          "Mortician's", "The Union")


class Rollback(Exception):
    """Raised at the end of the run so nothing it built is kept."""


class Command(BaseCommand):
    help = (
        "Time standings and the public pages for a league of 40 coaches with a full double round robin "
        "approved. Everything it builds is rolled back."
    )

    def add_arguments(self, parser):
        parser.add_argument("--coaches", type=int, default=40, help="coaches in the league (default 40)")
        parser.add_argument("--repeat", type=int, default=7, help="timed repetitions per measurement (default 7)")

    def handle(self, *args, coaches: int, repeat: int, **options):
        if coaches < 2 or repeat < 1:
            raise CommandError("--coaches must be 2 or more and --repeat 1 or more.")
        try:
            with transaction.atomic():
                self._run(coaches, repeat)
                raise Rollback
        except Rollback:
            self.stdout.write("Rolled back: nothing the benchmark built was kept.")
        except DatabaseError as error:
            raise CommandError(f"Database error ({error}); has `manage.py migrate` been run?") from None

    def _run(self, size: int, repeat: int) -> None:
        started = time.perf_counter()
        league, season, coach, fixture = build_league(size)
        results = Result.objects.filter(fixture__round__season=season).count()
        self.stdout.write(
            f"Built {league.name}: {size} coaches, {season.rounds.count()} rounds, {results} approved results "
            f"in {time.perf_counter() - started:.1f} s (database: {connection.vendor})."
        )
        self.stdout.write(f"Targets: standings of {size} coaches < {STANDINGS_TARGET_MS} ms; each page < "
                          f"{PAGE_TARGET_MS} ms. Median of {repeat} runs after one warm-up.\n")
        self.stdout.write(f"{'measurement':<22} {'median ms':>10} {'queries':>8} {'peak MiB':>9}")

        def standings():
            standings_for(Season.objects.select_related("league").get(pk=season.pk))

        self._measure("standings_for(season)", standings, repeat, target=STANDINGS_TARGET_MS,
                      detail=lambda: "including the query for the season")

        client = Client()
        pages = [
            ("league:league_list", ()),
            ("league:league_detail", (league.slug,)),
            ("league:fixtures", (league.slug,)),
            ("league:standings_json", (league.slug,)),
            ("league:standings_csv", (league.slug,)),
            ("league:coach_detail", (league.slug, coach.pk)),
            ("league:fixture_detail", (fixture.pk,)),
            ("league:league_ics", (league.slug,)),
            ("league:coach_ics", (league.slug, coach.pk)),
            ("campaigns:campaign_table", (league.slug,)),
            ("campaigns:campaign_json", (league.slug,)),
            # Logged in as the coach from here on.
            ("league:my_fixtures", ()),
            ("campaigns:coach_page", (league.slug, coach.pk)),
            ("campaigns:fixture_page", (league.slug, fixture.pk)),
        ]
        hosts = [*settings.ALLOWED_HOSTS, "testserver"]
        with override_settings(ALLOWED_HOSTS=hosts):
            for name, args in pages:
                try:
                    url = reverse(name, args=args)
                except NoReverseMatch:
                    self.stdout.write(f"{name:<22} not available")
                    continue
                if name == "league:my_fixtures":
                    client.force_login(coach.user)
                name = name.split(":", 1)[1]
                statuses: list[int] = []
                self._measure(
                    name, lambda url=url: statuses.append(client.get(url).status_code), repeat,
                    target=PAGE_TARGET_MS, detail=lambda url=url: f"HTTP {statuses[-1]} {url}",
                )

    def _measure(self, label: str, action: Callable[[], object], repeat: int, *, target: int,
                 detail: Callable[[], str] = str) -> None:
        action()  # warm-up: caches, template loading
        timings = []
        for _ in range(repeat):
            began = time.perf_counter()
            action()
            timings.append((time.perf_counter() - began) * 1000)
        with CaptureQueriesContext(connection) as captured:
            action()
        # Count now: the next request through the client resets the query log.
        queries = len(captured)
        tracemalloc.start()
        try:
            action()
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        median = statistics.median(timings)
        detail = detail()
        over = "" if median < target else f"  over the {target} ms target"
        self.stdout.write(f"{label:<22} {median:>10.1f} {queries:>8} {peak / 2**20:>9.2f}  {detail}{over}")


def build_league(size: int, *, seed: int = 40) -> tuple[League, Season, Coach, Fixture]:
    """A Guild Ball league of ``size`` coaches, each with a login, a double round
    robin generated by the service and every fixture approved with a valid GB-8
    score. Results are inserted in bulk: the workflow is not what is measured."""
    tag = uuid.uuid4().hex[:8]
    rng = random.Random(seed)
    organiser = get_user_model().objects.create_user(username=f"bench-{tag}-organiser")
    league = League.objects.create(name=f"Benchmark League {tag}", slug=f"benchmark-{tag}")
    league.organisers.add(organiser)
    season = Season.objects.create(league=league, name="Benchmark", double_round_robin=True,
                                   start_date=timezone.localdate())
    users = get_user_model().objects.bulk_create(
        get_user_model()(username=f"bench-{tag}-{i:02d}") for i in range(1, size + 1)
    )
    coaches = Coach.objects.bulk_create(
        Coach(name=f"Coach {i:02d} ({tag})", user=user) for i, user in enumerate(users, start=1)
    )
    Entry.objects.bulk_create(
        Entry(season=season, coach=coach, team=GUILDS[i % len(GUILDS)]) for i, coach in enumerate(coaches)
    )
    services.generate_fixtures(season=season, by=organiser, seed=seed)
    now = timezone.now()
    fixtures = list(Fixture.objects.filter(round__season=season).matches())
    results = []
    for fixture in fixtures:
        winner, loser = rng.choice((12, 12, 13, 14, 15)), rng.randint(0, 11)
        home_wins = rng.random() < 0.5
        results.append(Result(
            fixture=fixture,
            home_score=winner if home_wins else loser,
            away_score=loser if home_wins else winner,
            outcome=Result.Outcome.HOME_WIN if home_wins else Result.Outcome.AWAY_WIN,
            status=Result.Status.APPROVED,
            approved_at=now,
        ))
    Result.objects.bulk_create(results, batch_size=500)
    coach = Coach.objects.select_related("user").get(pk=coaches[0].pk)
    return league, season, coach, Fixture.objects.filter(round__season=season).involving(coach).first()
