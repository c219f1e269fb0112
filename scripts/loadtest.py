"""R4: 50 concurrent clients on the busiest pages, against gunicorn on
127.0.0.1 only, for a bounded time. Prints the figures and exits non-zero on any
failed request (a 5xx, a refused connection, an unexpected status).

    pip install -r requirements.txt -r requirements-load.txt
    python scripts/loadtest.py [--users 50] [--seconds 30] [--workers 4] [--database-url URL]

It builds its own demo database (a SQLite file in a temporary folder unless
--database-url names an empty PostgreSQL database), the production settings of
the README (DEBUG off, hashed static files), starts gunicorn on a free loopback
port and drives it with Locust (as a library, headless):

- readers (anonymous): league pages, standings.json, fixtures, coach pages, of
  all three demo leagues;
- coaches (logged in through the login form, CSRF and all): their /me/ page and
  fixture pages, and the report/confirm flow: confirming the opponent's report
  and reporting an open fixture. The first click wins; a later one is refused
  with a 4xx (already confirmed or reported), which counts as a correct answer.
"""

from __future__ import annotations

import argparse
import random
import re
import shutil
import sys
import tempfile
from pathlib import Path

from demo_server import gunicorn, load_demo, shell_json, site_env

DEMO_SLUGS = ("harbour-lights", "altdorf-colleges", "neon-dome")
COACH_PASSWORD = "coach-demo"


