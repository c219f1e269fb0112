"""What the scripts that drive a real server share (loadtest.py, R4; faults.py,
R7): the README's production settings for a subprocess, manage.py commands, the
demo loaded into a new database, and gunicorn on a free loopback port, started,
waited for and stopped. The scripts run as ``python scripts/<name>.py``, which
puts this folder on the import path."""

from __future__ import annotations

import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def site_env(database_url: str, static_root: Path) -> dict:
    """The production settings of the README, on loopback only."""
    env = dict(os.environ)
    env.update(
        DATABASE_URL=database_url, DEBUG="false", SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="127.0.0.1", STATIC_ROOT=str(static_root), LOG_LEVEL="ERROR",
        # Many coaches log in from one address during the run.
        AXES_FAILURE_LIMIT="1000",
    )
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    return env


def manage(env: dict, *args: str) -> str:
    done = subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"manage.py {' '.join(args)} failed:\n{done.stderr[-3000:]}")
    return done.stdout


def load_demo(env: dict) -> None:
    """Migrate the new database, collect the static files and load the demo."""
    manage(env, "migrate", "--noinput", "-v", "0")
    manage(env, "collectstatic", "--noinput", "-v", "0")
    manage(env, "quickstart", "--no-serve")


def shell_json(env: dict, code: str) -> object:
    """Run ``code`` in ``manage.py shell``; it prints its answer as JSON, last."""
    return json.loads(manage(env, "shell", "-v", "0", "-c", code).strip().splitlines()[-1])


@dataclass(frozen=True)
class Server:
    url: str
    process: subprocess.Popen


@contextmanager
def gunicorn(env: dict, *, workers: int, log_level: str, timeout: int) -> Iterator[Server]:
    """gunicorn serving the site on a free 127.0.0.1 port for the block, once it
    accepts connections (exit status 2 when it does not within about 20 s);
    stopped with SIGTERM after it, and SIGKILL after 30 s more."""
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "league.wsgi", "--bind", f"127.0.0.1:{port}", "--workers", str(workers),
         "--log-level", log_level, "--timeout", str(timeout)],
        cwd=ROOT, env=env,
    )
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.2)
        else:
            print("gunicorn did not start", file=sys.stderr)
            sys.exit(2)
        yield Server(f"http://127.0.0.1:{port}", process)
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
