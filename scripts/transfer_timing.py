"""Times a league's file on this machine: a 400-coach season with every round
played (79,800 results) is exported (streamed to a file) and imported as a new
league. Run against a database of its own:

    DATABASE_URL=sqlite:////tmp/transfer.sqlite3 python manage.py migrate
    DATABASE_URL=sqlite:////tmp/transfer.sqlite3 python scripts/transfer_timing.py

Goals (docs/export-format.md): export under 10 s, import under 30 s.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "league.settings")

import django  # noqa: E402

django.setup()

from league.models import Coach, Entry, League, Result  # noqa: E402
from league.transfer.export import stream_league  # noqa: E402
from league.transfer.importer import import_league, read_file  # noqa: E402
from tests.builders import season_with_results  # noqa: E402
from tests.factories import LeagueFactory, SeasonFactory  # noqa: E402

COACHES = int(os.environ.get("COACHES", 400))


def main() -> None:
    league = League.objects.filter(slug="transfer-timing").first()
    if league is None:
        started = time.perf_counter()
        league = LeagueFactory(slug="transfer-timing", name="Transfer timing")
        season = SeasonFactory(league=league)
        # Coaches without accounts, written in bulk (a factory's account hashes a password per coach).
        coaches = Coach.objects.bulk_create(Coach(name=f"Coach {n:03}") for n in range(COACHES))
        Entry.objects.bulk_create(Entry(season=season, coach=coach) for coach in coaches)
        season_with_results(coaches=0, played_rounds=COACHES, season=season)
        print(f"built in {time.perf_counter() - started:.1f} s")
    results = Result.objects.filter(fixture__round__season__league=league).count()
    path = Path(tempfile.gettempdir()) / "transfer-timing.json"
    tracemalloc.start()
    started, cpu = time.perf_counter(), time.process_time()
    with open(path, "w", encoding="utf-8") as out:
        for piece in stream_league(league):
            out.write(piece)
    exported, export_cpu = time.perf_counter() - started, time.process_time() - cpu
    _, export_peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(f"export: {COACHES} coaches, {results} results, {path.stat().st_size / 1e6:.1f} MB in {exported:.2f} s "
          f"(goal < 10 s, ratio {exported / 10:.2f}; this process's CPU {export_cpu:.1f} s); peak Python memory {export_peak / 1e6:.1f} MB")
    League.objects.filter(slug="transfer-timing-copy").delete()
    started, cpu = time.perf_counter(), time.process_time()
    with open(path, encoding="utf-8") as handle:
        copy = import_league(read_file(handle), slug="transfer-timing-copy")
    imported, import_cpu = time.perf_counter() - started, time.process_time() - cpu
    print(f"import: {imported:.2f} s (goal < 30 s, ratio {imported / 30:.2f}; this process's CPU {import_cpu:.1f} s) -> /leagues/{copy.slug}/")


if __name__ == "__main__":
    main()