# What the clients visit, read from the demo database before the run.
SITE_FACTS = """
import json
from league.models import Coach, Fixture, Result
out = {"coaches": [], "pages": []}
for c in Coach.objects.filter(user__isnull=False, entries__season__league__slug__in=%r).select_related("user").distinct():
    slug = c.entries.select_related("season__league").first().season.league.slug
    fixtures = Fixture.objects.filter(away__isnull=False).filter(home__coach=c) | Fixture.objects.filter(away__isnull=False, away__coach=c)
    to_confirm = [f.pk for f in fixtures.filter(result__status="reported").select_related("result") if f.side_of(c) == f.result.confirming_side]
    to_report = list(fixtures.filter(result__isnull=True).values_list("pk", flat=True)[:3])
    out["coaches"].append({"username": c.user.username, "slug": slug, "coach": c.pk, "confirm": to_confirm, "report": to_report})
for slug in %r:
    out["pages"] += [f"/leagues/{slug}/", f"/leagues/{slug}/standings.json", f"/leagues/{slug}/fixtures/"]
for c in out["coaches"]:
    out["pages"].append(f"/leagues/{c['slug']}/coaches/{c['coach']}/")
print(json.dumps(out))
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--users", type=int, default=50)
    parser.add_argument("--seconds", type=int, default=30)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--database-url", help="an empty PostgreSQL database (default: a new SQLite file)")
    options = parser.parse_args()

    workdir = Path(tempfile.mkdtemp(prefix="league-load-"))
    database_url = options.database_url or f"sqlite:///{workdir / 'load.sqlite3'}"
    env = site_env(database_url, workdir / "static")
    print(f"Building the demo database ({database_url}) ...", flush=True)
    load_demo(env)
    facts = shell_json(env, SITE_FACTS % (DEMO_SLUGS, DEMO_SLUGS))
    try:
        with gunicorn(env, workers=options.workers, log_level="warning", timeout=60) as server:
            return run_load(server.url, facts, options)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def run_load(host: str, facts: dict, options) -> int:
    import gevent
    from locust import HttpUser, between, task
    from locust.env import Environment
    from locust.stats import stats_history, stats_printer  # noqa: F401

    pages = facts["pages"]
    coaches = list(facts["coaches"])
    random.Random(7).shuffle(coaches)

    class Reader(HttpUser):
        weight = 4
        wait_time = between(0.1, 0.5)

        @task(3)
        def league_page(self):
            self.client.get(f"/leagues/{random.choice(DEMO_SLUGS)}/", name="league page")

        @task(3)
        def standings(self):
            self.client.get(f"/leagues/{random.choice(DEMO_SLUGS)}/standings.json", name="standings.json")

        @task(2)
        def fixtures(self):
            self.client.get(f"/leagues/{random.choice(DEMO_SLUGS)}/fixtures/", name="fixtures")

        @task(2)
        def coach_page(self):
            c = random.choice(coaches)
            self.client.get(f"/leagues/{c['slug']}/coaches/{c['coach']}/", name="coach page")

    class Coach(HttpUser):
        weight = 1
        wait_time = between(0.2, 1.0)

        def on_start(self):
            self.me = coaches[Coach.started % len(coaches)]
            Coach.started += 1
            page = self.client.get("/accounts/login/", name="login form")
            token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text).group(1)
            with self.client.post("/accounts/login/", name="log in", allow_redirects=False, catch_response=True,
                                  data={"username": self.me["username"], "password": COACH_PASSWORD,
                                        "csrfmiddlewaretoken": token}) as r:
                if r.status_code != 302:
                    r.failure(f"login of {self.me['username']} answered {r.status_code}")

        def _token(self, url: str, name: str) -> str | None:
            page = self.client.get(url, name=name)
            found = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text)
            return found.group(1) if found else None

        def _post(self, url: str, data: dict, name: str):
            with self.client.post(url, data=data, name=name, allow_redirects=False, catch_response=True) as r:
                # 302: done; 400/409: refused because someone was first (a correct answer under load).
                if r.status_code in (302, 400, 409):
                    r.success()
                else:
                    r.failure(f"{name} answered {r.status_code}")

        @task(3)
        def my_fixtures(self):
            self.client.get("/me/", name="/me/")

        @task(2)
        def confirm(self):
            for pk in self.me["confirm"]:
                token = self._token(f"/fixtures/{pk}/", "fixture page")
                self._post(f"/fixtures/{pk}/confirm/", {"csrfmiddlewaretoken": token}, "confirm")

        @task(1)
        def report(self):
            if not self.me["report"]:
                return
            pk = random.choice(self.me["report"])
            page = self.client.get(f"/fixtures/{pk}/", name="fixture page")
            token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text)
            if token is None:
                return
            # The game's report form as the page shows it, filled with its first choices.
            form = re.search(r'<form method="post" action="/fixtures/%d/report/".*?</form>' % pk, page.text, re.S)
            if form is None:
                return
            data = {"csrfmiddlewaretoken": token.group(1)}
            for name, value in re.findall(r'<input[^>]*name="([^"]+)"[^>]*value="([^"]*)"', form.group(0)):
                data.setdefault(name, value)
            for name in re.findall(r'<input[^>]*type="number"[^>]*name="([^"]+)"', form.group(0)):
                data[name] = str(random.randint(0, 12))
            for name, options in re.findall(r'<select[^>]*name="([^"]+)"[^>]*>(.*?)</select>', form.group(0), re.S):
                values = [v for v in re.findall(r'value="([^"]*)"', options) if v]
                if values:
                    data[name] = values[0]
            data.pop("csrfmiddlewaretoken", None)
            data["csrfmiddlewaretoken"] = token.group(1)
            self._post(f"/fixtures/{pk}/report/", data, "report")

    Coach.started = 0
    env = Environment(user_classes=[Reader, Coach], host=host)
    runner = env.create_local_runner()
    print(f"Load: {options.users} users ({len(coaches)} coach accounts) for {options.seconds} s on {host}", flush=True)
    runner.start(options.users, spawn_rate=options.users)
    gevent.spawn_later(options.seconds, runner.quit)
    runner.greenlet.join()

    stats = env.stats
    print(f"\n{'request':<24}{'count':>8}{'fail':>6}{'median ms':>11}{'p95 ms':>9}{'max ms':>9}{'req/s':>8}")
    for entry in sorted(stats.entries.values(), key=lambda e: -e.num_requests):
        print(f"{entry.method + ' ' + entry.name:<24}{entry.num_requests:>8}{entry.num_failures:>6}"
              f"{entry.get_response_time_percentile(0.5):>11.0f}{entry.get_response_time_percentile(0.95):>9.0f}"
              f"{entry.max_response_time:>9.0f}{entry.total_rps:>8.1f}")
    total = stats.total
    print(f"{'total':<24}{total.num_requests:>8}{total.num_failures:>6}{total.get_response_time_percentile(0.5):>11.0f}"
          f"{total.get_response_time_percentile(0.95):>9.0f}{total.max_response_time:>9.0f}{total.total_rps:>8.1f}")
    for error in stats.errors.values():
        print(f"FAILURE x{error.occurrences}: {error.method} {error.name}: {error.error}")
    if total.num_requests == 0 or total.num_failures:
        print("FAILED: some requests failed" if total.num_failures else "FAILED: no request was made")
        return 1
    print("OK: no failed request")
    return 0


if __name__ == "__main__":
    sys.exit(main())
