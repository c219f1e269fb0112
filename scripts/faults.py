"""R7: faults under load. Runs its own PostgreSQL cluster in a temporary
folder (initdb and pg_ctl from /usr/lib/postgresql/*/bin, a free loopback port:
it never touches another server) and gunicorn against it, loads the demo, then
drives the result workflow of the Big League demo from clients in threads (the
organiser records and approves results, coaches report and confirm) while it

1. stops the database (``pg_ctl stop -m fast``), waits, and starts it again;
2. kills a gunicorn worker with SIGKILL while approvals are in flight (twice).

Afterwards it checks that every success a client saw (a redirect after the
action) is stored, and that nothing is half-written or doubled: every approved
result has its approval in the history and its match Favours (GB-18) for the
winner, no Favour line belongs to a result that is not approved, no Favour line
is there twice, and the Favour balances are the sums of their lines. It prints
the figures and exits non-zero on any failed check.

    python scripts/faults.py [--seconds 40] [--workers 3]
"""

from __future__ import annotations

import argparse
import glob
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

import requests

from demo_server import free_port, gunicorn, load_demo, shell_json, site_env

SLUG = "harbour-lights"
ORGANISER = ("longshanks", "longshanks-demo")
COACH_PASSWORD = "coach-demo"


def pg_bin(tool: str) -> str:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{tool}"))
    if not found:
        sys.exit(f"no {tool} under /usr/lib/postgresql/*/bin")
    return found[-1]


class Cluster:
    """A throw-away PostgreSQL cluster owned by this script."""

    def __init__(self, workdir: Path):
        self.data = workdir / "pgdata"
        self.socket_dir = workdir
        self.log = workdir / "postgres.log"
        self.port = free_port()
        self.as_user = []
        if os.geteuid() == 0:
            # PostgreSQL refuses to run as root: run the cluster as the postgres user.
            self.as_user = ["runuser", "-u", "postgres", "--"]
            shutil.chown(workdir, "postgres")
        subprocess.run([*self.as_user, pg_bin("initdb"), "-D", str(self.data), "-U", "postgres", "--auth=trust",
                        "-E", "UTF8"], check=True, capture_output=True)

    def _ctl(self, *args: str) -> None:
        subprocess.run([*self.as_user, pg_bin("pg_ctl"), "-D", str(self.data), *args], check=True,
                       capture_output=True)

    def start(self) -> None:
        options = f"-p {self.port} -k {self.socket_dir} -c listen_addresses=127.0.0.1"
        self._ctl("start", "-w", "-l", str(self.log), "-o", options)

    def stop(self) -> None:
        self._ctl("stop", "-m", "fast", "-w")

    def url(self, name: str) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{name}"


PLAN = """
import json
from league.models import Fixture
out = []
for f in Fixture.objects.filter(round__season__league__slug=%r, away__isnull=False, result__isnull=True).select_related(
        "round", "home__coach__user", "away__coach__user").order_by("round__number", "pk"):
    out.append({"pk": f.pk, "round": f.round.number, "home": f.home.coach.user.username,
                "away": f.away.coach.user.username})
print(json.dumps(out))
"""

CHECK = """
import json
from collections import Counter
from django.db.models import Sum
from campaigns.models import FavourLine, LineKind
from league.models import Fixture, Result, ResultEvent
season_q = {"fixture__round__season__league__slug": %r}
results = {r.fixture_id: r for r in Result.objects.filter(**season_q)}
approved = {r.pk for r in results.values() if r.status == "approved"}
events = Counter(ResultEvent.objects.filter(**season_q, action__in=["approved", "entered", "corrected", "abandoned"]).values_list("fixture_id", flat=True))
active = FavourLine.objects.filter(kind=LineKind.MATCH, reversed_by__isnull=True, reverses__isnull=True,
                                   coach__campaign__season__league__slug=%r)
lines = list(active.values_list("result_id", "coach__entry_id", "reason"))
winners = {}
for r in Result.objects.filter(pk__in=approved).select_related("fixture"):
    if r.outcome in ("home", "away"):
        winners[r.pk] = r.fixture.home_id if r.outcome == "home" else r.fixture.away_id
have = {(res, entry) for res, entry, _ in lines}
balances_ok = all(
    (FavourLine.objects.filter(coach=cc).aggregate(s=Sum("amount"))["s"] or 0) ==
    sum(l.amount for l in FavourLine.objects.filter(coach=cc))
    for cc in {l.coach for l in FavourLine.objects.select_related("coach")}
)
print(json.dumps({
    "results": {str(k): [v.status, v.home_score, v.away_score] for k, v in results.items()},
    "approved_without_event": sorted(results[f].pk for f in results if results[f].status == "approved" and not events[f]),
    "lines_of_unapproved_results": sorted({res for res, _, _ in lines if res not in approved}),
    "doubled_lines": sorted(str(k) for k, n in Counter(lines).items() if n > 1),
    "winners_without_favours": sorted(pk for pk, entry in winners.items() if (pk, entry) not in have),
    "balances_ok": balances_ok,
}))
"""


