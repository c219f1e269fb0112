"""The SQLite default under two writers: write transactions start at once (BEGIN
IMMEDIATE) and wait their turn on a busy timeout, in write-ahead-log mode, so two
clients writing at once never get "database is locked". Runs against a real file
(the test database is in memory, shared by one connection) in a fresh interpreter,
because settings are read once per process."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# Each thread has its own connection (Django's are per thread) and does what a view
# does: read inside a transaction, then write what it read. Under SQLite's default
# DEFERRED transactions the second writer cannot upgrade its read lock and fails at
# once, whatever the timeout.
WRITERS = r"""
import json, sys, threading, time
import django
django.setup()
from django.db import connection, connections, transaction, OperationalError

with connection.cursor() as c:
    c.execute("CREATE TABLE counter (n integer NOT NULL)")
    c.execute("INSERT INTO counter VALUES (0)")
    c.execute("PRAGMA journal_mode")
    mode = c.fetchone()[0]
connection.close()

ROUNDS = 40
errors = []
start = threading.Barrier(2)

def writer():
    start.wait()
    for _ in range(ROUNDS):
        try:
            with transaction.atomic():
                with connection.cursor() as c:
                    c.execute("SELECT n FROM counter")
                    n = c.fetchone()[0]
                    time.sleep(0.002)
                    c.execute("UPDATE counter SET n = %s", [n + 1])
        except OperationalError as e:
            errors.append(str(e))
    connection.close()

threads = [threading.Thread(target=writer) for _ in range(2)]
for t in threads: t.start()
for t in threads: t.join()
with connection.cursor() as c:
    c.execute("SELECT n FROM counter")
    total = c.fetchone()[0]
print(json.dumps({"mode": mode, "errors": errors[:3], "error_count": len(errors), "total": total, "expected": 2 * ROUNDS}))
"""


def test_two_writers_on_a_sqlite_file_wait_their_turn(tmp_path):
    import json

    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "DEBUG", "SECRET_KEY"}}
    env["DATABASE_URL"] = f"sqlite:///{tmp_path / 'two-writers.sqlite3'}"
    env["DJANGO_SETTINGS_MODULE"] = "league.settings"
    done = subprocess.run([sys.executable, "-c", WRITERS], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["error_count"] == 0, result["errors"]
    assert result["total"] == result["expected"]  # and no update lost
    assert result["mode"] == "wal"


def test_sqlite_options_in_the_settings(settings):
    from django.db import connection

    if connection.vendor != "sqlite":
        pytest.skip("the options are SQLite's; the PostgreSQL run has none")
    options = settings.DATABASES["default"]["OPTIONS"]
    assert options["transaction_mode"] == "IMMEDIATE"
    assert "PRAGMA journal_mode=WAL" in options["init_command"]
    assert "PRAGMA busy_timeout=" in options["init_command"]
