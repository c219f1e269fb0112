"""``DJANGO_SETTINGS_MODULE=bench.settings manage.py benchmark``: the performance
ratios, measured side by side in one run (a tool beside the site, not in it).

It builds its data sets in a throw-away database (the configured one's name +
``_benchmark_<pid>``; on SQLite a temporary file), migrated from scratch and dropped at
the end, so the database you run it against is never touched. Then it prints each
ratio with its goal and exits non-zero when one misses:

- the league page and standings.json against a bare view returning constant JSON
  behind the same middleware (``/bench/bare/``, mounted by bench/urls.py), served by
  gunicorn with 2 workers on 127.0.0.1, warm cache, persistent database
  connections (CONN_MAX_AGE), DEBUG off, a fixed number of requests from a few
  client threads;
- ``standings_for`` computed cold at 400 coaches (79,800 results) against one SQL
  GROUP BY over the same results;
- the queries of approving one result in a Big League season: the first, the last
  of the season, and a late round-1 result once every later round is approved;
- ``import_results`` of a 40-coach double round robin (1,560 results) against
  bulk-inserting the same rows, and its time per result against half the file;
- the fixtures page and the league .ics at 1,560 results against 12, and the league
  list with 2,000 leagues against 1 (through Django's test client, warm cache; the
  list's two sides twice each, at the start and at the end of the run);
- the ranking page and a coach's profile (the 40-coach league's, its ratings
  computed) against the same bare view under gunicorn;
- with ``--only memory`` (bench/memory.py; not among the default parts: it builds
  10,000 coaches and 1,000,000 results), the league's memory at the size of a whole
  site: the DreadBall leaderboard cold against one GROUP BY, the size of each page of
  the ratings, profiles, leaderboards and records, the records page timed.

It is a benchmark, not a test: the figures depend on the machine.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import pickle
import statistics
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from django.conf import settings
from django.db.models import Q
from django.core.management.base import BaseCommand, CommandError
from django.db import connection
from django.test import Client
from django.test.utils import override_settings
from django.urls import reverse

from bench import benchmarking as bench
from bench import memory, transfer, writes
from league.services import results as services
from league.caching import versions
from league.models import Fixture, League, Result, Season
from league.permissions import make_organiser
from league.ratings import services as ratings
from league.standings.season import compute_standings


GOALS = {
    "page": 0.7, "json": 0.9, "standings": 2.0, "queries": 20, "import": 5.0, "flat": 1.5,
    "fixtures": 3.0, "ics": 3.0, "list": 1.5,
    # logged-in pages against the bare view, and what a big league costs
    "page_coach": 0.4, "fixture_coach": 0.3, "me": 0.3, "campaign": 0.2, "dashboard": 0.2,
    # the read API (/api/v1/) against the bare view: its table as standings.json, a page of 100 results
    "api_json": 0.7, "api_results": 0.4,
    "cold": 3.0, "size_kb": 300, "cache_mb": 2.0, "timeout_s": 86_400, "rss_mb": 200,
    "ratings": 0.1,
    # a league's file at 400 coaches (bench/transfer.py): seconds, and peak memory over the file's size
    "export_s": 10.0, "import_s": 30.0, "transfer_peak": 0.5,
    # the league's memory: the ranking page and a coach's profile against the bare view
    "ranking": 0.4, "profile": 0.4,
}


PARTS = ("list", "pages", "gunicorn", "standings", "sizes", "ratings", "approvals", "import", "transfer")
# Parts measured only when --only names them: each builds a data set too big for every run.
ON_REQUEST = ("memory",)


class Command(BaseCommand):
    help = "Print the performance ratios against their goals (exits 1 if one misses)."

    def add_arguments(self, parser):
        parser.add_argument("--repeat", type=int, default=5, help="runs per in-process timing (best kept)")
        parser.add_argument("--requests", type=int, default=400, help="requests per URL per gunicorn round")
        parser.add_argument("--rounds", type=int, default=5, help="gunicorn rounds, each URL keeping its best")
        parser.add_argument("--threads", type=int, default=4, help="client threads against gunicorn")
        parser.add_argument("--big", type=int, default=400, help="coaches of the standings_for data set")
        parser.add_argument("--campaign", type=int, default=16, help="coaches of the approval season")
        parser.add_argument("--imported", type=int, default=40, help="coaches of the imported double round robin")
        parser.add_argument("--only", nargs="+", choices=PARTS + ON_REQUEST, default=PARTS, metavar="PART",
                            help=f"measure only these parts ({', '.join(PARTS + ON_REQUEST)}); all but "
                                 f"{', '.join(ON_REQUEST)} by default")
        parser.add_argument("--site-coaches", type=int, default=10_000, help="coaches of the memory data set")
        parser.add_argument("--site-results", type=int, default=1_000_000,
                            help="approved results (about) of the memory data set")
        parser.add_argument("--huge", action="store_true",
                            help="also the 1,000-coach data set (499,500 results): the cold league page after an "
                                 "approval against a GROUP BY, and the gunicorn workers' memory serving it")
        parser.add_argument("--huge-size", type=int, default=1000, help=argparse.SUPPRESS)

    def handle(self, *args, repeat, requests, rounds, threads, big, campaign, imported, only, huge, huge_size,
               site_coaches, site_results, **options):
        if min(repeat, requests, rounds, threads, site_results) < 1 or min(big, site_coaches) < 2 or \
                campaign < 4 or imported < 4:
            raise CommandError(
                "--repeat, --requests, --rounds, --threads and --site-results must be 1 or more, --big and "
                "--site-coaches 2, --campaign and --imported 4."
            )
        old_name = connection.settings_dict["NAME"]
        tmp = tempfile.TemporaryDirectory(prefix="benchmark-")
        test_settings = connection.settings_dict.setdefault("TEST", {})
        if connection.vendor == "sqlite":
            test_settings["NAME"] = str(Path(tmp.name) / "benchmark.sqlite3")
        else:
            # Its own name per run (PostgreSQL keeps 63 bytes of a name): two runs
            # against one database never drop each other's data set.
            test_settings["NAME"] = f"{old_name[:40]}_benchmark_{os.getpid()}"
        self.stdout.write(f"Building a throw-away {connection.vendor} database {test_settings['NAME']} ...")
        connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
        ratios: list[bench.Ratio] = []
        try:
            with override_settings(ALLOWED_HOSTS=[*settings.ALLOWED_HOSTS, "testserver"], DEBUG=False):
                self._run(ratios, Path(tmp.name), repeat=repeat, requests=requests, rounds=rounds, threads=threads,
                          big=big, campaign=campaign, imported=imported, only=set(only))
                if "memory" in only:
                    memory.measure(ratios, coaches=site_coaches, results=site_results, repeat=repeat, goals=GOALS,
                                   say=self._say, analyze=_analyze)
                if huge:
                    self._huge(ratios, Path(tmp.name), huge_size)
        finally:
            connection.creation.destroy_test_db(old_name, verbosity=0)
            tmp.cleanup()
            self.stdout.write("Dropped the throw-away database.")
        self.stdout.write("")
        for ratio in ratios:
            self.stdout.write(ratio.line())
        missed = [r for r in ratios if not r.ok]
        if missed:
            self.stdout.write(f"{len(missed)} of {len(ratios)} goals missed.")
            sys.exit(1)
        self.stdout.write(f"All {len(ratios)} goals met.")

    def _say(self, text: str) -> None:
        self.stdout.write(text)
        self.stdout.flush()

    def _run(self, ratios, tmp: Path, *, repeat, requests, rounds, threads, big, campaign, imported, only) -> None:
        client = Client()

        def page(url: str):
            def action():
                response = client.get(url)
                if response.status_code != 200:
                    raise CommandError(f"{url} answered {response.status_code}")
            return action

        if only & {"list", "pages", "gunicorn"}:
            self._pages(ratios, tmp, page, repeat=repeat, requests=requests, rounds=rounds, threads=threads, only=only)
        if only & {"standings", "sizes", "ratings"}:
            self._standings(ratios, big, repeat=repeat, only=only)
        if "approvals" in only:
            ratios += writes.approvals(campaign, goals=GOALS, say=self._say)
        if "import" in only:
            ratios += writes.imports(imported, goals=GOALS, say=self._say)
        if "transfer" in only:
            ratios += transfer.measure(big, goals=GOALS, say=self._say)

    def _pages(self, ratios, tmp: Path, page, *, repeat, requests, rounds, threads, only) -> None:
        # The league list with 1 league, then with 2,000 (the 1,560-result league,
        # the 12-result one and 1,998 small ones), then (once the other parts are
        # measured) with 1 again and 2,000 again, keeping each side's best: the two
        # sides of this ratio cannot run in the same database at once, so they
        # alternate over the run instead.
        small_league, small = bench.build_league(4, name="Small League")
        list_times = {"one": [], "many": []}

        def list_page(side: str) -> None:
            list_times[side].append(bench.best_of({"list": page(reverse("league:league_list"))}, repeat * 10)["list"])

        if "list" in only:
            list_page("one")
        started = time.perf_counter()
        league, season = bench.build_league(40)
        if "list" in only:
            bench.build_other_leagues(1998)
        self._say(f"Built {league.name}: 40 coaches, {season.rounds.count()} rounds, "
                  f"{Result.objects.filter(fixture__round__season=season).count()} approved results, "
                  f"and {small_league.name} (12 results), {League.objects.count():,} leagues in all, "
                  f"in {time.perf_counter() - started:.1f} s.")
        _analyze()
        if "list" in only:
            list_page("many")

        if "pages" in only:
            for name, goal in (("fixtures", GOALS["fixtures"]), ("league_ics", GOALS["ics"])):
                times = bench.best_of({
                    "big": page(reverse(f"league:{name}", args=[league.slug])),
                    "small": page(reverse(f"league:{name}", args=[small_league.slug])),
                }, repeat * 4)
                label = "fixtures page" if name == "fixtures" else "league .ics"
                ratios.append(bench.Ratio(f"{label}, 1,560 results / 12 results", times["big"] / times["small"],
                                          goal, False, f"{times['big'] * 1000:.1f} ms / {times['small'] * 1000:.1f} ms"))

        if "gunicorn" in only:
            self._gunicorn(ratios, tmp, league, requests=requests, rounds=rounds, threads=threads)

        if "list" in only:
            League.objects.exclude(pk=small_league.pk).delete()
            _analyze(vacuum=True)
            list_page("one")
            bench.build_other_leagues(1999)
            _analyze()
            list_page("many")
            one, many = min(list_times["one"]), min(list_times["many"])
            ratios.append(bench.Ratio("league list, 2,000 leagues / 1 league", many / one, GOALS["list"], False,
                                      f"{many * 1000:.1f} ms / {one * 1000:.1f} ms"))

    def _standings(self, ratios, big: int, *, repeat: int, only) -> None:
        league, big_season, results = self._single_round_robin(big, "Standings League", "the standings data set")
        if "standings" in only:
            times = bench.best_of({
                "standings": lambda: compute_standings(Season.objects.select_related("league").get(pk=big_season.pk)),
                "group_by": lambda: bench.group_by_baseline(big_season),
            }, repeat)
            ratios.append(bench.Ratio(f"standings_for cold, {big} coaches / one GROUP BY",
                                      times["standings"] / times["group_by"], GOALS["standings"], False,
                                      f"{times['standings'] * 1000:.0f} ms / {times['group_by'] * 1000:.0f} ms"))
            ratios.append(self._cold_page(league, big_season, f"{big} coaches / {results:,} results", repeat=3))
        if "sizes" in only:
            self._sizes(ratios, league, big_season, big)
        if "ratings" in only:
            ratios.append(self._ratings(league, big_season, big, results, repeat=repeat))

    def _ratings(self, league, season, big: int, results: int, *, repeat: int) -> bench.Ratio:
        """The game's ratings recomputed after a correction of a match of the
        season's last week (what the result services queue: RT-2, from that week on)
        against recomputing every week from scratch (``recompute_ratings``)."""
        last = Fixture.objects.filter(round__season=season).order_by("-date").values_list("date", flat=True)[0]
        game = league.game_system
        ratings.recompute(game)  # the data set is built in bulk: rate it once

        def correction() -> None:  # what the correction's write marks, then its task
            ratings.mark(game, ratings.monday(last))
            ratings.catch_up(game)

        times = bench.timings({
            "correction": correction,
            "scratch": lambda: ratings.recompute(game),
        }, max(1, min(repeat, 3)))
        return bench.ratio_of(f"ratings after a last-week correction / from scratch, {big} coaches, {results:,} results",
                              times["correction"], times["scratch"], GOALS["ratings"], False, "s")

    def _single_round_robin(self, size: int, name: str, what: str):
        """A single round robin of ``size`` coaches, every result approved, analysed:
        (league, season, number of results)."""
        started = time.perf_counter()
        league, season = bench.build_league(size, double=False, logins=False, name=name)
        results = Result.objects.filter(fixture__round__season=season).count()
        self._say(f"Built {what}: {size:,} coaches, {results:,} approved results in "
                  f"{time.perf_counter() - started:.1f} s.")
        _analyze()
        return league, season, results

    def _cold_page(self, league, season, label: str, *, repeat: int) -> bench.Ratio:
        """The league page as the first visitor after an approval gets it: one
        reported result of the last round approved through the service,
        which gives the season a new version and carries the kept history forward
        (league/standings/history.py), then the page built again for that version, against
        one GROUP BY over the season's results, run by run."""
        client = Client()
        url = reverse("league:league_detail", args=[league.slug])
        organiser = league.organisers.get()
        waiting = list(Result.objects.filter(fixture__round__season=season).order_by("-fixture__round__number", "-pk")
                       .values_list("pk", flat=True)[:repeat])
        Result.objects.filter(pk__in=waiting).update(status=Result.Status.REPORTED, approved_at=None)
        versions.bump(Q(pk=season.pk))
        season.refresh_from_db(fields=["version"])
        started = time.perf_counter()
        if client.get(url).status_code != 200:  # the page as it stood: the history built once and kept
            raise CommandError(f"{url} did not answer 200")
        self._say(f"The league page before the approvals ({label}), its history built: "
                  f"{time.perf_counter() - started:.2f} s.")

        def page() -> None:
            response = client.get(url)
            if response.status_code != 200:
                raise CommandError(f"{url} answered {response.status_code}")

        times = {"cold": [], "group_by": []}
        for pk in waiting:  # the approval itself is not timed: the page after it is
            services.approve_result(result=Result.objects.get(pk=pk), by=organiser, reason="benchmark")
            for name, taken in bench.timings({"cold": page, "group_by": lambda: bench.group_by_baseline(season)},
                                             1).items():
                times[name] += taken
        return bench.ratio_of(f"cold league page after an approval, {label} / GROUP BY", times["cold"],
                              times["group_by"], GOALS["cold"], False, "ms", 1000)

    def _sizes(self, ratios, league, season, big: int) -> None:
        """Page sizes at ``big`` coaches, and what one version of the season holds
        in the cache once its pages are visited."""
        from django.core.cache import cache

        client = Client()
        entry = season.entries.order_by("pk").last()
        cache.clear()
        pages = {
            "league page": reverse("league:league_detail", args=[league.slug]),
            "league page, a line followed": reverse("league:league_detail", args=[league.slug]) + f"?follow={entry.pk}",
            "a coach's page": reverse("league:coach_detail", args=[league.slug, entry.coach_id]),
            "fixtures page": reverse("league:fixtures", args=[league.slug]),
        }
        for label, url in pages.items():
            size = len(client.get(url).content) / 1000
            ratios.append(bench.Ratio(f"{label} size at {big} coaches, KB", size, GOALS["size_kb"], False))
        client.get(reverse("league:standings_json", args=[league.slug]))
        stored = getattr(cache, "_cache", None)
        if stored is not None:  # the local-memory cache: its entries are pickles
            megabytes = sum(len(value) if isinstance(value, bytes) else len(pickle.dumps(value))
                            for value in stored.values()) / 1e6
            ratios.append(bench.Ratio(f"cache memory per version at {big} coaches, MB", megabytes, GOALS["cache_mb"],
                                      False, f"{len(stored)} entries (those pages, standings.json)"))
        timeout = settings.CACHES["default"].get("TIMEOUT", 300)
        ratios.append(bench.Ratio("cache entry timeout, seconds (never: inf)", float("inf") if timeout is None else timeout,
                                  GOALS["timeout_s"], False, "old versions expire"))

    def _server_env(self, tmp: Path) -> dict[str, str]:
        return {
            **os.environ,
            "DATABASE_URL": _database_url(),
            "DJANGO_SETTINGS_MODULE": "bench.settings",
            "DEBUG": "false",
            "SECRET_KEY": settings.SECRET_KEY,  # the sessions the benchmark makes here are signed with it
            "ALLOWED_HOSTS": "127.0.0.1",
            "CONN_MAX_AGE": "600",
            "CHANGE_MARK_FILE": str(tmp / "change.mark"),  # one server (README, Production)
            "STATIC_ROOT": str(tmp / "static"),
            "LOG_LEVEL": "ERROR",  # bench/settings.py lifts the API's limits, still counted
        }

    @contextlib.contextmanager
    def _server(self, tmp: Path, **extra_env: str):
        """gunicorn with 2 workers on a free port of 127.0.0.1: (port, master pid)."""
        env = {**self._server_env(tmp), **extra_env}
        subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"], env=env, check=True,
                       cwd=settings.BASE_DIR)
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        server = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "league.wsgi", "--workers", "2", "--bind", f"127.0.0.1:{port}",
             "--log-level", "warning"],
            env=env, cwd=settings.BASE_DIR,
        )
        try:
            _wait_for(port)
            yield port, server.pid
        finally:
            server.terminate()
            server.wait(timeout=30)

    def _gunicorn(self, ratios, tmp: Path, league, *, requests: int, rounds: int, threads: int) -> None:
        """The league page and standings.json (anonymous), and the pages a coach and
        an organiser see logged in, against the bare view, under gunicorn: each URL
        once per round, between two runs of the bare view; each ratio is round i's
        page against the two bare runs beside it, printed as min / median / max
        over the rounds."""
        season = league.seasons.get()
        organiser = league.organisers.get()
        make_organiser(organiser)
        entry = season.entries.select_related("coach__user").order_by("pk").first()
        user = entry.coach.user
        fixture = Fixture.objects.filter(round__season=season).matches().filter(home=entry).order_by("pk").first()
        ratings.recompute(league.game_system)  # the league is built in bulk, which sends no signal: rate it once
        coach, boss = bench.login_cookie(user), bench.login_cookie(organiser)
        paths = {  # name: (path, cookie, goal, label)
            "bare": ("/bench/bare/", "", None, ""),
            "page": (reverse("league:league_detail", args=[league.slug]), "", GOALS["page"],
                     "league page, anonymous, warm / bare"),
            "json": (reverse("league:standings_json", args=[league.slug]), "", GOALS["json"],
                     "standings.json / bare"),
            "api_json": (f"/api/v1/leagues/{league.slug}/standings/", "", GOALS["api_json"],
                         "API standings / bare"),
            "api_results": (f"/api/v1/leagues/{league.slug}/results/?limit=100", "", GOALS["api_results"],
                            "API page of 100 results / bare"),
            "page_coach": (reverse("league:league_detail", args=[league.slug]), coach, GOALS["page_coach"],
                           "league page for a logged-in coach / bare"),
            "fixture_coach": (reverse("league:fixture_detail", args=[fixture.pk]), coach, GOALS["fixture_coach"],
                              "fixture page, coach / bare"),
            "me": (reverse("league:my_fixtures"), coach, GOALS["me"], "/me/ / bare"),
            "campaign": (reverse("campaigns:coach_page", args=[league.slug, entry.coach_id]), coach, GOALS["campaign"],
                         "a coach's campaign page / bare"),
            "dashboard": (reverse("league:organiser_dashboard", args=[league.slug]), boss, GOALS["dashboard"],
                          "organiser dashboard / bare"),
            "ranking": (reverse("ratings:ranking", args=[league.game_system]), "", GOALS["ranking"],
                        "ranking page, anonymous / bare"),
            "profile": (reverse("coach_profile", args=[entry.coach_id]), "", GOALS["profile"],
                        "a coach's profile, 40-coach league, anonymous / bare"),
        }
        with self._server(tmp) as (port, _):
            for path, cookie, *_ in paths.values():  # warm both workers' caches
                for _ in range(10):
                    status, _ = bench.get(port, path, cookie)
                    if status != 200:
                        raise CommandError(f"{path} answered {status}")
            sizes = {name: bench.get(port, path, cookie)[1] for name, (path, cookie, *_) in paths.items()}
            # Each page is measured between two runs of the bare view (bare, page,
            # bare, json, bare, ...): its floor is the two beside it, not one run
            # several pages earlier while this shared machine's load drifts.
            rate: dict[str, list[float]] = {name: [] for name in paths}
            floor: dict[str, list[float]] = {name: [] for name in paths}
            bare_path = paths["bare"][0]
            for _ in range(rounds):
                before = bench.throughput(port, bare_path, requests=requests, threads=threads)
                rate["bare"].append(before)
                for name, (path, cookie, *_) in paths.items():
                    if name == "bare":
                        continue
                    rate[name].append(bench.throughput(port, path, requests=requests, threads=threads, cookie=cookie))
                    after = bench.throughput(port, bare_path, requests=requests, threads=threads)
                    rate["bare"].append(after)
                    floor[name].append(2 / (1 / before + 1 / after))  # the two runs' requests per second together
                    before = after
        self._say(f"gunicorn, 2 workers, {threads} client threads, {rounds} rounds of {requests} requests per URL, "
                  "each between two runs of the bare view, "
                  "median req/s: " + ", ".join(f"{name} {statistics.median(v):.0f}" for name, v in rate.items()))
        for name, (_, _, goal, label) in paths.items():
            if goal is not None:
                ratios.append(bench.ratio_of(label, rate[name], floor[name], goal, True, "req/s"))
        ratios.append(bench.Ratio("organiser dashboard size, 40 coaches, KB", sizes["dashboard"] / 1000,
                                  GOALS["size_kb"], False))

    def _huge(self, ratios, tmp: Path, size: int) -> None:
        """--huge: the cold league page after an approval at ``size`` coaches (a
        single round robin) against a GROUP BY, and the gunicorn workers' memory
        once they have served its pages."""
        league, season, results = self._single_round_robin(size, "Huge League", "the huge data set")
        ratios.append(self._cold_page(league, season, f"{size:,} coaches / {results:,} results", repeat=3))
        entry = season.entries.order_by("pk").last()
        urls = [reverse("league:league_detail", args=[league.slug]),
                reverse("league:coach_detail", args=[league.slug, entry.coach_id]),
                reverse("league:standings_json", args=[league.slug])]
        with self._server(tmp) as (port, master):
            for _ in range(4):  # each worker builds and serves each page
                for url in urls:
                    status, _ = bench.get(port, url)
                    if status != 200:
                        raise CommandError(f"{url} answered {status} at {size} coaches")
            rss = bench.worker_rss(master)
        ratios.append(bench.Ratio(f"gunicorn worker RSS at {size:,} coaches, MB (the larger)", max(rss) / 1e6,
                                  GOALS["rss_mb"], False, ", ".join(f"{r / 1e6:.0f}" for r in rss)))


def _analyze(*, vacuum: bool = False) -> None:
    """Table statistics, as autovacuum would gather them after a bulk load (and,
    with ``vacuum``, the space of deleted rows reclaimed, as it would after a bulk
    delete)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("VACUUM ANALYZE" if vacuum else "ANALYZE")


def _database_url() -> str:
    """The throw-away database as DATABASE_URL, for the gunicorn workers."""
    db = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{db['NAME']}"
    auth = db["USER"] + (f":{db['PASSWORD']}" if db["PASSWORD"] else "")
    return f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


def _wait_for(port: int) -> None:
    for _ in range(300):
        try:
            if bench.get(port, "/bench/bare/")[0] == 200:
                return
        except OSError:
            pass
        time.sleep(0.1)
    raise CommandError("gunicorn did not answer on /bench/bare/ within 30 s.")