class Clients:
    """Logged-in sessions and what each saw."""

    def __init__(self, host: str):
        self.host = host
        self.sessions: dict[str, requests.Session] = {}
        self.lock = threading.Lock()
        self.seen: Counter = Counter()
        self.attempts: list[tuple[str, int, dict, str]] = []  # every attempt in order, with its answer

    def session(self, username: str, password: str = COACH_PASSWORD) -> requests.Session:
        if username not in self.sessions:
            s = requests.Session()
            for _ in range(30):
                try:
                    page = s.get(f"{self.host}/accounts/login/", timeout=10)
                    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text).group(1)
                    r = s.post(f"{self.host}/accounts/login/", data={"username": username, "password": password,
                               "csrfmiddlewaretoken": token}, allow_redirects=False, timeout=10)
                    if r.status_code == 302:
                        break
                except (requests.RequestException, AttributeError):
                    pass
                time.sleep(0.5)
            self.sessions[username] = s
        return self.sessions[username]

    def post(self, username: str, action: str, pk: int, data: dict, password: str = COACH_PASSWORD) -> bool:
        """POST the action; the outcome is "ok" when the page it leads to says it was
        done, "refused" when it says why not, the status of any other answer, and
        "unknown: ..." when no answer came (that action may or may not be stored)."""
        s = self.session(username, password)
        data = {**data, "csrfmiddlewaretoken": s.cookies.get("csrftoken", "")}
        try:
            r = s.post(f"{self.host}/fixtures/{pk}/{action}/", data=data, allow_redirects=False, timeout=30)
            outcome = str(r.status_code)
            if r.status_code == 302:
                outcome = "unknown: the page after it did not load"
                page = s.get(f"{self.host}{r.headers['Location']}", timeout=30)
                if page.status_code == 200:
                    outcome = "ok" if DONE[action] in page.text else "refused"
        except requests.RequestException as error:
            outcome = f"unknown: {type(error).__name__}"
        with self.lock:
            self.seen[f"{action} {outcome}"] += 1
            self.attempts.append((action, pk, data, outcome))
        return outcome == "ok"


# What the fixture page says after each action succeeded (league/web/fixtures.py).
DONE = {"record": "Result recorded and approved.", "approve": "Result approved", "confirm": "Result confirmed.",
        "report": "Result reported."}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=int, default=40, help="how long the clients run")
    parser.add_argument("--workers", type=int, default=3)
    options = parser.parse_args()

    workdir = Path(tempfile.mkdtemp(prefix="league-faults-"))
    cluster = Cluster(workdir)
    cluster.start()
    try:
        subprocess.run([*cluster.as_user, pg_bin("createdb"), "-h", "127.0.0.1", "-p", str(cluster.port), "-U",
                        "postgres", "league"], check=True, capture_output=True)
        env = site_env(cluster.url("league"), workdir / "static")
        print(f"PostgreSQL cluster of our own on 127.0.0.1:{cluster.port} ({workdir}); loading the demo ...", flush=True)
        load_demo(env)
        plan = shell_json(env, PLAN % SLUG)

        with gunicorn(env, workers=options.workers, log_level="error", timeout=30) as server:
            clients = Clients(server.url)
            figures = drive(clients, plan, cluster, server.process, options.seconds)
            check = shell_json(env, CHECK % (SLUG, SLUG))
            return report(clients, figures, check)
    finally:
        try:
            cluster.stop()
        except subprocess.CalledProcessError:
            pass
        shutil.rmtree(workdir, ignore_errors=True)


