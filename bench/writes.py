"""The benchmark's parts that count and time writes: ``approvals``, the queries of
approving one result in a Big League season (the first, the last, a late round-1
result once every later round is approved), and ``import``, ``import_results``
against bulk-inserting the same rows."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

from django.db import connection, reset_queries
from django.db.models import Q
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from bench import benchmarking as bench
from league.caching import versions
from league.spreadsheets.files import read_rows, rules_for
from league.spreadsheets.writer import import_rows, system_user
from league.models import Fixture, Result
from league.services import results as services


def approvals(size: int, *, goals: dict, say: Callable[[str], None]) -> list[bench.Ratio]:
    """Queries of approving one result in a Big League season (GB-17, GB-18)."""
    league, season = _campaign_season(size)
    organiser = league.organisers.get()
    fixtures = list(Fixture.objects.filter(round__season=season).matches().order_by("round__number", "pk"))
    first, held_back, last = fixtures[0], fixtures[1], fixtures[-1]

    def approve(fixture: Fixture) -> int:
        result = Result.objects.get(fixture=fixture)
        reset_queries()
        with CaptureQueriesContext(connection) as captured:
            services.approve_result(result=result, by=organiser)
        return len(captured)

    early = approve(first)
    started = time.perf_counter()
    for fixture in fixtures:
        if fixture not in (first, held_back, last):
            services.approve_result(result=fixture.result, by=organiser)
    say(f"Approved {len(fixtures) - 2} results of a {size}-coach campaign season through the service in "
        f"{time.perf_counter() - started:.1f} s.")
    late = approve(last)
    round_one = approve(held_back)
    return [
        bench.Ratio(f"queries approving {label}", count, goals["queries"], False,
                    f"{size} coaches, {len(fixtures)} results")
        for label, count in (("the first result", early), ("the last result", late),
                             ("a round-1 result, all later rounds approved", round_one))
    ]


def imports(size: int, *, goals: dict, say: Callable[[str], None]) -> list[bench.Ratio]:
    """import_results of a double round robin (1,560 results at 40 coaches)
    against bulk-inserting the same rows, and its time per result against the
    first half of the file."""
    ratios = []
    by = system_user()
    rules = rules_for("guildball")
    full = bench.import_csv(size, league="Imported Big")
    count = len(full.splitlines()) - 1
    half = bench.import_csv(size, league="Imported Half")
    half = "\n".join(half.splitlines()[: 1 + count // 2]) + "\n"

    def run_import(text: str) -> float:
        began = time.perf_counter()
        import_rows(read_rows(text.splitlines(keepends=True), rules=rules), rules=rules, by=by,
                    start_date=timezone.localdate())
        return time.perf_counter() - began

    def floor(text: str) -> float:
        """The bulk insert of ``text``'s rows, the median of three (each under a new
        name): one timing of a 0.1 to 0.3 s insert swings with the machine's load."""
        times = []
        for _ in range(3):
            began = time.perf_counter()
            bench.bulk_insert_csv(text, by=by)
            times.append(time.perf_counter() - began)
        return statistics.median(times)

    bulk = floor(full)
    imported = run_import(full)
    halved = run_import(half)
    say(f"import_results: {count} results in {imported:.1f} s, {count // 2} in {halved:.1f} s; "
        f"bulk insert of the {count} rows {bulk:.2f} s.")
    ratios.append(bench.Ratio(f"import_results {count} results / bulk insert of the rows", imported / bulk,
                              goals["import"], False, f"{imported:.2f} s / {bulk:.2f} s"))
    per_full, per_half = imported / count * 1000, halved / (count // 2) * 1000
    ratios.append(bench.Ratio(f"import time per result, {count} results / {count // 2}", per_full / per_half,
                              goals["flat"], False, f"{per_full:.2f} / {per_half:.2f} ms per result"))
    # The Big League's CP columns (GB-11), through the import, against the same bulk insert.
    with_cp = bench.import_csv(size, league="Imported CP", cp=True)
    bulk_cp = floor(with_cp)
    imported_cp = run_import(with_cp)
    say(f"import_results with CP columns: {count} results in {imported_cp:.1f} s.")
    ratios.append(bench.Ratio(f"import_results {count} results with the CP columns / bulk insert",
                              imported_cp / bulk_cp, goals["import"], False,
                              f"{imported_cp:.2f} s / {bulk_cp:.2f} s"))
    return ratios


def _campaign_season(size: int):
    """A Guild Ball league (so a Big League campaign) of ``size`` coaches in a single
    round robin, every match reported by its home coach, confirmed by the other and
    waiting for approval (GB-8: approving it needs no reason)."""
    league, season = bench.build_league(size, double=False, name="Campaign League")
    Result.objects.filter(fixture__round__season=season).update(status=Result.Status.CONFIRMED, approved_at=None,
                                                                  reported_side="home")
    versions.bump(Q(pk=season.pk))  # bulk writes send no signals
    return league, season
