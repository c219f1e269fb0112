"""The benchmark's part ``transfer``: a league's file (docs/export-format.md) at
400 coaches (a single round robin, 79,800 results), exported to a file on disk
as the settings page streams it and imported from that file as a new league,
as ``manage.py import_league`` does.

The spec gives absolute goals: the export under 10 s, the import under 30 s,
each in bounded memory. Each is timed once as it runs for a user (the garbage
collector on), then run again under ``tracemalloc`` for its peak of Python
memory (tracing slows it, so it is not the timed run). Bounded means the peak
does not hold the file: the goal is a fraction of the file's size, which a
file read whole (``json.load``: Python objects several times its size) or built
as one string (its size at least) could not meet.
"""

from __future__ import annotations

import gc
import tempfile
import time
import tracemalloc
import uuid
from collections.abc import Callable
from pathlib import Path

from bench import benchmarking as bench
from league.models import Result
from league.leaguefiles.export import stream_league
from league.leaguefiles.importer import import_league, read_file

def export_to(league, path: Path) -> None:
    """The league's file written to ``path`` piece by piece, as the download streams it."""
    with open(path, "w", encoding="utf-8") as out:
        for piece in stream_league(league):
            out.write(piece)


def import_from(path: Path):
    """The file at ``path`` imported as a new league (at a new address: the original is here)."""
    with open(path, "rb") as handle:
        return import_league(read_file(handle), slug=f"transfer-copy-{uuid.uuid4().hex[:8]}")


def _seconds(action: Callable[[], object]) -> float:
    gc.collect()
    began = time.perf_counter()
    action()
    return time.perf_counter() - began


def _peak_mb(action: Callable[[], object]) -> float:
    gc.collect()
    tracemalloc.start()
    try:
        action()
        return tracemalloc.get_traced_memory()[1] / 1e6
    finally:
        tracemalloc.stop()


def measure(size: int, *, goals: dict, say: Callable[[str], None]) -> list[bench.Ratio]:
    """Export and import wall-clock seconds and peak Python memory at ``size``
    coaches, against ``goals`` (``export_s``, ``import_s``, and ``transfer_peak``:
    the peak over the file's size)."""
    started = time.perf_counter()
    league, season = bench.build_league(size, double=False, logins=False, name="Transfer League")
    results = Result.objects.filter(fixture__round__season=season).count()
    say(f"Built the transfer data set: {size:,} coaches, {results:,} approved results in "
        f"{time.perf_counter() - started:.1f} s.")
    with tempfile.TemporaryDirectory(prefix="benchmark-transfer-") as tmp:
        path = Path(tmp) / "league.json"
        exported = _seconds(lambda: export_to(league, path))
        megabytes = path.stat().st_size / 1e6
        imported = _seconds(lambda: import_from(path))
        say(f"Exported {megabytes:.1f} MB in {exported:.2f} s; imported it in {imported:.2f} s.")
        export_peak = _peak_mb(lambda: export_to(league, Path(tmp) / "again.json"))
        import_peak = _peak_mb(lambda: import_from(path))
        say(f"Peak Python memory (tracemalloc): export {export_peak:.1f} MB, import {import_peak:.1f} MB.")
    what = f"{size} coaches, {results:,} results, {megabytes:.1f} MB"
    limit = goals["transfer_peak"] * megabytes
    return [
        bench.Ratio("export of a league's file, seconds", exported, goals["export_s"], False, what),
        bench.Ratio("import of that file as a new league, seconds", imported, goals["import_s"], False, what),
        bench.Ratio("export peak Python memory / file size", export_peak / megabytes, goals["transfer_peak"], False,
                    f"{export_peak:.1f} MB (goal {limit:.1f} MB)"),
        bench.Ratio("import peak Python memory / file size", import_peak / megabytes, goals["transfer_peak"], False,
                    f"{import_peak:.1f} MB (goal {limit:.1f} MB)"),
    ]