def drive(clients: Clients, plan: list[dict], cluster: Cluster, server: subprocess.Popen, seconds: int) -> dict:
    """Two organiser threads keep entering and correcting results of their own
    fixtures (each entry approves the result and recomputes the Big League's
    Favours) for the whole run; a workflow thread has coaches report and confirm
    the other fixtures and the organiser approve them, one fixture a second; the
    faults meanwhile."""
    record_a, record_b, flow = plan[0::3], plan[1::3], plan[2::3]
    for username in {ORGANISER[0]} | {f[side] for f in flow for side in ("home", "away")}:
        clients.session(username, ORGANISER[1] if username == ORGANISER[0] else COACH_PASSWORD)
    stop = time.monotonic() + seconds
    figures: Counter = Counter()

    def recorder(fixtures: list[dict], seed: int):
        n = seed
        while time.monotonic() < stop:
            for f in fixtures:
                if time.monotonic() > stop:
                    return
                n += 1
                home, away = (12, n % 10) if n % 2 else (n % 10, 12)
                clients.post(ORGANISER[0], "record", f["pk"], {"home_score": home, "away_score": away,
                             "reason": f"Entered by the organiser ({n})", "acknowledge": "on"}, ORGANISER[1])

    def workflow():
        for i, f in enumerate(flow):
            if time.monotonic() > stop:
                return
            home, away = (12, 2 + i % 8) if i % 2 else (5 + i % 6, 12)
            for _ in range(5):  # a failed attempt is tried again, as a person would
                if clients.post(f["home"], "report", f["pk"], {"home_score": home, "away_score": away,
                                                               "played_early": "on"}):
                    break
                time.sleep(0.5)
            for _ in range(5):
                if clients.post(f["away"], "confirm", f["pk"], {}):
                    break
                time.sleep(0.5)
            for _ in range(5):
                if clients.post(ORGANISER[0], "approve", f["pk"], {"reason": "Approved"}, ORGANISER[1]):
                    break
                time.sleep(0.5)
            time.sleep(1)

    def faults():
        time.sleep(min(4, seconds / 8))
        started = time.monotonic()
        cluster.stop()
        figures["database stops"] += 1
        time.sleep(3)
        cluster.start()
        figures["database down ms"] = round((time.monotonic() - started) * 1000)
        for _ in range(2):
            time.sleep(min(6, seconds / 6))
            # A worker of our own gunicorn, killed while results are being approved.
            workers = subprocess.run(["pgrep", "-P", str(server.pid)], capture_output=True, text=True).stdout.split()
            if workers:
                os.kill(int(workers[0]), signal.SIGKILL)
                figures["workers killed"] += 1

    threads = [threading.Thread(target=recorder, args=(record_a, 0)), threading.Thread(target=recorder, args=(record_b, 5)),
               threading.Thread(target=workflow), threading.Thread(target=faults)]
    started = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    figures["seconds"] = round(time.monotonic() - started, 1)
    return dict(figures)


def report(clients: Clients, figures: dict, check: dict) -> int:
    print("\nFaults:", ", ".join(f"{k} {v}" for k, v in figures.items()))
    print("Requests by action and answer:")
    for key, n in sorted(clients.seen.items()):
        print(f"  {key:<40}{n:>5}")
    results = check["results"]
    lost = []
    for index, (action, pk, data, outcome) in enumerate(clients.attempts):
        if outcome != "ok":
            continue
        stored = results.get(str(pk))
        after = [(d, o) for a, p, d, o in clients.attempts[index + 1:] if p == pk and a == action]
        if stored is None:
            lost.append((action, pk, "no result"))
        elif action == "record":
            if stored[0] != "approved":
                lost.append((action, pk, stored))
            elif not any(o == "ok" for _, o in after):
                # The last entry a client saw succeed, unless a later one whose answer
                # never came (a killed worker, a dropped connection) was stored after it.
                possible = [data] + [d for d, o in after if o.startswith("unknown")]
                if stored[1:] not in ([int(d["home_score"]), int(d["away_score"])] for d in possible):
                    lost.append((action, pk, stored, "last seen", data["home_score"], data["away_score"]))
        elif action == "approve" and stored[0] != "approved":
            lost.append((action, pk, stored))
        elif action == "confirm" and stored[0] not in ("confirmed", "approved"):
            lost.append((action, pk, stored))
    problems = {
        "successes not stored": lost,
        "approved results without their approval event": check["approved_without_event"],
        "Favour lines of results not approved": check["lines_of_unapproved_results"],
        "Favour lines written twice": check["doubled_lines"],
        "approved wins without the winner's Favours": check["winners_without_favours"],
    }
    successes = sum(1 for a in clients.attempts if a[3] == "ok")
    print(f"Successes seen by clients: {successes} of {len(clients.attempts)} attempts; all stored: {not lost}")
    print(f"Results in the league: {len(results)} ({sum(1 for r in results.values() if r[0] == 'approved')} approved); "
          f"Favour balances are the sums of their lines: {check['balances_ok']}")
    failed = {k: v for k, v in problems.items() if v}
    for what, items in failed.items():
        print(f"FAILED: {what}: {items[:10]}")
    if not check["balances_ok"]:
        failed["balances"] = True
        print("FAILED: a Favour balance differs from its lines")
    if not successes:
        failed["no successes"] = True
        print("FAILED: no client action succeeded")
    if not failed:
        print("OK: every success stored, nothing half-written or doubled")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
