"""Backup and restore as docs/backup.md describes it. A league world of
all three games (tests/support/world.py) is dumped with ``dumpdata`` and loaded with
``loaddata`` into a fresh database migrated for the purpose (a new SQLite file,
or a new PostgreSQL database next to the test database), in another process, as
an organiser would on a new server. The restored site computes the same
standings, the same Campaign Point, Favour and Treasury ledgers and balances,
the same results and the same logged dice rolls.

Before the backup, an attacker's writes are tried through the pages
(a display name ``Hollis\x0bSprocket`` or with a text-direction override, a
``\x1b`` in a CP adjustment reason): each is refused, and the backup holds the
plain text that was kept, a league description on several lines included. Log-in attempts, which keep whatever a visitor sends
(their user agent, their form), are not part of a backup."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from axes.models import AccessAttempt
from django.apps import apps
from django.conf import settings
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.urls import reverse

from campaigns.models import CampaignCoach, CampaignPointLine, FavourLine
from league.web import feeds
from league.dungeonbowl.models import DiceRoll, TreasuryLine
from league.models import Coach, League, Result, Season
from league.standings.season import standings_for
from tests.support.world import build_world

ROOT = Path(__file__).resolve().parent.parent

# What the backup (docs/backup.md) leaves out: rows every migrated database makes for
# itself, logged-in sessions, and django-axes' log-in attempts and lockouts
# (transient, and verbatim what any visitor sent, control characters included).
EXCLUDED = ["contenttypes", "auth.permission", "sessions", "league.session", "axes"]

FIGURES = (
    "import django, json; django.setup(); "
    "from tests.test_backup_restore import figures; print(json.dumps(figures(), sort_keys=True, default=str))"
)


def _lines(model) -> list:
    return sorted(
        (str(line.coach), line.amount, line.kind, line.reason, str(line.result_id), str(line.card_id), str(line.created_at))
        for line in model.objects.select_related("coach__entry__coach")
    )


def _balances(model) -> dict[str, int]:
    totals: Counter = Counter()
    for line in model.objects.select_related("coach__entry__coach"):
        totals[str(line.coach)] += line.amount
    return dict(totals)


def figures() -> dict:
    """What a restore must give back, by name rather than by id."""
    out: dict = {}
    for season in Season.objects.select_related("league").order_by("league__slug", "name"):
        league = season.league
        out[f"standings {league.slug} {season.name}"] = feeds.standings_rows(standings_for(season), league.rules)
    out["results"] = sorted(
        (str(r.fixture), r.home_score, r.away_score, r.outcome, r.status, r.summary, str(r.approved_at))
        for r in Result.objects.select_related("fixture__home__coach", "fixture__away__coach", "fixture__round")
    )
    out["cp lines"], out["cp balances"] = _lines(CampaignPointLine), _balances(CampaignPointLine)
    out["favour lines"], out["favour balances"] = _lines(FavourLine), _balances(FavourLine)
    out["gold lines"] = sorted(
        (line.team.name, line.amount, line.kind, line.reason, str(line.cause_type), str(line.cause_id))
        for line in TreasuryLine.objects.select_related("team", "cause_type")
    )
    gold: Counter = Counter()
    for line in TreasuryLine.objects.select_related("team"):
        gold[line.team.name] += line.amount
    out["gold balances"] = dict(gold)
    out["dice"] = [
        (roll.league.slug, roll.purpose, roll.description, roll.dice, roll.values, roll.source)
        for roll in DiceRoll.objects.select_related("league").order_by("pk")
    ]
    out["rows"] = {
        m._meta.label: m.objects.count()
        for m in apps.get_models()
        if m._meta.app_label not in ("contenttypes", "sessions", "axes")
        and m._meta.label not in ("auth.Permission", "league.Session")
    }
    out["texts"] = sorted(
        [*League.objects.values_list("slug", "description"), *Coach.objects.values_list("name", "email")]
    )
    return out


def try_control_characters() -> None:
    """Control characters written through the pages as a coach and the organiser would:
    every such write is refused and leaves no row; what is kept is plain text."""
    coach = CampaignCoach.objects.select_related("entry__coach__user", "campaign__season__league").first()
    user, league = coach.entry.coach.user, coach.campaign.season.league
    organiser = league.organisers.first()
    client = Client()
    client.force_login(user)
    response = client.post(reverse("profile"), {"name": "Hollis\x0bSprocket", "email": "hollis@example.org"})
    assert response.status_code == 400 and "U+000B" in response.content.decode()
    response = client.post(reverse("profile"), {"name": "Ada\u202eSprocket", "email": "hollis@example.org"})
    assert response.status_code == 400 and "U+202E" in response.content.decode()
    client.force_login(organiser)
    lines = CampaignPointLine.objects.count()
    response = client.post(
        reverse("campaigns:adjust", args=[league.slug, coach.entry.coach_id]),
        {"ledger": "cp", "amount": 2, "reason": "bonus\x1b[2J"},
    )
    assert response.status_code == 400 and CampaignPointLine.objects.count() == lines
    # What is plain text is kept as written: a description on several lines.
    League.objects.filter(pk=league.pk).update(description="Tuesdays at the Anchor.\n\tBring dice.")
    # A visitor's failed log-in is recorded verbatim by django-axes (not backed up).
    Client(HTTP_USER_AGENT="curl\x1b[2J").post(reverse("login"), {"username": "ada\x0b", "password": "x"})
    assert AccessAttempt.objects.filter(user_agent__contains="\x1b").exists()


def _env(database_url: str) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "DJANGO_ALLOW_ASYNC_UNSAFE")}
    # The suite's settings (tests/settings.py): the fresh database knows the same apps.
    env.update(DATABASE_URL=database_url, DJANGO_SETTINGS_MODULE="tests.settings")
    return env


def _run(args: list[str], database_url: str) -> str:
    done = subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=_env(database_url), capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, f"{args}: {done.stderr[-3000:]}"
    return done.stdout


def _fresh_database(tmp_path: Path):
    """A database URL for an empty database, and how to drop it afterwards."""
    if connection.vendor == "sqlite":
        return f"sqlite:///{tmp_path / 'restored.sqlite3'}", lambda: None
    import psycopg

    db = settings.DATABASES["default"]
    name = f"{db['NAME']}_restore"[:63]
    params = {"host": db.get("HOST") or "127.0.0.1", "port": db.get("PORT") or 5432, "user": db.get("USER"),
              "password": db.get("PASSWORD") or None, "dbname": "postgres", "autocommit": True}

    def admin(sql: str) -> None:
        with psycopg.connect(**params) as conn:
            conn.execute(sql)

    admin(f'DROP DATABASE IF EXISTS "{name}"')
    admin(f'CREATE DATABASE "{name}"')
    user = f"{db['USER']}" + (f":{db['PASSWORD']}" if db.get("PASSWORD") else "")
    return f"postgres://{user}@{params['host']}:{params['port']}/{name}", lambda: admin(f'DROP DATABASE "{name}"')


@pytest.mark.django_db
def test_dumpdata_and_loaddata_into_a_fresh_database_give_the_same_league(tmp_path):
    build_world()
    try_control_characters()
    before = json.loads(json.dumps(figures(), sort_keys=True, default=str))
    # The world has what the comparison is about, in every game.
    assert before["cp lines"] and before["favour lines"] and before["gold lines"] and before["dice"]
    assert {key.split()[1] for key in before if key.startswith("standings ")} >= {
        "harbour-lights", "altdorf-colleges", "neon-dome"}
    assert all(before[f"standings {slug} Season One"] for slug in ("harbour-lights", "altdorf-colleges", "neon-dome"))

    # XML keeps timestamps to the microsecond (the JSON encoder stops at milliseconds).
    backup = tmp_path / "backup.xml"
    call_command("dumpdata", format="xml", natural_foreign=True, natural_primary=True, exclude=EXCLUDED, output=str(backup),
                 verbosity=0)
    url, drop = _fresh_database(tmp_path)
    try:
        _run(["manage.py", "migrate", "--noinput", "-v", "0"], url)
        _run(["manage.py", "loaddata", str(backup), "-v", "0"], url)
        after = json.loads(_run(["-c", FIGURES], url))
    finally:
        drop()

    for key in before:
        assert after[key] == before[key], key
    assert after.keys() == before.keys()
